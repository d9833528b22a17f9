"""What a task declares for its annotators: the labels, the instructions, which answers they get, and the
direction of the answers' script in annotation tools."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from figeval.scoring.labels import LabelScheme


@dataclass(frozen=True)
class AnnotationSpec:
    """What a task tells annotators, which answers it gives them, and how their labels are read."""

    scheme: LabelScheme
    instructions: tuple[str, ...]
    input_key: str
    """The sample metadata key whose text annotators see as the item's input (the meaning, the question)."""
    answers: str = "parsed"
    """Which answers annotators get: `parsed` (to check a judge), `unparsed` (what the parser could not read,
    to label by hand) or `all` (every output, as the paper's annotators labelled them)."""
    direction: str = "rtl"
    """The direction of the answers' script in annotation tools: `rtl` (Persian) or `ltr` (Turkish)."""


SpecOf = Callable[[str], AnnotationSpec]
"""The annotation spec of a task name (raises a FigevalError for a task without one)."""
