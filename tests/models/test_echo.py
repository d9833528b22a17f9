"""figeval.models.echo on hand-read answers: echoes of a base model behind a chat template, honest answers that quote
the question, and the one warning a run of echoes gets. Against a served stub that echoes:
test_local_server_queue.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from figeval.benchmarks.ffe_hallu.prompts import FAKE_QUESTION, REAL_QUESTION
from figeval.benchmarks.perhallueval.prompts import EVALUATION_PROMPT
from figeval.benchmarks.turkish_idioms.prompts import DETECTION_PROMPT, ENTAILMENT_PROMPT
from figeval.models.echo import Answered, answers_of_log, echo_warning, echoes
from tests.real_answers.corpus import load

QUESTION, WRONG = "پرجمعیت‌ترین شهر ایران کدام است؟", "مشهد"
QA_PROMPT = EVALUATION_PROMPT["qa"].format(question=QUESTION, answer=WRONG)
EXPRESSION = "گربه را دم دروازه کشتن"
FAKE_Q = FAKE_QUESTION.format(expression=EXPRESSION)
REAL_Q = REAL_QUESTION.format(expression=EXPRESSION)
SENTENCE = "Yeni telefon çıkınca eskisinin pabucu dama atıldı."
DETECTION = DETECTION_PROMPT["en"].format(sentence=SENTENCE)
PREMISE, HYPOTHESIS = "Patron toplantıda herkesin ağzının payını verdi.", "Patron toplantıda herkesi azarladı."
ENTAILMENT = ENTAILMENT_PROMPT["en"].format(premise=PREMISE, hypothesis=HYPOTHESIS)

# What a base model behind a server's chat template writes (hand-read: none of them answers the question).
ECHOED = [
    # ChatML, llama-server rendering special tokens: an empty assistant turn, then the user's turn again
    (QA_PROMPT, f"<|im_end|>\n<|im_start|>user\n{QA_PROMPT}<|im_end|>\n<|im_start|>assistant\n"),
    # the same with special tokens dropped from the text: role names alone on their lines are what is left
    (QA_PROMPT, f"\nuser\n{QA_PROMPT}\nassistant\nOutput:"),
    # the prompt again, nothing else (no marker): the answer holds all of the prompt
    (QA_PROMPT, QA_PROMPT),
    # the prompt again, cut off by the token limit after 150 characters: 30 of its 61 word trigrams (under half),
    # but its opening 8 words in a row
    (QA_PROMPT, QA_PROMPT[:150]),
    # Gemma's template
    (FAKE_Q, f"<end_of_turn>\n<start_of_turn>user\n{FAKE_Q}<end_of_turn>\n<start_of_turn>model\n"),
    # a new item of the same kind, as a base model continues a pattern: the instruction's opening again
    (REAL_Q, REAL_QUESTION.format(expression="آب در هاون کوبیدن") + " Yes\n\n" + REAL_QUESTION.format(expression="x")),
]
# Honest answers that quote the question (hand-read: each answers it, none repeats the prompt).
HONEST = [
    # the prompt is 31 words (you are a careful verifier of persian idioms and proverbs given a candidate expression
    # is this expression a fake idiom or proverb in persian expression + 5 words of the expression + answer), 29
    # trigrams; the answer holds the expression's 3 and "a fake idiom or proverb in persian"'s 5: 8 of 29
    (FAKE_Q, f"No, «{EXPRESSION}» is not a fake idiom or proverb in Persian; the real idiom is «گربه را دم حجله "
             "کشتن» and this is a distortion of it."),
    # the question restated before the verdict: "is this expression a real idiom or proverb in persian" (8
    # trigrams) and the expression's 3: 11 of 29, and not the instruction's opening ("you are a careful...")
    (REAL_Q, f"Is this expression a real idiom or proverb in Persian? No. «{EXPRESSION}» is a distorted form of "
             "«گربه را دم حجله کشتن»."),
    # the sentence quoted whole: its 5 trigrams and "is used figuratively": 6 of the prompt's 25 (27 words)
    (DETECTION, f'Yes. In "{SENTENCE}" the idiom "pabucu dama atılmak" (to be cast aside) is used figuratively.'),
    # premise (6 words: 4 trigrams) and hypothesis (4 words: 2) quoted whole, and the run into "hypothesis" and
    # out of "premise" ("premise patron toplantıda", "hypothesis patron toplantıda"): 8 of the prompt's 45 trigrams
    (ENTAILMENT, f'The premise "{PREMISE}" says the boss scolded everyone; the hypothesis "{HYPOTHESIS}" says the '
                 "same literally. Entailment"),
    # Persian: the question (6 words) and the answer shown, quoted in the verdict: 4 of the prompt's 61 trigrams
    (QA_PROMPT, f"N. پاسخ «{WRONG}» برای سؤال «{QUESTION}» نادرست است؛ پرجمعیت‌ترین شهر ایران تهران است."),
    (QA_PROMPT, "N"),
]


@pytest.mark.parametrize(("prompt", "answer"), ECHOED)
def test_echoes_of_a_base_model_are_echoes(prompt: str, answer: str):
    assert echoes(answer, [prompt])


@pytest.mark.parametrize(("prompt", "answer"), HONEST)
def test_answers_that_quote_the_question_are_not_echoes(prompt: str, answer: str):
    assert not echoes(answer, [prompt])


def answered(pairs: list[tuple[str, str]], system: bool = False) -> list[Answered]:
    return [Answered(prompts=(prompt,), answer=answer, has_system=system) for prompt, answer in pairs]


def test_a_run_of_echoes_is_warned_about_with_the_ways_out():
    warning = echo_warning(answered(ECHOED), "openai-api/llamacpp/gemma-3-1b-pt", takes_answer_mode=True)
    # all 6 echo; the first marker in them is <|im_end|> (the first answer's)
    assert warning == (
        "warning: 6 of 6 answers repeat the prompt or chat-template markers (<|im_end|>): openai-api/llamacpp/"
        "gemma-3-1b-pt looks like a base model behind a chat template; ask it with -T answer_mode=logprob (its "
        "answer read from the next token's log-probabilities) or --model openai-api-completions/llamacpp/"
        "gemma-3-1b-pt (the prompt sent as raw text, without a chat template), or use an instruction-tuned model.")


def test_the_advice_fits_the_task_and_the_provider():
    echoed = answered(ECHOED[2:4])  # no marker: "repeat the prompt" alone
    # a task without answer_mode whose prompts have a system message (ffe_generation): the completions endpoint
    # takes a single user message, so neither way applies
    assert echo_warning(answered(ECHOED[2:4], system=True), "vllm/m", takes_answer_mode=False) == (
        "warning: 2 of 2 answers repeat the prompt: vllm/m looks like a base model behind a chat template; this task "
        "needs written answers: use an instruction-tuned model, or serve this one with its own chat template.")
    assert "--model vllm-completions/m (" in echo_warning(echoed, "vllm/m", takes_answer_mode=False)
    # Ollama has no completions provider in Inspect: logprob mode only
    warning = echo_warning(echoed, "ollama/gemma3:1b", takes_answer_mode=True)
    assert "-T answer_mode=logprob" in warning and "completions" not in warning


def test_half_the_answers_is_the_threshold():
    # 3 echoes of 6 answers is half: warned; 2 of 5 is under half: not; empty answers are not counted
    assert echo_warning(answered(ECHOED[:3] + HONEST[:3]), "openai-api/x/m", True).startswith("warning: 3 of 6 ")
    assert echo_warning(answered(ECHOED[:2] + HONEST[:3]), "openai-api/x/m", True) is None
    assert echo_warning(answered(ECHOED[:2] + [(QA_PROMPT, "")] * 4), "openai-api/x/m", True).startswith(
        "warning: 2 of 2 ")
    assert echo_warning(answered(HONEST), "openai-api/x/m", True) is None
    assert echo_warning([], "openai-api/x/m", True) is None


# The corpus answers that do repeat their prompt or carry a chat template's remnants (a server leaving
# "<|im_end|>" / "<end_of_turn>" in the text, a model inventing the next turn): each is one, as a person sees.
ECHOES_IN_THE_CORPUS = {
    "ffe_detection": {"rq-fake-r2-llama-full-prompt-echo", "rq-real-r2-gemma-end-of-turn-token",
                      "fq-real-r2-phi-invented-followup"},
    "others": {"det-en-r2-qwen-im-end-token", "ent-en-r2-gemma-end-of-turn", "qa-r2-910-c", "qa-r2-910-h",
               "mc-r2-im-end-runaway-turn", "op-r2-im-end-confident-wrong", "op-r2-end-of-turn-confident-wrong",
               "kn-r2-capitalised-keys-wrong-story", "kn-r2-chat-token-only", "gen-r2-chat-template-token",
               "tr-r2-gemma-end-of-turn", "tr-r2-chinese-frame-im-end"},
}


def test_real_answers_are_echoes_only_where_they_are_and_never_warn():
    """The corpus of real answer shapes (tests/real_answers): ffe_detection's against their exact prompts, and
    every task's answers for template remnants (their prompts are not all rebuilt from the corpus): only the
    answers that are echoes are found, and a task's few never make a warning (under half its answers)."""
    entries = load("ffe_detection")
    prompts = [(FAKE_QUESTION if e.metadata["framing"] == "fake-q" else REAL_QUESTION).format(
        expression=e.metadata["expression"]) for e in entries]
    assert {e.id for e, prompt in zip(entries, prompts) if echoes(e.output, [prompt])} == ECHOES_IN_THE_CORPUS[
        "ffe_detection"]
    assert echo_warning([Answered((p,), e.output) for e, p in zip(entries, prompts)], "openai-api/x/m", True) is None
    tasks = ("tr_idiom_detection", "tr_idiom_entailment", "perhallueval_qa", "perhallueval_summarization",
             "allusion_mc", "allusion_open", "allusion_knowledge", "ffe_generation", "ffe_translation")
    assert {e.id for task in tasks for e in load(task) if echoes(e.output, [])} == ECHOES_IN_THE_CORPUS["others"]


def test_an_instruction_tuned_model_that_repeats_one_prompt_is_one_echo_not_a_warning():
    # tests/real_answers/tr_idiom_detection.yaml det-en-llama-repeats-prompt-no: Llama repeats the prompt, then
    # answers; an echo, but one answer of the task's (and the few others' echoes) is no reason to warn
    entries = {e.id: e for e in load("tr_idiom_detection")}
    repeated = entries["det-en-llama-repeats-prompt-no"]
    prompt = DETECTION_PROMPT["en"].format(sentence="Yeni telefon çıkınca eskisinin pabucu dama atıldı.")
    assert echoes(repeated.output, [prompt])
    others = [Answered((prompt,), e.output) for e in entries.values()]
    assert sum(echoes(answer.answer, [prompt]) for answer in others) < len(others) / 2
    assert echo_warning(others, "openai-api/x/m", True) is None


def test_a_sample_asked_by_logprob_has_no_answer_to_check():
    # the scores record how each sample was asked (answering.ASKED_IN): a one-token logprob output is no answer,
    # whatever the run's answer_mode said (auto on gguf/ asks by logprob)
    from inspect_ai.model import ChatMessageUser, ModelOutput

    def sample(asked: str, text: str) -> SimpleNamespace:
        return SimpleNamespace(output=ModelOutput.from_content("m", text), messages=[ChatMessageUser(content="Q?")],
                               scores={"s": SimpleNamespace(metadata={"asked_in": asked})})

    log = SimpleNamespace(eval=SimpleNamespace(metadata={"answer_mode": "auto"}, model="gguf/gemma-3-270m"),
                          samples=[sample("logprob", "Yes"), sample("generate", "Yes, it is.")])
    assert answers_of_log(log) == [Answered(prompts=("Q?",), answer="Yes, it is.", has_system=False)]
