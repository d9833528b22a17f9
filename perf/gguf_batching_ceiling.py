"""What batching can gain on the embedded model (gguf/gemma-3-270m) on this machine, whatever figeval does.

Three measurements, straight on llama.cpp (figeval.models.gguf.bindings), no figeval provider, no Inspect:
1. Decode time by shape: S sequences x R rows each in one decode (each sequence's cache holding a 40-token
   prompt), with and without one output row (next-token logits) per sequence. Shows where rows/s saturates and
   what an output row costs (the output layer, 262,144 x 640, is 60% of the model's weights).
2. The ceiling for ffe_detection's logprob answers: the first N prompts' suffixes (after the instruction prefix
   every sequence has cached), evaluated one prompt per decode (the sequential loop's work) or 8 prompts per
   decode with no padding on one shared cache, as llama.cpp's server batches (`kv_unified`). The second is the
   most batching can give; its answers are not those of the first (max log-probability difference printed).
3. History: a prompt's top-20 log-probabilities evaluated in one decode, or in two with the cut at position K
   (what a loop that keeps the previous prompt's cache does when the prompts part at K).

Usage: .venv/bin/python perf/gguf_batching_ceiling.py [N] (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from figeval.benchmarks.ffe_hallu.dataset import load_detection_data
from figeval.models.gguf import ALIASES
from figeval.models.gguf.bindings import MultiSequenceContext
from figeval.models.gguf.sampling import log_softmax, top_k

N_SEQ = 8


def decode(context: MultiSequenceContext, rows: list[tuple[int, int, int, bool]]) -> dict[int, np.ndarray]:
    """One decode of (token, position, sequence, wants logits) rows; the log-probabilities by sequence."""
    wanted = {}
    for token, position, seq, logits in rows:
        row = context.batch.add(token, position, (seq,), logits)
        if logits:
            wanted[seq] = row
    context.decode()
    return {seq: log_softmax(context.logits(row)) for seq, row in wanted.items()}


def fill(context: MultiSequenceContext, prefix: list[int]) -> None:
    context.clear()
    decode(context, [(token, p, seq, False) for seq in range(N_SEQ) for p, token in enumerate(prefix)])


def decode_shapes(context: MultiSequenceContext) -> None:
    print("1. decode time by shape (median of 5)")
    fill(context, list(range(100, 140)))
    for n_seq in [1, 8]:
        for n_rows in [1, 4, 8, 16, 32]:
            times = {}
            for outputs in [True, False] if n_rows > 1 else [True]:
                runs = []
                for _ in range(5):
                    for seq in range(n_seq):
                        context.seq_rm(seq, 40, -1)
                    rows = [(1000 + i, 40 + i, seq, outputs and i == n_rows - 1)
                            for seq in range(n_seq) for i in range(n_rows)]
                    started = time.perf_counter()
                    decode(context, rows)
                    runs.append(time.perf_counter() - started)
                times[outputs] = statistics.median(runs)
            no_output = f"{1000 * times[False]:6.1f} ms" if False in times else "     -   "
            rows_per_s = n_seq * n_rows / times[True]
            print(f"  {n_seq} x {n_rows:2d} rows: {1000 * times[True]:6.1f} ms with outputs ({rows_per_s:4.0f} rows/s),"
                  f" {no_output} without")


def top_difference(a: np.ndarray, b: np.ndarray) -> float:
    top = top_k(a, 20)
    return float(np.abs(a[top] - b[top]).max())


def main() -> None:
    from llama_cpp import Llama

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    llm = Llama(model_path=str(ALIASES["gemma-3-270m"].path()), n_ctx=32, n_batch=32, logits_all=False, verbose=False)
    streams = MultiSequenceContext(llm, n_ctx=N_SEQ * 2304, n_seq=N_SEQ)
    unified = MultiSequenceContext(llm, n_ctx=N_SEQ * 2304, n_seq=N_SEQ, kv_unified=True)
    decode_shapes(streams)

    prompts = [llm.tokenize(str(s.input).encode("utf-8"), add_bos=True)
               for s in load_detection_data(controls=True).dataset][:n]
    shared = min(next((i for i, (a, b) in enumerate(zip(prompts[0], p)) if a != b), len(p)) for p in prompts[1:])
    shared = min(shared, min(map(len, prompts)) - 1)
    print(f"\n2. ceiling: {n} ffe_detection prompts, {min(map(len, prompts))}-{max(map(len, prompts))} tokens, "
          f"{shared} shared (cached); suffixes of "
          f"{statistics.mean(len(p) - shared for p in prompts):.1f} tokens on average")
    for name, context in [("sequential, one prompt a decode", streams),
                          ("8 a decode, shared cache, unpadded", unified)]:
        rates, answers = [], []
        for _ in range(3):
            fill(context, prompts[0][:shared])
            answers = []
            started = time.perf_counter()
            step = 1 if context is streams else N_SEQ
            for first in range(0, n, step):
                group = prompts[first:first + step]
                rows = []
                for seq, tokens in enumerate(group):
                    context.seq_rm(seq, shared, -1)
                    rows += [(t, shared + i, seq, shared + i == len(tokens) - 1) for i, t in enumerate(tokens[shared:])]
                got = decode(context, rows)
                answers += [got[seq] for seq in range(len(group))]
            rates.append(n / (time.perf_counter() - started))
        if context is streams:
            reference, sequential_rate = answers, statistics.median(rates)
        print(f"  {name:36s} {min(rates):5.1f} / {statistics.median(rates):5.1f} / {max(rates):5.1f} prompts/s "
              f"(min/median/max), {statistics.median(rates) / sequential_rate:.2f}x; max difference from sequential "
              f"{max(top_difference(a, b) for a, b in zip(reference, answers)):.2e}")

    print("\n3. history: one prompt's top-20 log-probabilities, one decode vs cut in two at K")
    for k in sorted({shared, 32, 36}):
        worst = []
        for tokens in prompts[:20]:
            results = []
            for cuts in ([], [k]):
                streams.clear()
                bounds = [0, *cuts, len(tokens)]
                for a, b in zip(bounds, bounds[1:]):
                    got = decode(streams, [(tokens[p], p, 0, p == len(tokens) - 1) for p in range(a, b)])
                results.append(got[0])
            worst.append(top_difference(*results))
        print(f"  K={k:2d}: {sum(w > 1e-4 for w in worst)}/{len(worst)} prompts differ by more than "
              f"1e-4, max {max(worst):.2f}")


if __name__ == "__main__":
    main()
