"""Batched answering in the gguf provider: the same answers as one request at a time, memory shares, cancellation,
and the low-level llama.cpp bindings it relies on (llama-cpp-python 0.3.36)."""

import asyncio
import ctypes
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from inspect_ai.model import ChatMessageUser, GenerateConfig

from figeval.errors import FigevalError
from figeval.models.gguf import GGUFModelAPI, bindings

pytestmark = pytest.mark.slow

INSTRUCTION = ("You are a careful verifier of Persian idioms and proverbs. Given a candidate expression, is this "
               "expression a real idiom or proverb in Persian?\n")
EXPRESSIONS = ["گربه را دم حجله کشتن", "آب از سرش گذشته", "مثل خر در گل ماندن", "دست بالای دست بسیار است",
               "کار از محکم‌کاری عیب نمی‌کند", "شتر در خواب بیند پنبه دانه، گهی لپ لپ خورد گه دانه دانه",
               "یک", "هر که بامش بیش برفش بیشتر"]
# 16 prompts of mixed lengths: 8 sharing an instruction (the cached prefix), 3 with another, 2 long ones (longer
# than a sequence's share of one decode: evaluated over several), 3 of one to four tokens.
PROMPTS = (
    [f"{INSTRUCTION}Expression: {expression}\nAnswer:" for expression in EXPRESSIONS]
    + [f"Translate into English: {expression}\nTranslation:" for expression in EXPRESSIONS[:3]]
    + ["A list of Persian proverbs with their meanings:\n" + "\n".join(EXPRESSIONS * 3), " ".join(EXPRESSIONS) * 4]
    + ["Hi", "Yes or no?", "1, 2, 3"]
)


def answers(api: GGUFModelAPI, configs: list[GenerateConfig]):
    """Every prompt asked at once (Inspect sends many samples together), each with its own config."""
    async def ask_all():
        return await asyncio.gather(*[api.generate([ChatMessageUser(content=prompt)], [], "none", config)
                                      for prompt, config in zip(PROMPTS, configs)])

    return asyncio.run(ask_all())


@pytest.fixture(scope="module")
def one_at_a_time() -> GGUFModelAPI:
    return GGUFModelAPI("gemma-3-270m", n_parallel=1)


@pytest.fixture(scope="module")
def batched() -> GGUFModelAPI:
    return GGUFModelAPI("gemma-3-270m", n_parallel=8)


def top_logprobs(output) -> list[tuple[str, float]]:
    [first] = output.choices[0].logprobs.content
    return [(top.token, top.logprob) for top in first.top_logprobs]


def test_prompts_are_of_mixed_lengths(one_at_a_time):
    one_at_a_time._ensure_loaded()
    lengths = [len(one_at_a_time._prompt_tokens([ChatMessageUser(content=prompt)])[0]) for prompt in PROMPTS]
    assert min(lengths) <= 4 and max(lengths) > 200 and len(set(lengths)) >= 10, lengths


@pytest.mark.parametrize("n_parallel", [8, 3])
def test_batched_logprobs_are_those_of_one_request_at_a_time(one_at_a_time, batched, n_parallel):
    config = GenerateConfig(max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=20)
    expected = answers(one_at_a_time, [config] * len(PROMPTS))
    api = batched if n_parallel == 8 else GGUFModelAPI("gemma-3-270m", n_parallel=n_parallel)
    for round_ in range(2 if n_parallel == 8 else 1):  # the second round reuses each slot's cached prompt
        got = answers(api, [config] * len(PROMPTS))
        for prompt, alone, together in zip(PROMPTS, expected, got):
            assert [t for t, _ in top_logprobs(together)] == [t for t, _ in top_logprobs(alone)], prompt
            assert [v for _, v in top_logprobs(together)] == pytest.approx([v for _, v in top_logprobs(alone)],
                                                                           abs=1e-4), prompt
            assert together.completion == alone.completion and together.usage == alone.usage


def test_batched_generation_is_the_text_of_one_request_at_a_time(one_at_a_time, batched):
    configs = [GenerateConfig(max_tokens=2 + 2 * (i % 4), temperature=0.0) for i in range(len(PROMPTS))]
    configs[3] = GenerateConfig(max_tokens=12, temperature=0.0, stop_seqs=["\n"])
    configs[5] = GenerateConfig(max_tokens=8, temperature=1.0, top_p=0.9, seed=7)  # sampled, seeded
    expected = answers(one_at_a_time, configs)
    got = answers(batched, configs)
    for prompt, alone, together in zip(PROMPTS, expected, got):
        assert together.completion == alone.completion, prompt
        assert together.stop_reason == alone.stop_reason and together.usage == alone.usage
        assert together.metadata == alone.metadata and together.metadata["model_sha256"].startswith("a5fd3b62")
    # they did generate: requests of different lengths finished at different steps of one batch
    assert len({output.usage.output_tokens for output in got}) >= 4
    assert any(output.stop_reason == "max_tokens" for output in got)


def test_a_request_larger_than_its_share_of_the_context_is_refused(one_at_a_time):
    prompt = [ChatMessageUser(content=f"{INSTRUCTION}Expression: {EXPRESSIONS[0]}\nAnswer:")]
    one_at_a_time._ensure_loaded()
    size = len(one_at_a_time._prompt_tokens(prompt)[0])
    share = size + 2
    api = GGUFModelAPI("gemma-3-270m", n_parallel=4, n_ctx=4 * share + 3)  # four shares of `share` tokens
    fits = asyncio.run(api.generate(prompt, [], "none", GenerateConfig(max_tokens=2, temperature=0.0)))
    assert fits.usage.input_tokens == size
    with pytest.raises(FigevalError) as refused:
        asyncio.run(api.generate(prompt, [], "none", GenerateConfig(max_tokens=3, temperature=0.0)))
    message = str(refused.value)
    assert "\n" not in message
    assert message == (f"gguf: prompt of {size} tokens plus max_tokens=3 exceeds a sequence's share of the context "
                       f"({4 * share + 3} tokens split among n_parallel=4: {share} each); pass -M n_ctx=<larger>, "
                       "-M n_parallel=<fewer> or lower max_tokens.")
    # the refusal left the provider working
    again = asyncio.run(api.generate(prompt, [], "none", GenerateConfig(max_tokens=2, temperature=0.0)))
    assert again.completion == fits.completion


def test_model_args_are_checked():
    with pytest.raises(FigevalError, match=r"n_parallel=0; give 1 to 64"):
        GGUFModelAPI("gemma-3-270m", n_parallel=0)
    with pytest.raises(FigevalError, match=r"n_ctx=16 leaves each of n_parallel=4 sequences 4 tokens"):
        GGUFModelAPI("gemma-3-270m", n_parallel=4, n_ctx=16)
    assert GGUFModelAPI("gemma-3-270m", n_parallel=4)._settings["n_ctx"] == 4 * 2048  # a share of 2048 each


def test_cancelled_requests_leave_the_finished_ones_answered_and_the_provider_clean(batched):
    count = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10,"  # a base model goes on counting: these requests run long

    async def scenario():
        short = [asyncio.create_task(batched.generate([ChatMessageUser(content=prompt)], [], "none",
                                                      GenerateConfig(max_tokens=2, temperature=0.0)))
                 for prompt in PROMPTS[:3]]
        long = [asyncio.create_task(batched.generate([ChatMessageUser(content=count + " " * i)], [], "none",
                                                     GenerateConfig(max_tokens=1000, temperature=0.0)))
                for i in range(3)]
        finished = await asyncio.gather(*short)  # answered while the long ones are in the same batch
        assert not any(task.done() for task in long)
        assert len(batched._engine.active) == 3
        for task in long:
            task.cancel()
        outcomes = await asyncio.gather(*long, return_exceptions=True)
        assert all(isinstance(outcome, asyncio.CancelledError) for outcome in outcomes)
        # the next request drops the cancelled ones from the engine
        after = await batched.generate([ChatMessageUser(content=PROMPTS[0])], [], "none",
                                       GenerateConfig(max_tokens=2, temperature=0.0))
        return finished, after

    finished, after = asyncio.run(scenario())
    assert [output.usage.output_tokens for output in finished] == [2, 2, 2]
    assert after.completion == finished[0].completion
    assert not batched._engine.active and sorted(batched._engine.free) == list(range(8))


CANCELLED_RUN = textwrap.dedent("""
    import sys
    from inspect_ai import Task, eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import Score, mean, scorer
    from inspect_ai.solver import solver

    @solver
    def answer():
        async def solve(state, generate):
            return await generate(state, max_tokens=state.metadata["max_tokens"], temperature=0.0)
        return solve

    @scorer(metrics=[mean()])
    def done():
        async def score(state, target):
            print("scored", state.sample_id, flush=True)
            return Score(value=1)
        return score

    count = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10,"
    samples = ([Sample(id=f"short-{i}", input=f"Question {i}: is Paris in France?", metadata={"max_tokens": 3})
                for i in range(3)]
               + [Sample(id=f"long-{i}", input=count + " " * i, metadata={"max_tokens": 1500}) for i in range(3)])
    inspect_eval(Task(dataset=samples, solver=answer(), scorer=done()), model="gguf/gemma-3-270m",
                 model_args={"n_parallel": 8, "n_ctx": 8 * 2048}, log_dir=sys.argv[1], display="plain")
""")


def test_interrupting_a_run_mid_batch_keeps_the_samples_it_finished(tmp_path: Path):
    """Ctrl-C while long answers are generated in the same batch as short ones that are done: the log has them."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    script = tmp_path / "run.py"
    script.write_text(CANCELLED_RUN)
    run = subprocess.Popen([sys.executable, str(script), str(tmp_path / "logs")], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, cwd=tmp_path, env={**os.environ, "NO_COLOR": "1"})
    scored, deadline = [], time.monotonic() + 120
    while len(scored) < 3:
        line = run.stdout.readline()
        assert line or run.poll() is None, "the run ended before its short samples were scored"
        assert time.monotonic() < deadline
        if line.startswith("scored "):
            scored.append(line.split()[1])
    run.send_signal(signal.SIGINT)
    output, _ = run.communicate(timeout=60)
    assert sorted(scored) == ["short-0", "short-1", "short-2"], output

    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "cancelled", output
    kept = {sample.id: sample for sample in log.samples or [] if sample.scores}
    assert set(kept) == {"short-0", "short-1", "short-2"}
    for sample in kept.values():
        assert 1 <= sample.output.usage.output_tokens <= 3 and sample.output.stop_reason in ("max_tokens", "stop")
        assert sample.output.metadata["model_sha256"].startswith("a5fd3b62")


def test_the_bindings_are_those_this_module_was_written_for(monkeypatch):
    assert bindings.binding_mismatches() == []
    # a changed signature is named
    monkeypatch.setitem(bindings.SIGNATURES, "llama_decode", ([ctypes.c_void_p], ctypes.c_int32))
    [problem] = bindings.binding_mismatches()
    assert problem.startswith("llama_decode(") and "is not llama_decode(" in problem


def test_two_sequences_in_one_decode_get_the_logits_each_gets_alone(one_at_a_time):
    """The low-level module on its own: a batch of two sequences (8 rows each), then each sequence alone."""
    one_at_a_time._ensure_loaded()
    llm = one_at_a_time._llm
    prompts = [llm.tokenize(text.encode(), add_bos=True)[:8] for text in (PROMPTS[0], PROMPTS[8])]
    assert all(len(tokens) == 8 for tokens in prompts)
    context = bindings.MultiSequenceContext(llm, n_ctx=2 * 256, n_seq=2)
    try:
        rows = [context.batch.add(token, pos, [seq], pos == 7) for seq, tokens in enumerate(prompts)
                for pos, token in enumerate(tokens)]
        assert rows == list(range(16))
        context.decode()
        together = [context.logits(7), context.logits(15)]
        assert together[0].shape == (llm.n_vocab(),) and not np.array_equal(together[0], together[1])
        with pytest.raises(RuntimeError, match="no logits for batch row 3"):
            context.logits(3)
        for seq, tokens in enumerate(prompts):
            context.clear()
            for pos, token in enumerate(tokens):
                context.batch.add(token, pos, [seq], pos == 7)
            context.decode()
            assert np.array_equal(context.logits(7), together[seq])
    finally:
        context.close()


def test_a_decode_holds_at_most_seven_requests(batched):
    """A decode reading the logits of 8 rows or more rounds them another way now and then (1 prompt in 300
    measured, perf/gguf_batch_exactness.py): 8 requests of equal need go in two decodes of 4 consecutive slots."""
    from figeval.models.gguf.engine import MAX_OUTPUTS, Request

    batched._ensure_loaded()
    engine = batched._engine

    def request(slot: int, pending: int) -> Request:
        return Request(tokens=[1] * 40, max_tokens=1, temperature=0.0, top_p=1.0, rng=np.random.default_rng(0),
                       logprobs=True, stops=[], slot=slot, pending=[1] * pending, start=40 - pending)

    saved = engine.active
    try:
        engine.active = [request(slot, 10) for slot in range(8)]  # 10 tokens: blocks of 12 rows
        plan = engine.plan()
        assert MAX_OUTPUTS == 7
        assert [[(r.slot, rows) for r, rows in decode] for decode in plan] == [
            [(0, 12), (1, 12), (2, 12), (3, 12)], [(4, 12), (5, 12), (6, 12), (7, 12)]]
        # 7 of them: one decode; a lone one with a need of 4 rows is padded to 8 (MIN_ROWS)
        engine.active = [request(slot, 10) for slot in range(7)] + [request(7, 3)]
        plan = engine.plan()
        assert [[(r.slot, rows) for r, rows in decode] for decode in plan] == [
            [(7, 8)], [(slot, 12) for slot in range(7)]]
    finally:
        engine.active = saved


def test_outside_a_sample_the_provider_serves_no_role(one_at_a_time, tmp_path):
    # Inspect's eval_set (figeval run --paper) sets the active model and leaves it set after it ends: the context
    # hint of a request made after it (a test, a script) named this model a judge
    from inspect_ai import Task, eval_set
    from inspect_ai.dataset import Sample

    replay = tmp_path / "answers.jsonl"
    replay.write_text('{"id": "x", "output": "a"}\n', encoding="utf-8")
    finished, _ = eval_set(Task(dataset=[Sample(id="x", input="q")]), model=f"replay/{replay}", display="none",
                           log_dir=str(tmp_path / "logs"))
    assert finished
    assert one_at_a_time._role() is None
