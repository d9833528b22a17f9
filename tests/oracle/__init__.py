"""The table oracle: random combinations of runs, settings, protocols and human labels, as researchers make them,
each table of every benchmark in every format held against a computation that shares no code with figeval's
metrics, tables or renderers (issue 37). `test_oracle.py` runs a fixed set of seeds; `pytest tests/oracle --many N`
runs N more."""
