"""PerHalluEval answers given as a number on a scale, or marked as irony (documented in the README, "How answers are
read").

A score or a probability answers the prompt's yes/no question by where it lies on its scale, not by the words that
name the scale: «امتیاز وفاداری: ۵ از ۵» (faithfulness score 5 of 5) is Y by its number, and the «وفادار» inside the
scale's name states nothing (a middling «۳ از ۵» must not read as "faithful"). `scaled` writes each such statement
as a marker the readers' cues read (`MARKER_CUES`): the top of a score's scale is Y, its bottom fifth N, the rest the
middle; a probability that the answer is correct above one half is Y (a lean, read as a forced choice is), below one
half N, one half the middle. A scale named by the wrong label («احتمال توهم», "hallucination score") reads the
other way. The middle is no answer, nor is any other label beside it with nothing concluding (`MIDDLE`).

Irony («Very faithful. 🙄», "Oh sure, Gilan. 🙄"): praise marked as sarcasm may mean its opposite, so an answer
with an irony marker is not read as Y (`ironic`).
"""

from __future__ import annotations

import re

from figeval.verdict import Cue, cue

YES, NO = "Y", "N"
MIDDLE = "the middle of a scale"
"""What a score or a probability in the middle of its scale states: a label of its own, so that beside another
label it makes two answers, and alone it is no answer (`readers.read_faithfulness` raises `Undecided`)."""

_MARKS = {YES: " ⟦scale-y⟧ ", NO: " ⟦scale-n⟧ ", MIDDLE: " ⟦scale-mid⟧ "}
MARKER_CUES: list[Cue] = [item for label, mark in _MARKS.items() for item in cue(label, re.escape(mark.strip()))]

# What a scale measures, by language: the right label (correctness, faithfulness) or the wrong one (hallucination).
_RIGHT_NAME = (r"(?:وفاداری|درستی|صحت|دقت|اعتبار|faithfulness|accuracy|correctness|factuality|validity|"
               r"correct|accurate|faithful|true|doğruluk|sadakat|düzgünlük)")
_WRONG_NAME = r"(?:توهم|نادرستی|خطا|hallucination|hallucinated|incorrect|wrong|false|error|halüsinasyon|yanlışlık)"
_SCORE_WORD = r"(?:امتیاز|نمره|score|rating|puan|skor|bal)(?!\w)"
_PROBABILITY_WORD = r"(?:احتمال|probability|likelihood|chance|olasılık|ehtimal)(?!\w)"
_NAME = r"(?P<name>(?:\s+[^\W\d_]+){0,4}?)\s*"  # up to four words naming what is scored ("of the answer being correct")
# the scale's name after the score word (Persian: «امتیاز وفاداری») or before it (English: "faithfulness score")
_SCORE = re.compile(rf"(?:\b(?P<before>[^\W\d_]+)\s+)?\b{_SCORE_WORD}{_NAME}"
                    r"[:=]?\s*(?P<x>\d+(?:\.\d+)?)\s*(?:/|از|out of|of|üzerinden)\s*"
                    rf"(?P<y>\d+)(?![\d.]\d)")
_PROBABILITY = re.compile(rf"\b{_PROBABILITY_WORD}{_NAME}[:=]?\s*(?:(?:is|است|=)\s*)?(?:[%٪]\s*)?"
                          rf"(?P<p>\d+(?:\.\d+)?)\s*(?:[%٪]|درصد|percent)")


def _measures(name: str) -> bool | None:
    """True when the scale's name is the right label's, False the wrong one's, None when it names neither."""
    if re.search(_WRONG_NAME, name):
        return False
    return True if re.search(_RIGHT_NAME, name) else None


def _marked(label: str, right: bool) -> str:
    return _MARKS[label if right or label == MIDDLE else {YES: NO, NO: YES}[label]]


def _score(match: re.Match[str]) -> str:
    x, y = float(match.group("x")), float(match.group("y"))
    if y <= 0 or x > y:
        return match.group(0)  # not a score on a scale ("score 7/5")
    right = _measures(f"{match.group('before') or ''} {match.group('name')}")
    # an unnamed score ("امتیاز: ۱ از ۵") rates what the prompt asks about: the answer's / summary's validity
    label = YES if x == y else NO if x <= y / 5 else MIDDLE
    return _marked(label, right is not False)


def _probability(match: re.Match[str]) -> str:
    right = _measures(match.group("name"))
    if right is None:
        return match.group(0)  # "confidence: 90%": a probability of what is not said; the rest of the answer decides
    p = float(match.group("p"))
    if p > 100:
        return match.group(0)
    return _marked(YES if p > 50 else NO if p < 50 else MIDDLE, right)


def scaled(body: str) -> str:
    """The `answer_body` with each score and probability statement written as its marker (`MARKER_CUES`)."""
    return _PROBABILITY.sub(_probability, _SCORE.sub(_score, body))


# Marks of sarcasm: an eye-roll, an upside-down or unamused face, "/s", "yeah right".
_IRONY = re.compile(r"[🙄🙃😒😏]|(?:^|\s)/s\b|\byeah,?\s+right\b|\(sarcasm\)|\bsarcastic(?:ally)?\b")


def ironic(body: str) -> bool:
    """Whether the answer marks itself as sarcasm (its praise is then no Y)."""
    return bool(_IRONY.search(body))
