"""Answer readers: a model output -> a label, in either answer mode, with the same label words for both.

`generate`: a parser reads the free text (a pure function from `figeval.parsing`, returning a label or None).
`logprob`: the probability mass of each label's words among the next token's top candidates decides, as
lm-evaluation-harness does for base models; the label with the most mass wins, and no mass or a tie is None.
Either way, None becomes an `unparsed` outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from inspect_ai.model import ModelOutput

from figeval.answering import AnswerMode
from figeval.errors import FigevalError
from figeval.parsing import best_label, label_probabilities
from figeval.scoring.outcome import DecidedBy, Outcome

TopLogprobs = list[tuple[str, float]]


def next_token_top_logprobs(output: ModelOutput) -> TopLogprobs:
    """(token, log-probability) candidates for the first generated token.

    Raises:
        FigevalError: the model sent no logprobs (a configuration problem, not an answer to count).
    """
    if not output.choices or output.choices[0].logprobs is None or not output.choices[0].logprobs.content:
        raise FigevalError(
            f"model {output.model} returned no logprobs; logprob answers (and the PerHalluEval verifier) need a "
            "provider that returns top_logprobs, or use answer_mode=generate."
        )
    first = output.choices[0].logprobs.content[0]
    candidates = [(top.token, top.logprob) for top in first.top_logprobs or []]
    return candidates or [(first.token, first.logprob)]


def _shown(text: str) -> str:
    return repr(text if len(text) <= 200 else text[:200] + "...")


def read_answer(
    output: ModelOutput,
    mode: AnswerMode,
    *,
    parse: Callable[[str], str | None],
    words: Mapping[str, frozenset[str]],
    target: str | None = None,
    prefixes: bool = False,
    mass: Callable[[Iterable[tuple[str, float]]], dict[str, float]] | None = None,
) -> Outcome:
    """The outcome of a closed-label answer.

    Args:
        output: the model's output.
        mode: how the task asked (free text or one token with logprobs).
        parse: generate mode: the text -> a label value, or None.
        words: logprob mode: label value -> the words that name it (the parser's words, so both modes agree).
        target: the expected label, for accuracy.
        prefixes: logprob mode: also count a token that begins a label's word (labels longer than one token).
        mass: logprob mode: a task's own label-mass function instead of `label_probabilities` over `words`.
    """
    if mode is AnswerMode.GENERATE:
        text = output.completion
        label = parse(text)
        if label is None:
            return Outcome.unparsed(DecidedBy.PARSER, f"no label in {_shown(text)}", target)
        return Outcome(label, DecidedBy.PARSER, target=target, answer=label,
                       explanation=f"read {label} from {_shown(text)}")
    candidates = next_token_top_logprobs(output)
    probabilities = mass(candidates) if mass else label_probabilities(candidates, words, prefixes=prefixes)
    described = ", ".join(f"P({name})={p:.4f}" for name, p in probabilities.items())
    label = best_label(probabilities)
    if label is None:
        return Outcome.unparsed(DecidedBy.LOGPROB, f"no label decides among the top {len(candidates)} next tokens "
                                f"({described})", target, probabilities=probabilities)
    return Outcome(label, DecidedBy.LOGPROB, target=target, answer=label, explanation=f"{described} -> {label}",
                   details={"probabilities": probabilities})
