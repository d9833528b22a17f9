#!/bin/sh
# What the test files that run the figeval command cost: wall and CPU seconds of the whole pytest process with its
# children (farm-bench), and the processes the tests start (perf/count_subprocesses.py). Given a second checkout
# (e.g. an older commit: `git archive COMMIT | tar -x -C /tmp/old`), both run in turn, each against its own src/,
# and farm-bench prints the ratio pair by pair, which holds however busy the machine is.
#
# Usage: perf/cli_tests_time.sh [OTHER_CHECKOUT] [RUNS, default 1]
# Each run's pytest output (its subprocess count, its 15 slowest tests) is appended to /tmp/cli_tests_time.this.txt
# (and .other.txt). PYTHON names the interpreter (default: this checkout's .venv). Every checkout needs the FFE-HALLU files in ../shared beside it (a symbolic link will do).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
other=${1:+$(cd "$1" && pwd)}
runs=${2:-1}
python=${PYTHON:-$here/.venv/bin/python}
files="tests/test_cli.py tests/test_bad_inputs.py tests/cli/test_list.py tests/test_routes.py tests/test_progress.py \
tests/cli/test_run_summary.py tests/ffe_hallu/test_fakes.py tests/reporting/test_subsets.py \
tests/reporting/test_families_table.py tests/reporting/test_report.py tests/persian_allusions/test_tasks.py \
tests/persian_allusions/test_human_route.py tests/turkish_idioms/test_tasks.py tests/test_annotation.py \
tests/test_hand_labels.py tests/test_logs_and_labels.py"

pytest_in() {  # $1: a checkout; $2: the file its output is appended to. `perf` is found in this checkout too.
    echo "cd $1 && export PYTHONPATH=$1/src:$1:$here && exec $python -m pytest \
-p perf.count_subprocesses -q -p no:cacheprovider --durations=15 $files >>$2 2>&1"
}

rm -f /tmp/cli_tests_time.this.txt /tmp/cli_tests_time.other.txt
if [ -z "$other" ]; then
    farm-bench -n "$runs" --warmup 0 --timeout 3600 -- sh -c "$(pytest_in "$here" /tmp/cli_tests_time.this.txt)"
else
    farm-bench -n "$runs" --warmup 0 --timeout 3600 \
        --vs "sh -c '$(pytest_in "$other" /tmp/cli_tests_time.other.txt)'" \
        -- sh -c "$(pytest_in "$here" /tmp/cli_tests_time.this.txt)"
fi
grep -H "^subprocesses:\| passed\| failed" /tmp/cli_tests_time.*.txt
