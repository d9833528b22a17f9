"""The next token from a row of logits: log-probabilities, the top k of them, and greedy or nucleus sampling."""

from __future__ import annotations

import numpy as np

# What the engine does where a request sets nothing: greedy decoding (figeval's tasks ask it anyway:
# answering.DETERMINISTIC), and no top-k, min-p or repetition penalty at all (it has none of those samplers).
# llama-cpp-python's server (0.3.36, `llama_cpp/server/types.py`) samples unasked at temperature 0.8, top_p 0.95,
# top_k 40, min_p 0.05 and repeat_penalty 1.1, and keeps top_k, min_p and repeat_penalty when a client sends
# temperature 0 (Inspect has no such settings to send): so the same weights loop less there.
UNASKED = {"temperature": 0.0, "top_p": 1.0}
NOT_APPLIED = {"top_k": 0, "min_p": 0.0, "repeat_penalty": 1.0}


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max()
    return shifted - np.log(np.exp(shifted).sum())


def top_k(logprobs: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values, largest first (a partition, then a sort of k: a full argsort of a
    262k vocabulary costs about 28 ms here, the partition about 2.5 ms)."""
    candidates = np.argpartition(logprobs, len(logprobs) - k)[len(logprobs) - k:]
    return candidates[np.argsort(-logprobs[candidates], kind="stable")]


def sample_token(logits: np.ndarray, temperature: float, top_p: float, rng: np.random.Generator) -> int:
    """Greedy at temperature 0; otherwise nucleus sampling from the tempered distribution."""
    if temperature <= 0.0:
        return int(np.argmax(logits))
    probs = np.exp(log_softmax(logits / temperature))
    order = np.argsort(-probs)
    keep = np.cumsum(probs[order]) - probs[order] < top_p  # smallest set whose mass reaches top_p
    kept = order[keep]
    return int(rng.choice(kept, p=probs[kept] / probs[kept].sum()))
