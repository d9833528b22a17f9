"""Throughput of ffe_detection in logprob mode on the embedded model: figeval (Inspect) vs a bare loop.

Both sides answer the same N prompts (the first N detection samples, system prompt included) by reading the
next token's top-20 log-probabilities, with the KV cache of the previous prompt kept and only the differing
suffix evaluated. Model loading is excluded from both timings (each side loads and answers one warm-up prompt
first). The issue's bar: figeval reaches at least 0.7 of the bare loop's samples/s at N=100.

Usage: .venv/bin/python perf/ffe_detection_throughput.py [N] (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time

import numpy as np


def bare_loop(prompts: list[str], model_path: str) -> float:
    """Samples/s of a plain llama-cpp-python loop doing the same work as the gguf provider."""
    from llama_cpp import Llama

    llm = Llama(model_path=model_path, n_ctx=2048, logits_all=False, verbose=False)

    def top20(prompt: str) -> list[tuple[int, float]]:
        tokens = llm.tokenize(prompt.encode("utf-8"), add_bos=True)
        shared = 0
        for cached, new in zip(llm._input_ids, tokens):
            if cached != new:
                break
            shared += 1
        keep = min(shared, len(tokens) - 1)
        if keep > 0 and llm._ctx.kv_cache_seq_rm(-1, keep, -1):
            llm.n_tokens = keep
        else:
            llm.reset()
            keep = 0
        llm.eval(tokens[keep:])
        logits = np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),)).astype(np.float64)
        logprobs = logits - logits.max()
        logprobs -= np.log(np.exp(logprobs).sum())
        top = np.argpartition(-logprobs, 19)[:20]
        top = top[np.argsort(-logprobs[top])]
        return [(int(t), float(logprobs[t])) for t in top]

    top20("warm-up")
    started = time.perf_counter()
    for prompt in prompts:
        top20(prompt)
    elapsed = time.perf_counter() - started
    llm.close()
    return len(prompts) / elapsed


def figeval_rates(n: int) -> tuple[float, float]:
    """Samples/s of `ffe_detection(answer_mode="logprob")` on gguf/gemma-3-270m through Inspect."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import GenerateConfig, get_model

    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
    from figeval.cli.run import eval_options

    model = get_model("gguf/gemma-3-270m")
    asyncio.run(model.generate("warm-up", config=GenerateConfig(max_tokens=1)))  # load the weights
    rates = []
    # The first eval of a process also pays Inspect's one-time start (about 1.7 s of lazy imports here);
    # the second shows the steady state. Both are reported.
    for _ in range(2):
        task = ffe_detection(controls=True, answer_mode="logprob")
        with tempfile.TemporaryDirectory() as log_dir:
            started = time.perf_counter()
            # The settings `figeval run` uses for this model, minus the response cache (it would skip the work).
            options = eval_options("gguf/gemma-3-270m", cache=False)
            [log] = inspect_eval(task, model=model, limit=n, log_dir=log_dir, display="none", **options)
            elapsed = time.perf_counter() - started
        assert log.status == "success", log.error
        rates.append(n / elapsed)
    return rates[0], rates[1]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    from figeval.benchmarks.ffe_hallu.dataset import load_detection_data
    from figeval.models.gguf import ALIASES

    samples = list(load_detection_data(controls=True).dataset)[:n]
    # Appendix A's detection prompt is one user message: the gguf provider sends a base model its text as is.
    prompts = [str(sample.input) for sample in samples]
    bare = bare_loop(prompts, str(ALIASES["gemma-3-270m"].path()))
    cold, warm = figeval_rates(n)
    print(f"N={n}  bare llama-cpp-python loop:                     {bare:.2f} samples/s")
    print(f"N={n}  figeval ffe_detection, first eval in process:  {cold:.2f} samples/s (ratio {cold / bare:.2f})")
    print(f"N={n}  figeval ffe_detection, steady state:           {warm:.2f} samples/s (ratio {warm / bare:.2f})")
    print("bar: ratio >= 0.70")


if __name__ == "__main__":
    main()
