"""The believability score of a hallucinated candidate (PerHalluEval Section 3.3, Figures 6-7, Appendix G).

A verifier model is asked whether the candidate is correct and answers with one token; from that token's top
log-probabilities, P(Y) sums the probabilities of every token that is a variant of the letter Y, P(N) likewise,
and the score is P(Y) - P(N): the most believable hallucination scores highest. The same reading decides an
evaluated model's Y/N in logprob mode.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

# The tokens that count as each letter, by kind. Figure 6's examples count Ñ, Ń, ń and ŋ as N (the QA example's
# "ŋ" is an "n" variant in the original figure); the paper's regexes (Appendix G) are not in its text, so the
# classes below generalize what the figures show: case, accented forms, and look-alike letters.
LETTER_VARIANTS: dict[str, dict[str, str]] = {
    "Y": {
        "case": "Yy",
        "accents": "ÝýŸÿŶŷȲȳỲỳỴỵỶỷỸỹẎẏẙ",
        "look-alikes": "ＹｙУуҮүΥ",  # fullwidth, Cyrillic U/u and Ue, Greek Upsilon
    },
    "N": {
        "case": "Nn",
        "accents": "ÑñŃńŅņŇňǸǹṄṅṆṇṈṉṊṋ",
        "look-alikes": "ＮｎΝŋŊ",  # fullwidth, Greek Nu, eng (Figure 6)
    },
}


def _letter_pattern(letter: str) -> re.Pattern[str]:
    """One variant of the letter, optionally with spaces around it."""
    return re.compile(rf"^\s*[{''.join(LETTER_VARIANTS[letter].values())}]\s*$")


Y_VARIANTS = _letter_pattern("Y")
N_VARIANTS = _letter_pattern("N")


@dataclass(frozen=True)
class Believability:
    p_yes: float
    p_no: float

    @property
    def score(self) -> float:
        return self.p_yes - self.p_no

    @property
    def has_answer(self) -> bool:
        """Whether any Y or N variant was among the candidates (if none, the candidate cannot be ranked)."""
        return self.p_yes > 0 or self.p_no > 0


def believability(top_logprobs: Iterable[tuple[str, float]]) -> Believability:
    """P(Y) and P(N) over a verifier's next-token candidates, each summed over the letter's variants."""
    p_yes = p_no = 0.0
    for token, logprob in top_logprobs:
        token = unicodedata.normalize("NFC", token)
        if Y_VARIANTS.match(token):
            p_yes += math.exp(logprob)
        elif N_VARIANTS.match(token):
            p_no += math.exp(logprob)
    return Believability(p_yes, p_no)
