"""What `figeval report --baseline` costs on 3 runs x 800 samples: the paired comparisons of issue 43 (a comparison
of two 12-sample runs had taken 2.5 minutes). Two cases, each three replayed models in a temporary folder:

- ffe_detection on the FFE-HALLU data (800 samples: 200 fakes and 200 authentic FFEs, two framings each), whose
  headline is a mean of two framings' rates (`mean_over_groups`);
- perhallueval_qa on a made-up final file of 400 items (800 samples: a correct and a hallucinated version each),
  whose headline, the Hamming score, pairs an item's two answers and whose metric computes its own bootstrap
  interval on every call: the case that took minutes (a bootstrap inside each of the comparison's 2000 resamples,
  and no fast path for a value of pairs).

Each report is a process of its own (`figeval report LOGS --baseline a`), as a user runs it, timed with
time.monotonic; the figure printed is the whole command (start-up and reading the logs included).

Usage: FIGEVAL_DATA_DIR=... .venv/bin/python perf/report_baseline.py [FFE-HALLU folder, default:
/work/shared/datasets/ffe-hallu, imported into the temporary folder]
"""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIGEVAL = [sys.executable, "-m", "figeval"]
MODELS = "abc"
ITEMS = 400


def figeval(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([*FIGEVAL, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"figeval {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def replay(path: Path, ids: list[str], answers: list[str], seed: str) -> Path:
    """Each sample answered at random from `answers` (seeded by the model's name): models that differ by chance."""
    draw = random.Random(seed)
    path.write_text("".join(json.dumps({"id": key, "output": draw.choice(answers)}, ensure_ascii=False) + "\n"
                            for key in ids), encoding="utf-8")
    return path


def detection_runs(folder: Path, env: dict[str, str], data: Path) -> Path:
    figeval("data", "import", "ffe-hallu", str(data), env=env)
    ids = [f"ffe-{kind}-{row:03d}/{framing}" for kind in ("fake", "real") for row in range(1, 201)
           for framing in ("fake-q", "real-q")]
    for model in MODELS:
        answers = replay(folder / f"{model}.jsonl", ids, ["Yes", "No", "No", "Hmm"], model)
        figeval("run", "ffe_detection", "--model", f"replay/{answers}", "--log-dir", str(folder / "detection"),
                env=env)
    return folder / "detection"


def pair_runs(folder: Path, env: dict[str, str]) -> Path:
    final = folder / "final_qa.csv"
    columns = ["id", "source", "context", "question", "correct", "hallucinated", "generator", "verifier_score",
               "persian_specific"]
    with final.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for k in range(1, ITEMS + 1):
            writer.writerow([f"q{k}", f"pquad-{k}", f"متن شماره {k} دربارهٔ شهر شیراز است.",
                             f"پرسش شماره {k} کدام شهر است؟", f"شیراز {k}", f"اصفهان {k}", "model-a", "0.5",
                             k % 2])
    ids = [f"phe-qa-q{k}/{version}" for k in range(1, ITEMS + 1) for version in ("correct", "hallucinated")]
    for model in MODELS:
        answers = replay(folder / f"pairs-{model}.jsonl", ids, ["Y", "N", "Y", "N", "Hmm"], model)
        figeval("run", "perhallueval_qa", "-T", f"data={final}", "--model", f"replay/{answers}", "--name", model,
                "--log-dir", str(folder / "pairs"), env=env)
    return folder / "pairs"


def timed_report(logs: Path, env: dict[str, str]) -> tuple[float, list[str]]:
    start = time.monotonic()
    text = figeval("report", str(logs), "--baseline", "a", env=env)
    seconds = time.monotonic() - start
    table = text[text.index("Paired differences"):]
    return seconds, table[:table.index("\n\n")].splitlines()[:4]


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/datasets/ffe-hallu")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "FIGEVAL_DATA_DIR": str(folder / "data"), "INSPECT_CACHE_DIR": str(folder / "cache")}
        print("making 3 replayed runs x 800 samples of each task ...", flush=True)
        cases = {"ffe_detection (mean of two framings' rates)": detection_runs(folder, env, data),
                 "perhallueval_qa (Hamming score over pairs)": pair_runs(folder, env)}
        for name, logs in cases.items():
            seconds, table = timed_report(logs, env)
            print(f"\nreport --baseline a, 3 runs x 800 samples, {name}: {seconds:.1f} s")
            print("\n".join(table))


if __name__ == "__main__":
    main()
