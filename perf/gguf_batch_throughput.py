"""Throughput of the embedded model (gguf/gemma-3-270m): a bare sequential loop, a bare batched loop, and figeval.

Three sides answer the same prompts, the first N `ffe_detection(controls=True)` prompts (Appendix A's detection
prompt, as the gguf provider sends a base model):
- bare sequential: one prompt at a time on llama-cpp-python's `Llama`, keeping the KV cache of the previous
  prompt and evaluating only the suffix that differs (for generation, one `eval` per token);
- bare batched: the gguf provider's batching done straight on llama-cpp-python's bindings, without figeval or
  Inspect: N_PARALLEL sequences with a cache stream each, each keeping its previous prompt, evaluated in 4-row
  blocks from a multiple of 4, one decode per block size (at most 7 sequences each); free slots go to the
  waiting prompts (the next WINDOW) by groups of equal block size;
- figeval: `inspect_ai.eval` of `ffe_detection` with the settings `figeval run` uses (`eval_options`, response
  cache off), after one warm-up eval (Inspect's first eval in a process pays its lazy imports).
Logprob mode reads the next token's top-20 log-probabilities (N prompts); generation mode decodes greedily up to
GEN_TOKENS tokens (GEN_SAMPLES prompts, `answer_mode=generate` for figeval). Model loading is excluded: each side
loads once and answers warm-up prompts first. The three sides take turns within each of REPS repetitions, so that
other work on the machine falls on all of them alike; min/median/max of each are printed, and the issue's bars:
figeval logprob >= 1.5x the bare sequential loop and >= 0.85 of the bare batched loop (medians).

Usage: .venv/bin/python perf/gguf_batch_throughput.py [N] [REPS] (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from typing import Any

import numpy as np

from figeval.models.gguf.engine import common_prefix
from figeval.models.gguf.sampling import log_softmax, top_k

N_PARALLEL = 7  # the gguf provider's default
TOP = 20
GEN_SAMPLES = 20
GEN_TOKENS = 64
BLOCK, MIN_ROWS, MAX_OUTPUTS = 4, 8, 7
WINDOW = 20  # requests in flight: Inspect's starting concurrency


def top_logprobs(logits: np.ndarray) -> list[tuple[int, float]]:
    """The next token's top-20 (token, log-probability), with the gguf provider's own functions."""
    logprobs = log_softmax(logits.astype(np.float64))
    return [(int(t), float(logprobs[t])) for t in top_k(logprobs, TOP)]


class BareSequential:
    """One prompt at a time with `Llama`, the previous prompt's KV cache kept."""

    def __init__(self, model_path: str) -> None:
        from llama_cpp import Llama, llama_vocab_is_eog

        self.llm = Llama(model_path=model_path, n_ctx=2048, logits_all=False, verbose=False)
        self.is_eog = lambda token: llama_vocab_is_eog(self.llm._model.vocab, token)

    def logits_after(self, tokens: list[int]) -> np.ndarray:
        llm = self.llm
        keep = min(common_prefix(llm._input_ids, tokens), len(tokens) - 1)
        if keep > 0 and llm._ctx.kv_cache_seq_rm(-1, keep, -1):
            llm.n_tokens = keep
        else:
            llm.reset()
            keep = 0
        llm.eval(tokens[keep:])
        return np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),))

    def answer(self, prompt: str, max_tokens: int) -> Any:
        tokens = self.llm.tokenize(prompt.encode("utf-8"), add_bos=True)
        if max_tokens == 1:
            return top_logprobs(self.logits_after(tokens))
        generated: list[int] = []
        while len(generated) < max_tokens:
            token = int(np.argmax(self.logits_after(tokens + generated)))
            if self.is_eog(token):
                break
            generated.append(token)
            self.llm.detokenize(generated)  # the provider decodes the text so far at each step (stop sequences)
        return generated


class BareBatched:
    """The gguf provider's batching on llama-cpp-python's bindings, no figeval, no Inspect."""

    def __init__(self, model_path: str, n_parallel: int = N_PARALLEL, stream: int = 2304) -> None:
        import llama_cpp
        from llama_cpp import Llama, _internals

        self.lib = llama_cpp
        self.llm = Llama(model_path=model_path, n_ctx=32, n_batch=32, logits_all=False, verbose=False)
        params = type(self.llm.context_params).from_buffer_copy(self.llm.context_params)
        params.n_ctx, params.n_batch, params.n_ubatch = n_parallel * stream, 512, 512
        params.n_seq_max, params.kv_unified = n_parallel, False
        self.context = _internals.LlamaContext(model=self.llm._model, params=params, verbose=False)
        self.memory = llama_cpp.llama_get_memory(self.context.ctx)
        self.batch = llama_cpp.llama_batch_init(512, 0, 1)
        self.n_parallel, self.n_vocab = n_parallel, self.llm.n_vocab()
        self.cached: list[list[int]] = [[] for _ in range(n_parallel)]

    def keep(self, slot: int, tokens: list[int]) -> int:
        return min(common_prefix(self.cached[slot], tokens), len(tokens) - 1) // BLOCK * BLOCK

    def run(self, prompts: list[str], max_tokens: int) -> list[Any]:
        lib, memory = self.lib, self.memory
        todo = [(index, self.llm.tokenize(prompt.encode("utf-8"), add_bos=True))
                for index, prompt in enumerate(prompts)]
        passed: set[int] = set()
        answers: list[Any] = [None] * len(prompts)
        free, active = list(range(self.n_parallel)), []  # active: [index, slot, tokens, pending, start, generated]
        while todo or active:
            # Start waiting prompts (the next WINDOW, as Inspect has that many samples in flight) by groups that
            # need the same number of rows, the largest group first; one alone waits a step for companions.
            groups: dict[int, list[tuple[int, list[int]]]] = {}
            for index, tokens in todo[:WINDOW]:
                keep = max(self.keep(slot, tokens) for slot in free) if free else 0
                groups.setdefault(-(-(len(tokens) - keep) // BLOCK) * BLOCK, []).append((index, tokens))
            started: list[int] = []
            for _, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
                if len(group) == 1 and group[0][0] not in passed and (started or active):
                    passed.add(group[0][0])
                    continue
                for index, tokens in group[: len(free)]:
                    slot = max(free, key=lambda s: (common_prefix(self.cached[s], tokens), -s))
                    free.remove(slot)
                    keep = self.keep(slot, tokens)
                    lib.llama_memory_seq_rm(memory, slot, keep, -1)
                    self.cached[slot] = tokens[:keep]
                    active.append([index, slot, tokens, tokens[keep:], keep, []])
                    started.append(index)
                if not free:
                    break
            todo = [(index, tokens) for index, tokens in todo if index not in started]
            by_need: dict[int, list[list[Any]]] = {}
            for item in sorted(active, key=lambda item: item[1]):
                by_need.setdefault(-(-len(item[3]) // BLOCK) * BLOCK, []).append(item)
            decodes = []
            for need, group in sorted(by_need.items()):  # at most MAX_OUTPUTS a decode, in even runs
                parts = -(-len(group) // MAX_OUTPUTS)
                decodes += [(need, group[i * len(group) // parts:(i + 1) * len(group) // parts]) for i in range(parts)]
            for need, items in decodes:
                slots = {item[1] for item in items}
                rows, outputs = 0, {}
                for item in items:
                    index, slot, tokens, pending, start, _ = item
                    chunk = need if slot - 1 in slots or slot + 1 in slots else max(need, MIN_ROWS)
                    for i in range(chunk):
                        self.batch.token[rows] = pending[min(i, len(pending) - 1)]
                        self.batch.pos[rows] = start + i
                        self.batch.n_seq_id[rows] = 1
                        self.batch.seq_id[rows][0] = slot
                        self.batch.logits[rows] = i == len(pending) - 1
                        if i == len(pending) - 1:
                            outputs[id(item)] = rows
                        rows += 1
                self.batch.n_tokens = rows
                if lib.llama_decode(self.context.ctx, self.batch) != 0:
                    raise RuntimeError("llama_decode failed")
                for item in items:
                    index, slot, tokens, pending, start, generated = item
                    lib.llama_memory_seq_rm(memory, slot, start + len(pending), -1)
                    if start < len(tokens):
                        self.cached[slot] += pending
                    item[4] = start + len(pending)
                    logits = np.ctypeslib.as_array(lib.llama_get_logits_ith(self.context.ctx, outputs[id(item)]),
                                                   shape=(self.n_vocab,))
                    if max_tokens == 1:
                        answers[index] = top_logprobs(logits)
                        done = True
                    else:
                        token = int(np.argmax(logits))
                        done = bool(lib.llama_vocab_is_eog(self.llm._model.vocab, token))
                        if not done:
                            generated.append(token)
                            self.llm.detokenize(generated)
                            done = len(generated) >= max_tokens
                        item[3] = [token]
                        answers[index] = generated
                    if done:
                        active.remove(item)
                        free.append(slot)
        return answers


def rate(answer: Any, prompts: list[str]) -> float:
    started = time.perf_counter()
    answer(prompts)
    return len(prompts) / (time.perf_counter() - started)


def figeval_side(n: int, gen_samples: int):
    """Returns functions that run figeval's ffe_detection evals and give samples/s."""
    import asyncio

    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import GenerateConfig, get_model

    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
    from figeval.running.launch import eval_options

    model = get_model("gguf/gemma-3-270m")
    asyncio.run(model.generate("warm-up", config=GenerateConfig(max_tokens=1)))  # load the weights

    def run(mode: str, limit: int, **config: Any) -> float:
        task = ffe_detection(controls=True, answer_mode=mode)
        with tempfile.TemporaryDirectory() as log_dir:
            started = time.perf_counter()
            [log] = inspect_eval(task, model=model, limit=limit, log_dir=log_dir, display="none",
                                 **eval_options("gguf/gemma-3-270m", cache=False), **config)
            elapsed = time.perf_counter() - started
        assert log.status == "success", log.error
        return limit / elapsed

    run("logprob", min(n, 16))  # Inspect's first eval in the process
    return (lambda: run("logprob", n)), (lambda: run("generate", gen_samples, max_tokens=GEN_TOKENS))


def spread(rates: list[float]) -> str:
    return f"min {min(rates):6.2f}  median {statistics.median(rates):6.2f}  max {max(rates):6.2f} samples/s"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    from figeval.benchmarks.ffe_hallu.dataset import load_detection_data
    from figeval.models.gguf import ALIASES

    prompts = [str(sample.input) for sample in load_detection_data(controls=True).dataset][:n]
    path = str(ALIASES["gemma-3-270m"].path())
    sequential, batched = BareSequential(path), BareBatched(path)
    for prompt in prompts[:N_PARALLEL]:
        sequential.answer(prompt, 1)
    batched.run(prompts[:N_PARALLEL], 1)
    figeval_logprob, figeval_generate = figeval_side(n, GEN_SAMPLES)
    gen_prompts = prompts[:GEN_SAMPLES]
    results: dict[str, dict[str, list[float]]] = {"logprob": {}, "generate": {}}
    for rep in range(reps):
        for mode, count, runs in [
            ("logprob", n, [("bare sequential", lambda ps: [sequential.answer(p, 1) for p in ps]),
                            ("bare batched", lambda ps: batched.run(ps, 1)),
                            ("figeval", None)]),
            ("generate", GEN_SAMPLES, [("bare sequential", lambda ps: [sequential.answer(p, GEN_TOKENS) for p in ps]),
                                       ("bare batched", lambda ps: batched.run(ps, GEN_TOKENS)),
                                       ("figeval", None)]),
        ]:
            for name, answer in runs:
                if answer is None:
                    value = figeval_logprob() if mode == "logprob" else figeval_generate()
                else:
                    value = rate(answer, prompts if mode == "logprob" else gen_prompts)
                results[mode].setdefault(name, []).append(value)
                print(f"rep {rep + 1} {mode:8s} {name:15s} {value:6.2f} samples/s", flush=True)
    print()
    for mode, sides in results.items():
        count = n if mode == "logprob" else f"{GEN_SAMPLES}, up to {GEN_TOKENS} tokens each"
        print(f"{mode} (N={count}, n_parallel={N_PARALLEL}, {reps} repetitions)")
        for name, rates in sides.items():
            print(f"  {name:15s} {spread(rates)}")
        ours = statistics.median(sides["figeval"])
        print(f"  figeval / bare sequential: {ours / statistics.median(sides['bare sequential']):.2f}"
              f"   figeval / bare batched: {ours / statistics.median(sides['bare batched']):.2f}"
              f"   bare batched / bare sequential: "
              f"{statistics.median(sides['bare batched']) / statistics.median(sides['bare sequential']):.2f}")
    print("bars (logprob): figeval / bare sequential >= 1.50, figeval / bare batched >= 0.85")


if __name__ == "__main__":
    main()
