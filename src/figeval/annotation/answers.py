"""An answer as annotators see it, and the digest that ties a label to the answer people labelled."""

from __future__ import annotations

import hashlib
import unicodedata

from inspect_ai.log import EvalLog, EvalSample

from figeval.scoring.outcome import Outcome


def task_name(log: EvalLog) -> str:
    return log.eval.task.split("/")[-1]  # "figeval/<task>" -> "<task>"


def shown_answer(sample: EvalSample, outcome: Outcome) -> str:
    """The answer annotators see for a sample: as read, or, when no reader read it, as the model wrote it."""
    return sample.output.completion if outcome.is_unparsed else (outcome.answer or "")


def normalized_answer(text: str) -> str:
    """An answer as compared between a sheet and a log: what a spreadsheet may change on saving is left out
    (Unicode composition, line endings, spaces around the text); everything else counts."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def answer_digest(text: str) -> str:
    """A short digest of an answer (the first 16 hex digits of the sha256 of its normalized text), written with
    each label so that a label is applied only to the answer people labelled, never to another run's."""
    return hashlib.sha256(normalized_answer(text).encode("utf-8")).hexdigest()[:16]
