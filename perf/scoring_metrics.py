"""What computing the metrics of a run costs, at the papers' sizes: every metric reads outcomes back from the
scores (`outcome_of`), so this measures the scoring core's own overhead, without any model.

- FFE-HALLU detection with controls: 800 samples (200 fakes and 200 authentic FFEs, two framings);
- PerHalluEval QA: 3,829 items x 2 versions (the paper's size, Section 3.4), with 1,000 bootstrap resamples per
  statistic and the persian-specific / generic split.

Usage: .venv/bin/python perf/scoring_metrics.py [repetitions, default 3]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from inspect_ai.scorer import SampleScore

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, Framing, category_slug
from figeval.benchmarks.ffe_hallu.scorer import VERDICTS, detection_metrics
from figeval.benchmarks.perhallueval.scorer import perhallueval_metrics
from figeval.scoring.outcome import DecidedBy, Outcome, to_score


def detection_scores(rng: random.Random) -> list[SampleScore]:
    scores = []
    for kind, target in (("fake", "fake"), ("real", "real")):
        for row in range(1, 201):
            category = FAKE_CATEGORIES[(row - 1) // 50] if kind == "fake" else None
            for framing in Framing:
                draw = rng.random()
                outcome = (Outcome.unparsed(DecidedBy.PARSER, "no yes/no", target) if draw < 0.05 else
                           Outcome("real" if draw < 0.5 else "fake", DecidedBy.PARSER, target=target))
                metadata = {"item": f"ffe-{kind}-{row:03d}", "kind": kind, "framing": framing.value}
                if category:
                    metadata |= {"category": category, "category_slug": category_slug(category)}
                scores.append(SampleScore(score=to_score(outcome, VERDICTS),
                                          sample_id=f"{metadata['item']}/{framing.value}",
                                          sample_metadata=metadata))
    return scores


def perhallueval_scores(rng: random.Random, items: int = 3829) -> list[SampleScore]:
    scores = []
    for i in range(items):
        subset = "persian_specific" if i % 3 == 0 else "generic"
        for version, target in (("correct", "Y"), ("hallucinated", "N")):
            draw = rng.random()
            outcome = (Outcome.unparsed(DecidedBy.PARSER, "no Y/N", target) if draw < 0.03 else
                       Outcome("Y" if draw < 0.6 else "N", DecidedBy.PARSER, target=target))
            scores.append(SampleScore(score=to_score(outcome, ["Y", "N"]), sample_id=f"q{i}/{version}",
                                      sample_metadata={"item": f"q{i}", "version": version,
                                                       "persian_specific": subset == "persian_specific",
                                                       "subset": subset}))
    return scores


def seconds(metrics, scores) -> float:
    start = time.perf_counter()
    for metric in metrics:
        metric(scores)
    return time.perf_counter() - start


def main(repetitions: int) -> None:
    rng = random.Random(0)
    cases = [("ffe_detection, 800 samples", detection_metrics(), detection_scores(rng)),
             ("perhallueval_qa, 7,658 samples", perhallueval_metrics(), perhallueval_scores(rng))]
    for name, metrics, scores in cases:
        times = sorted(seconds(metrics, scores) for _ in range(repetitions))
        print(f"{name}: metrics in {times[0]:.2f} / {statistics.median(times):.2f} / {times[-1]:.2f} s "
              f"(min / median / max of {repetitions})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
