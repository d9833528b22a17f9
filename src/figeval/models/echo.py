"""A check, after a run, that a model's answers are not the prompt coming back: a base model served behind a chat
template continues the template (its turn markers, the user's turn again) instead of answering. A run whose
answers are mostly echoes gets one warning line naming the ways out (log-probability answers, the completions
endpoint, an instruction-tuned model).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from figeval.parsing import answer_words, strip_reasoning

# Turn markers of the common chat templates (ChatML, Gemma, Llama 3, Llama 2/Mistral, Phi/Zephyr): text a chat
# model never writes in an answer; a base model continuing a template writes the next turn's.
CHAT_MARKERS = re.compile(r"<\|im_start\|>|<\|im_end\|>|<start_of_turn>|<end_of_turn>|<\|start_header_id\|>|"
                          r"<\|end_header_id\|>|<\|eot_id\|>|\[/?INST\]|<\|(?:user|assistant|system)\|>")
# A line that is only a role name: what is left of a turn marker when the server drops special tokens from the
# text ("<|im_start|>user" -> "user").
ROLE_LINE = re.compile(r"^[ \t]*(?:user|assistant|model|system)[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)
# An answer repeats a prompt text of at least ECHO_MIN_WORDS words when it holds the text's first ECHO_MIN_WORDS
# words in a row (the prompts open with their instruction, which an answer has no reason to copy; an echo cut off
# by the token limit holds at least that), or ECHO_SHARE of the text's word trigrams. Quoting the expression,
# sentence or answer a question is about holds a part of the text and not its opening; an echo holds most of it.
ECHO_MIN_WORDS = 8
ECHO_SHARE = 0.5
# A run whose answers are echoes in at least this share is warned about.
ECHO_RUN_SHARE = 0.5


def _trigrams(words: Sequence[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def _holds_run(words: Sequence[str], run: Sequence[str]) -> bool:
    size = len(run)
    return any(list(words[i:i + size]) == list(run) for i in range(len(words) - size + 1))


def repeats(answer: str, text: str) -> bool:
    """Whether `answer` repeats `text`: its opening words in a row, or most of its word trigrams (see ECHO_SHARE;
    texts under ECHO_MIN_WORDS words never count: an honest answer may quote a short prompt whole)."""
    words = answer_words(text)
    if len(words) < ECHO_MIN_WORDS:
        return False
    said = answer_words(answer)
    if _holds_run(said, words[:ECHO_MIN_WORDS]):
        return True
    wanted = _trigrams(words)
    return len(wanted & _trigrams(said)) >= ECHO_SHARE * len(wanted)


def echoes(answer: str, prompts: Iterable[str]) -> bool:
    """Whether an answer is a chat template's remnant or a prompt coming back: a turn marker, a line that is only
    a role name, or most of one of the prompt's messages (see `repeats`). A reasoning block is left out: a
    reasoning model may restate the question in it before it answers."""
    answer = strip_reasoning(answer)
    if CHAT_MARKERS.search(answer) or ROLE_LINE.search(answer):
        return True
    return any(repeats(answer, prompt) for prompt in prompts)


@dataclass(frozen=True)
class Answered:
    """One sample's prompt messages (system and user texts) and the model's answer."""

    prompts: tuple[str, ...]
    answer: str
    has_system: bool = False


def completions_model(model: str) -> str | None:
    """The same model on the completions endpoint (the prompt sent as raw text, no chat template), where Inspect
    has such a provider."""
    provider, _, rest = model.partition("/")
    return {"openai-api": f"openai-api-completions/{rest}", "vllm": f"vllm-completions/{rest}"}.get(provider)


def echo_warning(answered: Sequence[Answered], model: str, takes_answer_mode: bool) -> str | None:
    """The one-line warning for a run whose answers are mostly the prompt coming back (ECHO_RUN_SHARE or more), or
    None.

    Args:
        answered: the run's generated answers (not logprob ones: one token is not an echo).
        model: the run's model, for the completions endpoint's name.
        takes_answer_mode: whether the task can ask by log-probabilities (`-T answer_mode=logprob`).
    """
    given = [one for one in answered if one.answer.strip()]
    echoed = [one for one in given if echoes(one.answer, one.prompts)]
    if not given or len(echoed) < ECHO_RUN_SHARE * len(given):
        return None
    marker = next((m.group(0) for one in echoed if (m := CHAT_MARKERS.search(one.answer))), None)
    how = []
    if takes_answer_mode:
        how.append("-T answer_mode=logprob (its answer read from the next token's log-probabilities)")
    completions = completions_model(model)
    if completions and not any(one.has_system for one in given):
        how.append(f"--model {completions} (the prompt sent as raw text, without a chat template)")
    advice = ("ask it with " + " or ".join(how) + ", or use an instruction-tuned model" if how
              else "this task needs written answers: use an instruction-tuned model, or serve this one with its own "
                   "chat template")
    return (f"warning: {len(echoed)} of {len(given)} answers repeat the prompt"
            + (f" or chat-template markers ({marker})" if marker else "")
            + f": {model} looks like a base model behind a chat template; {advice}.")


def answers_of_log(log: Any) -> list[Answered]:
    """A finished run's generated answers, from its EvalLog (samples read): each sample's input messages and its
    output text; none of a sample asked by log-probabilities (its output is one token), as its scores record it."""
    from figeval.answering import ASKED_IN, AnswerMode

    answered = []
    for sample in log.samples or []:
        asked = {(score.metadata or {}).get(ASKED_IN) for score in (sample.scores or {}).values()}
        if sample.output is None or not sample.output.choices or AnswerMode.LOGPROB.value in asked:
            continue
        inputs = [message for message in sample.messages if message.role in ("system", "user")]
        answered.append(Answered(prompts=tuple(message.text for message in inputs), answer=sample.output.completion,
                                 has_system=any(message.role == "system" for message in inputs)))
    return answered
