"""Judge calls per sample in a judged ffe_generation run, with the rules that avoid them.

Replays 198 generation outputs: a third equal their reference (correct without a judge call), a third are
another authentic FFE (judge asked to choose correct/incorrect), a third are invented (judge asked). The
replayed judge answers instantly, so the figures isolate figeval's own cost and the calls the rules save.

Usage: .venv/bin/python perf/judged_run_cost.py (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from inspect_ai import eval as inspect_eval

from figeval.benchmarks.ffe_hallu.dataset import authentic_dataset
from figeval.benchmarks.ffe_hallu.tasks import ffe_generation


def main() -> None:
    items = authentic_dataset()[0]
    outputs, judge = {}, {}
    for i, item in enumerate(items):
        sample_id = f"ffe-gen-{item.row:03d}"
        if i % 3 == 0:
            outputs[sample_id] = item.expression
        elif i % 3 == 1:
            outputs[sample_id] = items[(i + 1) % len(items)].expression  # another authentic FFE
        else:
            outputs[sample_id] = "سیب زمینی را با چنگال کباب کردن"  # invented
        judge[sample_id] = json.dumps({"label": 1, "reason": "replayed"})
    with tempfile.TemporaryDirectory() as folder:
        out_file, judge_file = Path(folder) / "outputs.jsonl", Path(folder) / "judge.jsonl"
        for path, records in ((out_file, outputs), (judge_file, judge)):
            path.write_text("".join(json.dumps({"id": k, "output": v}, ensure_ascii=False) + "\n"
                                    for k, v in records.items()), encoding="utf-8")
        started = time.perf_counter()
        [log] = inspect_eval(ffe_generation(), model=f"replay/{out_file}",
                             model_roles={"grader": f"replay/{judge_file}"},
                             log_dir=str(Path(folder) / "logs"), display="none")
        elapsed = time.perf_counter() - started
        assert log.status == "success", log.error
        scores = [s.scores["ffe_judged_scorer"] for s in log.samples]  # read while the log file exists
    calls = sum(len(score.metadata.get("judge_answers", [])) for score in scores)
    decided: dict[str, int] = {}
    for score in scores:
        decided[score.metadata["decided_by"]] = decided.get(score.metadata["decided_by"], 0) + 1
    n = len(scores)
    print(f"samples: {n}; decided by: {decided}")
    print(f"judge calls: {calls} ({calls / n:.3f} per sample; {n - calls} avoided, {(n - calls) / n:.1%})")
    print(f"wall time: {elapsed:.1f} s ({1000 * elapsed / n:.1f} ms per sample, replayed model and judge)")


if __name__ == "__main__":
    main()
