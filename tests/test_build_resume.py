"""`figeval build` killed with SIGKILL and run again: the build completes, every answer that was on disk is kept
(the resumed run asks the model only for the rest, with a fresh response cache, so a lost answer would show as a
second request at the server), and no file is left half-written.

The model is a local OpenAI-compatible server (tests/api_stub.py) that holds every answer after the first N: the
build is killed while it waits for the held answers, once the N answers are on disk (a file condition, no
timing guess)."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.api_stub import StubServer
from tests.command import figeval_subprocess
from tests.perhallueval.test_build import pquad_file

PERSIAN = "ابپتثجچحخدذرزسشص"  # 16 letters: one per hex digit


class AnsweringStub(StubServer):
    """Answers each prompt with Persian words of its own (a hash of the request: the model, the messages and the
    seed), "No" to the fake checkers' yes/no question, and "Y" with Y/N top logprobs to a request for logprobs
    (the PerHalluEval verifier); counts each distinct request answered in `requests`."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.requests: Counter[str] = Counter()

    def _completion(self, payload, request_id):
        body = super()._completion(payload, request_id)
        request = json.dumps([payload.get("model"), payload["messages"], payload.get("seed")], ensure_ascii=False)
        with self._lock:
            self.requests[request] += 1
        prompt = str(payload["messages"][-1]["content"])
        choice = body["choices"][0]
        if payload.get("logprobs"):
            top = [{"token": "Y", "logprob": -0.1, "bytes": None}, {"token": "N", "logprob": -2.5, "bytes": None}]
            choice["message"]["content"] = "Y"
            choice["logprobs"] = {"content": [{"token": "Y", "logprob": -0.1, "bytes": None, "top_logprobs": top}]}
        elif prompt.endswith("Answer:"):
            choice["message"]["content"] = "No"
        else:
            digest = hashlib.sha256(request.encode()).hexdigest()
            words = ["".join(PERSIAN[int(c, 16)] for c in digest[i:i + 4]) for i in (0, 4, 8)]
            choice["message"]["content"] = "«" + " ".join(words) + "»"
        return body


def wait_for(condition: Callable[[], bool], process: subprocess.Popen, what: str, timeout: float = 90) -> None:
    """Poll `condition` until it holds; fail (with the build's output) if the build ends first or it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"the build ended before {what}: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"no {what} after {timeout} s")
        time.sleep(0.05)


def kill_after(args: list[str], stub: AnsweringStub, answers: int, on_disk: Callable[[], bool], env: dict) -> None:
    """Start `figeval ARGS`, let `answers` answers through, wait until `on_disk` sees them written, SIGKILL it."""
    stub.hold_after(answers)
    process = subprocess.Popen([sys.executable, "-m", "figeval", *args], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    wait_for(on_disk, process, f"{answers} answers on disk")
    assert stub.total_answered() == answers  # the others are held: the build is waiting for them
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    stub.release(answer_held=False)  # the killed build's held requests go unanswered


def resume(args: list[str], env: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run `figeval ARGS` to the end with a response cache of its own: what the killed run was answered counts
    only if the build kept it on disk. In a process of its own: Inspect keeps a model made by name for the rest of
    the process, keyed by its name and arguments, not by the environment that gave it this test's stub address."""
    result = figeval_subprocess(*args, env={**env, "INSPECT_CACHE_DIR": str(tmp_path / "second-cache")})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def jsonl_records(path: Path) -> list[dict]:
    """Every line of a step file as a record: a half-written line fails here."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def sheet_rows(path: Path) -> list[dict[str, str]]:
    text = path.read_text(encoding="utf-8-sig")
    assert text.endswith("\n")
    return list(csv.DictReader(text.splitlines()))


def no_temporaries(folder: Path) -> bool:
    return not [path for path in folder.iterdir() if path.name.endswith(".tmp")]


@pytest.fixture
def stub(tmp_path: Path):
    with AnsweringStub() as server:
        yield server


@pytest.fixture
def env(stub: AnsweringStub, tmp_path: Path) -> dict:
    return {**os.environ, **stub.env("stub"), "INSPECT_CACHE_DIR": str(tmp_path / "first-cache")}


def test_perhallueval_killed_while_verifying(stub: AnsweringStub, env: dict, tmp_path: Path):
    out = tmp_path / "build"
    args = ["build", "perhallueval-candidates", "--task", "qa", "--source", str(pquad_file(tmp_path / "pquad.json")),
            "--n", "6", "--generator", "openai-api/stub/gen", "--verifier", "openai-api/stub/ver", "--out", str(out)]
    verified = out / "verified.jsonl"
    # 6 items: 6 generator calls (step 2), then 6 verifier calls (step 3); 8 answers = step 2 and 2 of step 3
    kill_after(args, stub, 8, lambda: verified.is_file() and verified.read_text(encoding="utf-8").count("\n") == 2, env)
    assert len(jsonl_records(out / "candidates.jsonl")) == 6 and len(jsonl_records(verified)) == 2
    assert not (out / "kept.csv").exists() and no_temporaries(out)

    result = resume(args, env, tmp_path)
    assert "6 to do, 0 already done" not in result.stdout
    assert "step 3, verifier scores: 4 to do, 2 already done" in result.stdout
    # 12 distinct requests in all, each answered once: the 8 the killed build got were not asked again
    assert sum(stub.requests.values()) == 12 and set(stub.requests.values()) == {1}
    assert len(jsonl_records(verified)) == 6 and len(jsonl_records(out / "selected.jsonl")) == 6
    # every candidate kept: P(Y) - P(N) = e^-0.1 - e^-2.5 = 0.9048 - 0.0821 = 0.8228
    rows = sheet_rows(out / "kept.csv")
    assert len(rows) == 6 and {row["verifier_score"] for row in rows} == {"0.8228"}
    assert json.loads((out / "build_record.json").read_text(encoding="utf-8"))["seed"] == 0
    assert no_temporaries(out)


def test_fakes_killed_while_writing_candidates(ffe_hallu_imported: Path, stub: AnsweringStub, env: dict,
                                               tmp_path: Path):
    out = tmp_path / "fakes"
    args = ["build", "ffe-hallu-fakes", "--out", str(out), "--per-category", "2", "--model", "openai-api/stub/writer",
            "--checker", "openai-api/stub/checker"]
    candidates = out / "candidates.jsonl"

    def by_model() -> int:
        text = candidates.read_text(encoding="utf-8") if candidates.is_file() else ""
        return text.count('"method": "model: ')

    kill_after(args, stub, 3, lambda: by_model() == 3, env)
    made = jsonl_records(candidates)  # the 3 answers and the candidates a rule made, each whole
    assert sum(record["method"].startswith("model") for record in made) == 3
    assert not (out / "review.csv").exists() and no_temporaries(out)

    resume(args, env, tmp_path)
    records = jsonl_records(candidates)
    assert len(records) == 8  # 2 per category, 4 categories
    asked_for_candidates = sum(record["method"].startswith("model") for record in records)
    checked = len(jsonl_records(out / "known.jsonl"))
    assert checked == 8  # every candidate has text, and the checker was asked about each
    # each request answered once in all: the 3 on disk were not asked again
    assert set(stub.requests.values()) == {1} and sum(stub.requests.values()) == asked_for_candidates + checked
    rows = sheet_rows(out / "review.csv")
    assert len(rows) == 8 and all(row["known_by"] == "0/1: openai-api/stub/checker=no" for row in rows)
    record = json.loads((out / "build_record.json").read_text(encoding="utf-8"))
    assert record["checkers"] == ["openai-api/stub/checker"]
    assert no_temporaries(out)


def test_paraphrases_killed_mid_sheet(ffe_hallu_imported: Path, stub: AnsweringStub, env: dict, tmp_path: Path):
    sheet = tmp_path / "paraphrases.csv"
    args = ["build", "ffe-hallu-paraphrases", "--model", "openai-api/stub/m", "--out", str(sheet)]

    def rows_on_disk() -> int:
        return sheet.read_text(encoding="utf-8-sig").count("\n") - 1 if sheet.is_file() else 0

    kill_after(args, stub, 5, lambda: rows_on_disk() == 5, env)
    assert len(sheet_rows(sheet)) == 5

    result = resume(args, env, tmp_path)
    assert "195 paraphrases written, 5 kept from an earlier run" in result.stdout
    assert sum(stub.requests.values()) == 200 and set(stub.requests.values()) == {1}
    rows = sheet_rows(sheet)
    assert [int(row["row"]) for row in rows] == list(range(1, 201)) and all(row["paraphrase"] for row in rows)
    assert no_temporaries(tmp_path)


def test_allusive_texts_killed_mid_sheet(stub: AnsweringStub, env: dict, tmp_path: Path):
    listed = tmp_path / "allusions.csv"
    listed.write_text("allusion,description\nسلیمان (انگشتری),دیو انگشتری سلیمان را ربود\n"
                      "سلیمان (مور),مور با سلیمان سخن گفت\nیوسف,زیبایی یوسف\n", encoding="utf-8")
    sheet = tmp_path / "pool.csv"
    args = ["build", "persian-allusions-texts", "--model", "openai-api/stub/m", "--out", str(sheet), "--allusions",
            str(listed), "--per-allusion", "2"]

    def rows_on_disk() -> int:
        return sheet.read_text(encoding="utf-8-sig").count("\n") - 1 if sheet.is_file() else 0

    kill_after(args, stub, 2, lambda: rows_on_disk() == 2, env)
    result = resume(args, env, tmp_path)
    # 3 allusions x 2 passages; passage 2 is asked with its own seed, so the 6 requests are distinct
    assert "4 passages written, 2 kept from an earlier run" in result.stdout
    assert sum(stub.requests.values()) == 6 and set(stub.requests.values()) == {1}
    assert [row["id"] for row in sheet_rows(sheet)] == [f"generated-00{n}/{p}" for n in (1, 2, 3) for p in (1, 2)]
