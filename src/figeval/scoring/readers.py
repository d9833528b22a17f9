"""Answer readers: a model output -> a label, in either answer mode, with the same label words for both.

`generate`: the free text is read in layers, and the layer that read it is recorded (`Outcome.read_by`):
1. the paper's rule, where the paper states one (the answer in the form its prompt asks);
2. figeval's reader: what a person reads without hesitation (each benchmark documents its own); where it reads
   another label than the paper's rule, it decides (it reads the whole answer; the rule, one word of it);
3. anything else is `unparsed`, never a guess.
An output stopped by the token limit is read from its complete sentences by figeval's reader only (a person reads
the verdict a rambling answer began with); when they state nothing it is `truncated` (counted as unparsed, named
apart). An output the loop guard stopped (`figeval.models.loops`: it was repeating itself) is
`truncated` too, with that reason: it was stopped before it ended, and what it would have said is unknown.
`logprob`: the probability mass of each label's words among the next token's top candidates decides, as
lm-evaluation-harness does for base models; the label with the most mass wins, and no mass or a tie is None.
The mass on all the labels' words together is kept (`label_mass`): a small one says the model barely answered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from inspect_ai.model import ModelOutput

from figeval.answering import ASKED_IN, AnswerMode
from figeval.errors import FigevalError
from figeval.markup import unwrapped
from figeval.models.loops import LOOP_REASON, looped
from figeval.parsing import best_label, label_probabilities, strip_reasoning
from figeval.scoring.outcome import DecidedBy, Outcome, ReadBy
from figeval.verdict import Undecided

TopLogprobs = list[tuple[str, float]]


def next_token_top_logprobs(output: ModelOutput) -> TopLogprobs:
    """(token, log-probability) candidates for the first generated token.

    Raises:
        FigevalError: the model sent no logprobs (a configuration problem, not an answer to count).
    """
    if not output.choices or output.choices[0].logprobs is None or not output.choices[0].logprobs.content:
        raise FigevalError(
            f"model {output.model} returned no logprobs; logprob answers (and verifiers reading P(yes)) need a "
            "provider that returns top_logprobs, or use answer_mode=generate."
        )
    first = output.choices[0].logprobs.content[0]
    candidates = [(top.token, top.logprob) for top in first.top_logprobs or []]
    return candidates or [(first.token, first.logprob)]


def _shown(text: str) -> str:
    return repr(text if len(text) <= 200 else text[:200] + "...")


Parse = Callable[[str], str | None]

# Inspect's stop reasons for an output cut by the token limit or the model's context.
CUT_OFF = ("max_tokens", "model_length")
LABEL_MASS = "label_mass"
"""Outcome detail (logprob mode): the probability mass on all the labels' words together."""


def is_truncated(output: ModelOutput) -> bool:
    """Whether a generated answer was stopped before it ended, by the token limit or the loop guard (so what it
    would have said is unknown)."""
    return output.stop_reason in CUT_OFF or looped(output)


def truncated_outcome(output: ModelOutput, target: str | None = None) -> Outcome:
    if looped(output):
        # no advice to raise the limit: more tokens would only repeat it. Counted in characters, as the rule is
        details = output.choices[0].stop_details
        said = details.explanation if details is not None and details.explanation else LOOP_REASON
        return Outcome.truncated(DecidedBy.PARSER, f"{said}, after {len(output.completion)} characters, before an "
                                 "answer was read", target, stopped=LOOP_REASON)
    tokens = output.usage.output_tokens if output.usage else None
    return Outcome.truncated(DecidedBy.PARSER, f"stopped by the token limit ({tokens} tokens) before an answer "
                             "was read: raise max_tokens (--max-tokens) and re-run", target)


_SENTENCE_END = re.compile(r"[.!?؟\n]")


def complete_sentences(text: str) -> str:
    """The text up to its last complete sentence: what an answer cut off mid-sentence has said for sure."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return text[:ends[-1]] if ends else ""


def _cut_off_reading(output: ModelOutput, reader: Parse, target: str | None) -> Outcome:
    """An answer the token limit stopped: what its complete sentences state, read by figeval's reader (the paper's
    first/last-word rules need the whole answer), as a person reads the verdict a rambling answer began with;
    `truncated` when they state nothing (a think block never closed, a cut before the verdict) or two answers.
    A looping answer is `truncated` whatever its sentences say: caught repeating itself, the model stopped
    answering before it concluded."""
    if looped(output):
        return truncated_outcome(output, target)
    said = complete_sentences(strip_reasoning(unwrapped(output.completion)[0]))
    try:
        label = reader(said) if said.strip() else None
    except Undecided:
        label = None
    if label is None:
        return truncated_outcome(output, target)
    return Outcome(label, DecidedBy.PARSER, target=target, answer=label, read_by=ReadBy.FIGEVAL_READER,
                   explanation=f"read {label} by figeval's reader from the complete sentences of an answer cut off "
                               f"by the token limit: {_shown(said)}")


def read_layers(text: str, paper: Parse | None, reader: Parse,
                closed: bool = True) -> tuple[str | None, ReadBy | None, str]:
    """(label or answer, the layer that read it, how) of a free-text answer, once unwrapped for every reader
    (`markup.unwrapped`: markup, tables, fences, template tokens, invisible marks, full-width letters): the
    paper's rule, else figeval's reader.

    Args:
        closed: the answer is a closed label. Then, when both layers read and disagree, figeval's reader decides:
            it reads the whole answer, where a paper's rule reads a word of it (a first word "Yes" of "Yes, the
            sentence has the idiom, but it is used literally, so: no"); the explanation names what the paper's
            rule would have read. For an open answer (the text a judge is shown) the reader is a fallback only.
    """
    text, done = unwrapped(text)
    unwrapping = f" (once {', '.join(done)} unwrapped)" if done else ""
    by_paper = paper(text) if paper else None
    if by_paper is not None and not closed:
        return by_paper, ReadBy.PAPER_RULE, f"in the form the paper's prompt asks{unwrapping}"
    try:
        by_reader = reader(text)
    except Undecided as undecided:
        # two answers are no answer, whatever one word of them would read
        return None, None, f"no label: {undecided}{unwrapping}"
    if by_paper is not None and by_reader is not None and by_paper != by_reader:
        return (by_reader, ReadBy.FIGEVAL_READER,
                f"by figeval's reader (the paper's rule would read {by_paper}){unwrapping}")
    if by_paper is not None:
        return by_paper, ReadBy.PAPER_RULE, f"by the paper's rule{unwrapping}"
    if by_reader is not None:
        return by_reader, ReadBy.FIGEVAL_READER, f"by figeval's reader{unwrapping}"
    return None, None, f"no label{unwrapping}"


def read_answer(
    output: ModelOutput,
    mode: AnswerMode,
    *,
    paper: Parse | None,
    reader: Parse,
    words: Mapping[str, frozenset[str]],
    target: str | None = None,
    prefixes: bool = False,
    mass: Callable[[TopLogprobs], dict[str, float]] | None = None,
) -> Outcome:
    """The outcome of a closed-label answer.

    Args:
        output: the model's output.
        mode: how the task asked (free text or one token with logprobs).
        paper: generate mode: the paper's rule, text -> a label value or None; None where the paper states none.
        reader: generate mode: figeval's reader, text -> a label value or None.
        words: logprob mode: label value -> the words that name it (the readers' words, so both modes agree).
        target: the expected label, for accuracy.
        prefixes: logprob mode: also count a token that begins a label's word (labels longer than one token).
        mass: logprob mode: a task's own label-mass function instead of `label_probabilities` over `words`.

    Every outcome records the mode it was asked in (`ASKED_IN`), which the run's `asked/<mode>` shares count.
    """
    outcome = _read(output, mode, paper, reader, words, target, prefixes, mass)
    return replace(outcome, details={**outcome.details, ASKED_IN: mode.value})


def _read(output: ModelOutput, mode: AnswerMode, paper: Parse | None, reader: Parse,
          words: Mapping[str, frozenset[str]], target: str | None, prefixes: bool,
          mass: Callable[[TopLogprobs], dict[str, float]] | None) -> Outcome:
    if mode is AnswerMode.GENERATE:
        if is_truncated(output):
            return _cut_off_reading(output, reader, target)
        text = output.completion
        label, layer, how = read_layers(text, paper, reader)
        if label is None:
            return Outcome.unparsed(DecidedBy.PARSER, f"{how} in {_shown(text)}", target)
        return Outcome(label, DecidedBy.PARSER, target=target, answer=label, read_by=layer,
                       explanation=f"read {label} {how} from {_shown(text)}")
    candidates = next_token_top_logprobs(output)
    probabilities = mass(candidates) if mass else label_probabilities(candidates, words, prefixes=prefixes)
    described = ", ".join(f"P({name})={p:.4f}" for name, p in probabilities.items())
    details = {"probabilities": probabilities, LABEL_MASS: sum(probabilities.values())}
    label = best_label(probabilities)
    if label is None:
        return Outcome.unparsed(DecidedBy.LOGPROB, f"no label decides among the top {len(candidates)} next tokens "
                                f"({described})", target, **details)
    return Outcome(label, DecidedBy.LOGPROB, target=target, answer=label, explanation=f"{described} -> {label}",
                   read_by=ReadBy.LOGPROB, details=details)
