"""Runs read from logs, each with its identity as its log records it; people's labels read with the runs whose
answers they label; the papers' tables built from them. The layer above the benchmark contract (it reads what
benchmarks declare) and under the benchmarks' own table builders and the report's surfaces (`figeval.reporting`)."""
