"""Label schemes: a task's closed set of labels, and the codes and words that name each one.

One scheme serves every reader of a task: the judge's answer, an annotator's cell, and, for the words, the
parser of a model's free text and the logprob reader of its next token.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from figeval.parsing import answer_words

Label = TypeVar("Label", bound=Enum)


@dataclass(frozen=True)
class LabelScheme(Generic[Label]):
    """How a label may be named: by number (0, 1, 2) or by word ("hallucinated", "correct")."""

    codes: Mapping[int, Label]
    """Every label, by the number a judge or annotator may give; their order is the order labels are shown."""
    words: Mapping[str, Label]
    """Lowercase words or phrases (Persian normalized) that name a label."""

    @property
    def labels(self) -> list[Label]:
        return list(self.codes.values())

    @property
    def values(self) -> list[str]:
        """The labels' values, as `Outcome.label` and `Score.value` spell them."""
        return [label.value for label in self.codes.values()]

    def read(self, value: object) -> Label | None:
        """The label a JSON value or a bare string names, or None."""
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return self.codes.get(value)
        if isinstance(value, float) and value.is_integer():
            return self.codes.get(int(value))
        if not isinstance(value, str):
            return None
        # Turkish-aware lowercasing turns an English capital I into dotless ı ("Incorrect" -> "ıncorrect"):
        # compare with ı folded to i on both sides ("hayır" and "HAYIR" still meet as "hayir").
        words = [word.replace("ı", "i") for word in answer_words(value)]
        if not words:
            return None
        phrase = f" {' '.join(words)} "
        named = {word.replace("ı", "i"): label for word, label in self.words.items()}
        # The label must lead ("2 (incorrect)", "Correct. The answer..."): "not correct" names nothing.
        if words[0].isdecimal():
            lead = self.codes.get(int(words[0]))
        else:
            lead = next((label for word, label in named.items() if phrase.startswith(f" {word} ")), None)
        mentioned = {self.codes.get(int(w)) for w in words if w.isdecimal()}
        mentioned |= {label for word, label in named.items() if f" {word} " in phrase}
        # Anything else it names must agree: "1 or 2", "1 (incorrect)" are no label.
        return lead if lead is not None and mentioned <= {lead} else None


def word_scheme(words: Mapping[Label, frozenset[str]]) -> LabelScheme[Label]:
    """A scheme whose codes follow the order of `words` (0, 1, ...) and whose words are the given sets."""
    return LabelScheme(
        codes=dict(enumerate(words)),
        words={word: label for label, variants in words.items() for word in sorted(variants)},
    )
