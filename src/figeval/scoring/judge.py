"""LLM-as-judge: asking a judge model for a label, reading its answer, keeping injected text inert.

A benchmark gives the judge prompt and a label scheme (codes and words that mean each label); this module
quotes the evaluated text as data, asks the judge (Inspect's `grader` role, or `-T judge=provider/model`),
parses its JSON answer robustly, and asks once more when the answer cannot be read. A judge answer that still
cannot be read is `judge_unparsed`: it is never counted as any label.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Generic

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model, get_model

from figeval._compat import PrerequisiteError
from figeval.answering import DETERMINISTIC, response_cache
from figeval.errors import FigevalError
from figeval.parsing import strip_reasoning
from figeval.scoring.labels import Label, LabelScheme
# Sent after an answer the parser could not read (one retry).
JUDGE_RETRY_MESSAGE = 'Reply with the JSON object only, for example {"label": 1, "reason": "..."}.'

_CODE_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_LABEL_FIELD = re.compile(r"[\"']?label[\"']?\s*[:=]\s*[\"']?([^\"',}\n]+)", re.IGNORECASE)


@dataclass(frozen=True)
class JudgeVerdict(Generic[Label]):
    label: Label | None
    """None: the judge's answer could not be read, even after one retry."""
    reason: str
    raw: list[str]
    """Every answer the judge gave, in order."""


def parse_judge_answer(text: str, scheme: LabelScheme[Label]) -> tuple[Label | None, str]:
    """The label and reason in a judge's answer: JSON (bare, in a code fence, or amid prose), a `label:` line,
    or a bare label. (None, "") when no single label can be read."""
    text = strip_reasoning(text)
    fenced = _CODE_FENCE.search(text)
    candidates = ([fenced.group(1)] if fenced else []) + _JSON_OBJECT.findall(text)
    for candidate in candidates:
        try:
            obj = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, list) and len(obj) == 1:
            obj = obj[0]
        if isinstance(obj, dict):
            fields = {str(key).lower(): value for key, value in obj.items()}
            if "label" in fields:
                return scheme.read(fields["label"]), str(fields.get("reason", ""))
    field = _LABEL_FIELD.search(text)
    if field:
        return scheme.read(field.group(1)), ""
    return scheme.read(text), ""


def quote_as_data(text: str, tag: str) -> str:
    """Wrap text the judge must evaluate, not obey, in <tag>...</tag>.

    Any tag of the same name inside the text is neutralized, so the text cannot close the block early and
    place instructions outside it.
    """
    neutral = re.sub(rf"<\s*(/?)\s*{tag}\s*>", lambda m: f"[{m.group(1)}{tag}]", text, flags=re.IGNORECASE)
    return f"<{tag}>\n{neutral}\n</{tag}>"


def resolve_judge(judge: str | Model | None) -> Model:
    """The judge model: the one given, else the model bound to Inspect's `grader` role."""
    if judge is not None:
        return get_model(judge)
    try:
        return get_model(role="grader", required=True)
    except PrerequisiteError:
        raise FigevalError(NO_JUDGE) from None


NO_JUDGE = "this task needs a judge model: pass -T judge=provider/model (or --model-role grader=provider/model)."


def require_judge(judge: str | None) -> None:
    """Refuse, when a judged task is built, a judge that will not be there: no `judge` argument and no `grader`
    role, checked inside Inspect's task resolution (`inspect eval`, `figeval run`, `eval("figeval/...")`), where
    the roles are already bound; a task object built before `eval()` cannot know them and is checked at its first
    sample.

    Raises:
        FigevalError: no judge given and no grader role bound.
    """
    from inspect_ai.model import model_roles

    from figeval._compat import active_model

    if judge is None and active_model() is not None and "grader" not in model_roles():
        raise FigevalError(NO_JUDGE)


async def ask_judge(model: Model, system: str, prompt: str, scheme: LabelScheme[Label]) -> JudgeVerdict[Label]:
    """Ask the judge; if its answer cannot be read, ask once more with a reminder of the format."""
    messages: list[ChatMessage] = [ChatMessageSystem(content=system), ChatMessageUser(content=prompt)]
    raw: list[str] = []
    for _attempt in range(2):
        output = await model.generate(messages, config=DETERMINISTIC, cache=response_cache(str(model)))
        raw.append(output.completion)
        label, reason = parse_judge_answer(output.completion, scheme)
        if label is not None:
            return JudgeVerdict(label, reason, raw)
        messages = messages + [output.message, ChatMessageUser(content=JUDGE_RETRY_MESSAGE)]
    return JudgeVerdict(None, "", raw)
