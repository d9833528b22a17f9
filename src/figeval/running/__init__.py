"""The run library: what `figeval run` decides before and around Inspect's eval, callable from Python.

A paper's protocol routed to its runs (`protocol.py`), the dry run's plan (`plan.py`, `judge_plan.py`,
`tokens.py`), the checks of models, roles and options a run would otherwise fail on after its log is started
(`models.py`, `options.py`), a task built and checked as its run needs it (`tasks.py`, `launch.py`), an eval set
run in its folder (`paper.py`), and the Python API over them (`api.py`, exported as `figeval.plan` and
`figeval.run_paper`).

Every function takes the benchmarks it may use as an argument (never the registry), raises `FigevalError` with
one line for what the user can fix, and returns data: printing is the command's (`figeval.cli.run`).
"""
