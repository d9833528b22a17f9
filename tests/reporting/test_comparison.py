"""Paired comparisons in reports (figeval/results/comparison.py), on real ffe_detection runs of replayed models
whose answers differ on known items of the real FFE-HALLU fakes (controls off: 200 fakes x 2 framings).

The models, by the fakes they accept as real (a hallucination under both framings; every other fake rejected):
- a: fakes 1-60; b: fakes 1-40; c: fakes 1-38;
- d: no fake accepted, but fakes 1-10 answered unreadably under both framings (20 of 400 answers unparsed, which
  detection counts as accepting the fake: Section 4).
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import pytest

from figeval.paired import clustered_standard_error, paired_bootstrap
from figeval.results.comparison import RESAMPLES, SEED, ScoreCache, compare
from figeval.results.logs import read_runs
from figeval.results.runs import RunSummary, newest_runs
from tests.command import assert_one_line_error, figeval
from tests.conftest import real_data_folder

ACCEPT = {"fake-q": "No, it is a real Persian proverb.", "real-q": "بله"}
REJECT = {"fake-q": "**Yes**", "real-q": "Answer: No."}
UNREADABLE = "Hmm, hard to say."


def answers(accepted: int, unreadable: int = 0) -> dict[str, str]:
    out = {}
    for row in range(1, 201):
        for framing in ("fake-q", "real-q"):
            out[f"ffe-fake-{row:03d}/{framing}"] = (UNREADABLE if row <= unreadable else
                                                    ACCEPT[framing] if row <= accepted else REJECT[framing])
    return out


MODELS = {"a": answers(60), "b": answers(40), "c": answers(38), "d": answers(0, unreadable=10)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The four runs in one log folder, and the environment that reads them."""
    folder = tmp_path_factory.mktemp("comparison")
    env = {**os.environ, "FIGEVAL_DATA_DIR": str(folder / "data"), "INSPECT_CACHE_DIR": str(folder / "cache")}
    assert figeval("data", "import", "ffe-hallu", str(real_data_folder("ffe-hallu")), env=env).returncode == 0
    for name, outputs in MODELS.items():
        replay = folder / f"{name}.jsonl"
        replay.write_text("".join(json.dumps({"id": key, "output": text}, ensure_ascii=False) + "\n"
                                  for key, text in outputs.items()), encoding="utf-8")
        ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false",
                      "--log-dir", str(folder / "logs"), env=env, cwd=folder)
        assert ran.returncode == 0, ran.stderr
    return folder, env


@pytest.fixture(scope="module")
def runs(folder) -> dict[str, RunSummary]:
    done, _ = read_runs(folder[0] / "logs", lambda _: None)
    return {run.display_name: run for run in newest_runs(done)[0]}


def test_two_models_differing_on_known_items(runs):
    result = compare("ffe_detection", "halluc_rate_fake_q", runs["b"], runs["a"], ScoreCache())
    # under fake-q, a accepts fakes 1-60 (0.30 of 200) and b fakes 1-40 (0.20): b - a = -0.10
    assert result.difference.difference == pytest.approx(-0.10)
    assert (result.difference.items, result.difference.samples) == (200, 200)  # one fake-q sample per item
    # discordant pairs: fakes 41-60, accepted by a alone (20), none by b alone; exact two-sided McNemar:
    # 2 * P(X <= 0), X ~ Bin(20, 1/2) = 2 / 2**20
    assert result.discordant == (20, 0)
    assert result.mcnemar_p == 2 / 2**20
    # the per-item differences: -1 on 20 items, 0 on 180; mean -0.1; sum of squared deviations
    # 20 * 0.9**2 + 180 * 0.1**2 = 18; one sample per item: the CLT standard error sqrt(18 / (200 * 199))
    assert result.clustered and result.standard_error == pytest.approx(math.sqrt(18 / (200 * 199)))
    # the interval is the bootstrap of those per-item differences over items, with the report's seed
    items = [f"ffe-fake-{row:03d}" for row in range(1, 201)]
    per_item = [-1.0 if 41 <= row <= 60 else 0.0 for row in range(1, 201)]
    expected = paired_bootstrap(items, lambda chosen: sum(per_item[i] for i in chosen) / len(chosen),
                                resamples=RESAMPLES, seed=SEED)
    assert (result.difference.low, result.difference.high) == pytest.approx((expected.low, expected.high))
    assert result.difference.high < 0 and result.significant


def test_clustering_by_item_changes_the_standard_error(runs):
    # unparsed_rate counts all 400 answers, two per item: d has 20 unparsed (fakes 1-10, both framings), b none
    result = compare("ffe_detection", "unparsed_rate", runs["b"], runs["d"], ScoreCache())
    assert result.difference.difference == pytest.approx(-20 / 400)
    assert (result.difference.items, result.difference.samples) == (200, 400)
    # deviations of the per-sample differences from their mean -0.05: -0.95 on 20 samples, +0.05 on 380;
    # sum of squares 20 * 0.9025 + 380 * 0.0025 = 19. Each sample alone: sqrt(19 / (400 * 399)) = 0.010911.
    # Clustered by item (Miller 2024): + (1/400**2) * sum over items of the cross terms e_1 * e_2 * 2:
    # 10 items 2 * 0.9025 + 190 items 2 * 0.0025 = 19, so SE = sqrt(19 / (400 * 399) + 19 / 400**2) = 0.015421
    assert result.clustered and result.standard_error == pytest.approx(math.sqrt(19 / (400 * 399) + 19 / 400**2))
    alone = clustered_standard_error([-1.0] * 20 + [0.0] * 380, list(range(400)))
    assert alone == pytest.approx(math.sqrt(19 / (400 * 399)))
    # two samples per item in the metric: McNemar's pairs would not be independent, so it is not given
    assert result.mcnemar_p is None


def test_a_mean_over_framings_is_compared_as_the_mean_of_their_rates(runs):
    # halluc_rate_avg is the mean of the two framings' rates, not a plain mean of samples (on a resample the
    # framings may hold different numbers of answers): each resample averages the framings' own rates, checked
    # against the task's metric before use. a: 0.30, c: 38/200 = 0.19
    cache = ScoreCache()
    result = compare("ffe_detection", "halluc_rate_avg", runs["c"], runs["a"], cache)
    assert result.difference.difference == pytest.approx(0.19 - 0.30)
    assert not result.clustered and result.mcnemar_p is None
    assert result.standard_error == result.difference.standard_error
    # the same interval as scoring every resample with the metric itself (the slow way, 200 resamples)
    slow = compare("ffe_detection", "halluc_rate_avg", runs["c"], runs["a"], cache, resamples=200, fast=False)
    fast = compare("ffe_detection", "halluc_rate_avg", runs["c"], runs["a"], cache, resamples=200)
    assert (slow.difference.low, slow.difference.high) == pytest.approx((fast.difference.low, fast.difference.high))


def test_the_report_compares_every_model_with_the_baseline(folder):
    path, env = folder
    text = figeval("report", str(path / "logs"), "--baseline", "a", env=env).stdout
    table = text[text.index("Paired differences"):]
    table = table[:table.index("\n\n")]
    # b - a: -10 points under halluc_rate_avg (both framings: 40 and 60 of 200), interval clear of 0: (*)
    rows = {line.split()[0]: line for line in table.splitlines()[2:] if line[:1] in "bcd"}
    assert set(rows) == {"b", "c", "d"} and all(" a " in line for line in rows.values())
    assert "-10.0 [" in rows["b"] and "(*)" in rows["b"]
    assert "Miller 2024" in table and "seed 0" in table


def test_an_unknown_baseline_is_one_line(folder):
    path, env = folder
    assert_one_line_error(figeval("report", str(path / "logs"), "--baseline", "zz", env=env),
                          "--baseline zz: no run of that model", "a, b, c, d")


def test_the_leaderboard_marks_a_model_within_noise_of_the_row_above(folder):
    path, env = folder
    text = figeval("report", str(path / "logs"), "--leaderboard", env=env).stdout
    leaderboard = text[:text.index("\n\n")]
    rows = {line.split()[0]: line for line in leaderboard.splitlines() if line[:2] in ("a ", "b ", "c ", "d ")}
    # c (19.0) vs b (20.0): 2 items apart of 200, the paired interval holds 0: marked; b vs a (10 points) and d vs c
    # (d: 10 fakes unread, counted as accepted: 5.0) are not
    assert "(≈)" in rows["c"]
    assert "(≈)" not in rows["b"] and "(≈)" not in rows["d"]
    assert "not significantly different from the row above" in leaderboard
    assert "Paired differences" not in text  # the marks say it; every pair would cost the leaderboard its speed



# --- a metric over pairs of answers (two framings of one fake) is resampled over items, each draw its own item ---

def framing_answers(disagreeing: int) -> dict[str, str]:
    """Fakes 1..`disagreeing` accepted as real when asked "is it fake?" and rejected when asked "is it real?" (the two
    framings disagree); every other fake rejected under both."""
    return {f"ffe-fake-{row:03d}/{framing}": (ACCEPT["fake-q"] if framing == "fake-q" and row <= disagreeing
                                               else REJECT[framing])
            for row in range(1, 201) for framing in ("fake-q", "real-q")}


@pytest.fixture(scope="module")
def framing_runs(folder) -> dict[str, RunSummary]:
    """x: the framings disagree on fakes 1-60; y: on fakes 1-20."""
    path, env = folder
    for name, disagreeing in (("x", 60), ("y", 20)):
        replay = path / f"{name}.jsonl"
        replay.write_text("".join(json.dumps({"id": key, "output": text}) + "\n"
                                  for key, text in framing_answers(disagreeing).items()), encoding="utf-8")
        ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false",
                      "--log-dir", str(path / "framing-logs"), env=env, cwd=path)
        assert ran.returncode == 0, ran.stderr
    done, _ = read_runs(path / "framing-logs", lambda _: None)
    return {run.display_name: run for run in newest_runs(done)[0]}


def test_a_metric_over_pairs_of_answers_counts_an_item_drawn_twice_twice(framing_runs):
    from unittest import mock

    from figeval.results import resampled
    from figeval.scoring.metrics import apply_metric

    calls = []
    counting = mock.patch.object(resampled, "apply_metric",
                                 side_effect=lambda *args: calls.append(1) or apply_metric(*args))
    with counting:
        result = compare("ffe_detection", "agreement", framing_runs["y"], framing_runs["x"], ScoreCache())
    # agreement: the fakes whose two answers agree; x 140 of 200 (0.70), y 180 of 200 (0.90): y - x = +0.20
    assert result.difference.difference == pytest.approx(0.20)
    assert (result.difference.items, result.difference.samples) == (200, 400)
    # per item, y's agreement minus x's: +1 on fakes 21-60 (40 items), 0 on the other 160. The bootstrap over items
    # draws 200 items with repeats; each repeat counts again, so a resample's difference is the mean over its
    # draws of those per-item values (each fake's two samples carry its value: a mean over samples is the same).
    # The metric pairs a fake's answers by its item, so a fake drawn twice must still count twice.
    items = [f"ffe-fake-{row:03d}" for row in range(1, 201) for _ in ("fake-q", "real-q")]
    per_sample = [1.0 if 21 <= int(item[-3:]) <= 60 else 0.0 for item in items]
    expected = paired_bootstrap(items, lambda chosen: sum(per_sample[i] for i in chosen) / len(chosen),
                                resamples=RESAMPLES, seed=SEED)
    assert (result.difference.low, result.difference.high) == pytest.approx((expected.low, expected.high))
    assert result.difference.standard_error == pytest.approx(expected.standard_error)
    # fast: numpy over each fake's value alone (200 metric calls, 2 x 21 checks, the per-sample pass), not the
    # metric on each of 2 x 2000 resamples
    assert len(calls) < 1500


# --- what a comparison says when it has too little, or nothing, to compare ---------------------------------------

def test_a_difference_the_same_on_every_item_has_no_interval_and_no_significance_mark(folder, tmp_path):
    path, env = folder
    # p accepts every fake under both framings (halluc_rate_avg 1.0); q accepts them under "is it fake?" only (0.5):
    # q - p = -50 points on every item, so every resample gives -50 too, an interval of no width [-50.0, -50.0] that
    # would claim no uncertainty at all. Over 2 fakes (each under both framings) and over all 200.
    both = {key: ACCEPT[key.split("/")[1]] for key in answers(0)}
    one = {key: ACCEPT["fake-q"] if key.endswith("fake-q") else REJECT["real-q"] for key in answers(0)}
    two_fakes = ["--sample-id", "ffe-fake-001/fake-q,ffe-fake-001/real-q,ffe-fake-002/fake-q,ffe-fake-002/real-q"]
    for logs, subset in (("two", two_fakes), ("all", [])):
        for name, outputs in (("p", both), ("q", one)):
            replay = tmp_path / f"{name}.jsonl"
            replay.write_text("".join(json.dumps({"id": key, "output": text}) + "\n" for key, text in outputs.items()),
                              encoding="utf-8")
            ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false", *subset,
                          "--log-dir", str(tmp_path / logs), env=env, cwd=path)
            assert ran.returncode == 0, ran.stderr
        text = figeval("report", str(tmp_path / logs), "--baseline", "p", env=env).stdout
        table = text[text.index("Paired differences"):]
        table = table[:table.index("\n\n")]
        [row] = [line for line in table.splitlines() if line.startswith("q ")]
        assert "-50.0" in row and "[" not in row and "(*)" not in row
        said = " ".join(table.split())
        assert ("no interval where fewer than 30 items" in said if logs == "two" else
                "no interval and no (*) where every resample gave the same difference" in said)


def test_a_baseline_sharing_no_task_and_settings_with_another_model_says_so(folder, framing_runs, tmp_path):
    path, env = folder
    # x's run (controls off, framing-logs) beside a run of another model with the controls on: one task, other
    # settings, so no pair of runs to compare
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(framing_runs["x"].log.removeprefix("file://"), logs)
    replay = tmp_path / "w.jsonl"
    replay.write_text("".join(json.dumps({"id": f"ffe-{kind}-{row:03d}/{framing}", "output": "Yes"}) + "\n"
                              for kind in ("fake", "real") for row in range(1, 201)
                              for framing in ("fake-q", "real-q")), encoding="utf-8")
    ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "--sample-id",
                  "ffe-fake-001/fake-q,ffe-fake-001/real-q", "--log-dir", str(logs),
                  env=env, cwd=path)
    assert ran.returncode == 0, ran.stderr
    result = figeval("report", str(logs), "--baseline", "x", env=env)
    assert result.returncode == 0
    said = " ".join(result.stdout.split())  # the note as one line, however the terminal width wrapped it
    assert ("--baseline x: nothing compared: the other models' runs of ffe_detection (w) have other settings" in said
            and "run another model with the same task and settings as x's runs" in said)
