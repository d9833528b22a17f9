"""The gguf batching engine through its public interface, on a stand-in context (no llama.cpp, no Inspect): what
a step returns when a decode fails, and what dropping the active requests leaves."""

import numpy as np

from figeval.models.gguf.engine import Engine, Request

VOCABULARY_SIZE = 8
NEXT_TOKEN = 5  # the stand-in context's logits make this token the greedy choice


class StandInBatch:
    def __init__(self) -> None:
        self.rows: list[tuple[int, int, tuple[int, ...], bool]] = []

    def add(self, token: int, pos: int, seq_ids, logits: bool) -> int:
        self.rows.append((token, pos, tuple(seq_ids), logits))
        return len(self.rows) - 1


class StandInContext:
    """Two sequences; decode number `failing` raises as llama_decode's error would."""

    def __init__(self, failing: int | None = None) -> None:
        self.n_seq, self.n_batch = 2, 512
        self.batch = StandInBatch()
        self.decodes: list[list[tuple[int, int, tuple[int, ...], bool]]] = []
        self.failing = failing

    def decode(self) -> None:
        rows, self.batch.rows = self.batch.rows, []
        self.decodes.append(rows)
        if len(self.decodes) == self.failing:
            raise RuntimeError("llama_decode returned 1 (no room in the KV cache)")

    def logits(self, row: int) -> np.ndarray:
        return np.eye(VOCABULARY_SIZE)[NEXT_TOKEN]

    def seq_rm(self, seq_id: int, p0: int = -1, p1: int = -1) -> bool:
        return True

    def clear(self) -> None:
        pass


class StandInVocabulary:
    def text(self, tokens: list[int]) -> str:
        return "".join(f"<{token}>" for token in tokens)

    def is_end_of_generation(self, token: int) -> bool:
        return token == 0


def request(n_tokens: int, max_tokens: int) -> Request:
    return Request(tokens=list(range(1, n_tokens + 1)), max_tokens=max_tokens, temperature=0.0, top_p=1.0,
                   rng=np.random.default_rng(0), logprobs=False, stops=[])


def test_a_failed_decode_fails_the_active_requests_and_keeps_those_finished_before_it():
    # A prompt of 4 tokens needs one block of 4 rows, one of 10 needs 12: two decodes in one step, the 4-token
    # one first (needs in ascending order), padded to 8 rows since it is alone in its decode. Its one token
    # (max_tokens=1) comes from the first decode; the second decode fails.
    context = StandInContext(failing=2)
    engine = Engine(context, StandInVocabulary(), share=64)
    short, long = request(4, max_tokens=1), request(10, max_tokens=1)
    finished = engine.step([short, long], [])
    assert [len(rows) for rows in context.decodes] == [8, 12]
    assert finished[0] == (short, None) and short.text == f"<{NEXT_TOKEN}>" and short.finish == "max_tokens"
    [(failed, error)] = finished[1:]
    assert failed is long and isinstance(error, RuntimeError)
    # the cache's state is unknown after a failed decode: everything is forgotten, every slot free
    assert engine.active == [] and sorted(engine.free) == [0, 1] and engine.cached == [[], []]


def test_dropping_the_active_requests_frees_their_slots_and_keeps_their_prompts_cached():
    # 4 prompt tokens, evaluated whole in the first step (one 8-row decode); max_tokens=3: still generating
    engine = Engine(StandInContext(), StandInVocabulary(), share=64)
    waiting = request(4, max_tokens=3)
    assert engine.step([waiting], []) == []
    assert engine.active == [waiting] and engine.free == [1]
    engine.drop_active()
    assert engine.active == [] and sorted(engine.free) == [0, 1]
    assert engine.cached[0] == [1, 2, 3, 4]  # the next prompt sharing them evaluates only what differs
