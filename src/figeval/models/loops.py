"""When a generation is looping: the rule by which the gguf provider stops an answer, and how such an output is
marked.

The rule, on the text generated so far (characters, not one model's tokens, so any provider's text is judged alike):
the text ends in a passage of p characters (1 <= p <= MAX_PERIOD) repeated back to back, the repetition
covering at least max(MIN_REPEATS * p, MIN_SPAN) characters (an exact period p over that span: every character
equal to the one p before it). Why these numbers, from SmolLM2-135M-Instruct's 40 FFE detection answers in
generate mode (greedy, 600 tokens at most): 7 looped to the limit, their longest repeated passages of 5, 17, 17,
23, 202, 284 and 383 characters (a word, a quoted phrase, a sentence fragment, whole paragraphs); the 33 others
(up to 1,134 characters) repeat no passage of up to 600 characters three times, the most being a phrase said
twice ("The Best of the Best" or "The Best of the Best"). So:
- MAX_PERIOD 600: the paragraph loops (up to 383 measured) are caught; a period is a few sentences at most.
- MIN_REPEATS 3: a phrase or sentence said twice is ordinary prose (a gloss repeated for emphasis); said three
  times back to back, word for word, it is a loop (a person reads no third copy as news).
- MIN_SPAN 200: short periods need a long run, so markup is never a loop: a table rule `|---|---|` (period 4)
  would need 50 columns, a run of spaces, dots or dashes 200 of them, a word (period 5) 40 copies.
A loop of period 383 is stopped after about 1,150 characters of it (about 300 tokens), one of 17 after 200
(about 60): the issue's loops ran to about 1,950 tokens each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_PERIOD = 600
MIN_REPEATS = 3
MIN_SPAN = 200

# How a stopped output says so: Inspect's choice `stop_details.type` (beside stop_reason "unknown": Inspect has
# no stop reason for a provider's own stop), and the words a reader's explanation gives.
LOOP_STOP = "repetition_loop"
LOOP_REASON = "stopped: repeating itself"


def _window(period: int) -> int:
    return max(MIN_REPEATS * period, MIN_SPAN)


def loop_period(text: str) -> int | None:
    """The shortest period of a loop `text` ends in (by the module's rule), or None: called after every token of
    a live answer, so it compares slices only where the last character recurs."""
    n = len(text)
    for period in range(1, min(MAX_PERIOD, n // MIN_REPEATS) + 1):
        window = _window(period)
        if window > n or text[-1] != text[-1 - period]:
            continue
        tail = text[n - window:]
        if tail[period:] == tail[:-period]:
            return period
    return None


def loop_end(text: str) -> int | None:
    """Where a text first meets the rule: the length of its shortest prefix that ends in a loop, or None when no
    prefix does. An answer the guard stopped keeps this much, so its kept text, judged again, is cut at the same
    place."""
    if len(text) < MIN_SPAN:
        return None
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    first: int | None = None
    for period in range(1, min(MAX_PERIOD, len(codes) // MIN_REPEATS) + 1):
        # prefix text[:e] ends in a loop of this period when the `window - period` characters before e each equal
        # the one `period` before them: a run of that many matches ending at e - 1
        needed = _window(period) - period
        if needed > len(codes) - period:
            continue
        matches = np.concatenate(([0], np.cumsum(codes[period:] == codes[:-period])))
        full = np.flatnonzero(matches[needed:] - matches[:-needed] == needed)
        if full.size:
            end = int(full[0]) + needed + period  # the run covers matches[start:start + needed]: text up to here
            first = end if first is None else min(first, end)
    return first


def stopped_looping(text: str) -> tuple[str, dict[str, Any]] | None:
    """A text cut where it first meets the rule and the stop's details (for Inspect's `StopDetails`), or None
    when it never loops."""
    end = loop_end(text)
    if end is None:
        return None
    kept = text[:end]
    period = loop_period(kept) or 0
    return kept, {"type": LOOP_STOP,
                  "explanation": f"{LOOP_REASON}: a passage of {period} characters repeated back to back"}


def looped(output: Any) -> bool:
    """Whether an Inspect `ModelOutput` was stopped by the loop guard (its choice's `stop_details`)."""
    choice = output.choices[0] if output.choices else None
    details = getattr(choice, "stop_details", None)
    return details is not None and details.type == LOOP_STOP
