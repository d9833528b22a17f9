"""The verifier's believability score on hand-made top-logprob lists, including the paper's own example."""

import math

import pytest

from figeval.benchmarks.perhallueval.verifier import believability


def test_figure_6_question_answering_example():
    # Figure 6, QA: N -0.3711, Ñ -4.6052, n -1.8971, Y -2.9957, ŋ -2.3026 ("ŋ" is an n in the original figure).
    # P(N) = e^-0.3711 + e^-4.6052 + e^-1.8971 + e^-2.3026 = 0.6900 + 0.0100 + 0.1500 + 0.1000 = 0.9500
    # P(Y) = e^-2.9957 = 0.0500; score = 0.0500 - 0.9500 = -0.9000
    result = believability([("N", -0.3711), ("Ñ", -4.6052), ("n", -1.8971), ("Y", -2.9957), ("ŋ", -2.3026)])
    assert result.p_no == pytest.approx(0.9500, abs=1e-4)
    assert result.p_yes == pytest.approx(0.0500, abs=1e-4)
    assert result.score == pytest.approx(-0.9000, abs=1e-4)


def test_figure_6_summarization_example():
    # Figure 6, summarization: N -0.2357, Ñ -4.6052, Y -1.9661, Ń -4.6052, ń -2.9957.
    # P(N) = e^-0.2357 + e^-4.6052 + e^-4.6052 + e^-2.9957 = 0.7900 + 0.0100 + 0.0100 + 0.0500 = 0.8600
    # P(Y) = e^-1.9661 = 0.1400; score = 0.1400 - 0.8600 = -0.7200
    result = believability([("N", -0.2357), ("Ñ", -4.6052), ("Y", -1.9661), ("Ń", -4.6052), ("ń", -2.9957)])
    assert result.p_no == pytest.approx(0.8600, abs=1e-4)
    assert result.p_yes == pytest.approx(0.1400, abs=1e-4)
    assert result.score == pytest.approx(-0.7200, abs=1e-4)


@pytest.mark.parametrize(
    "token, letter",
    [("Y", "y"), ("y", "y"), (" Y", "y"), ("Ý", "y"), ("ÿ", "y"), ("Ｙ", "y"), ("N", "n"), (" n", "n"),
     ("Ñ", "n"), ("Ň", "n"), ("N\u0303", "n"),  # N + combining tilde: NFC makes it Ñ
     ("ŋ", "n"), ("Ŋ", "n"), ("Ν", "n"), ("У", "y"), ("ү", "y"), ("Υ", "y"),  # look-alike letters
     ("Yes", None), ("No", None), ("YN", None), ("بله", None), ("\n", None), (".", None)],
)
def test_variants(token, letter):
    result = believability([(token, math.log(0.5))])
    assert (result.p_yes, result.p_no) == {"y": (0.5, 0.0), "n": (0.0, 0.5), None: (0.0, 0.0)}[letter]


def test_no_y_or_n_token_means_no_answer():
    assert not believability([("The", -0.1), ("\n", -2.0)]).has_answer
    assert believability([("y", -3.0)]).has_answer
