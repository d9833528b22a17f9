"""The scoring core shared by every benchmark: outcomes and their Score form (`outcome`), label schemes
(`labels`), answer readers (`readers`), asking a judge model (`judge`), the judged-scorer skeleton (`judged`), the
extractor role for unread answers (`extractor`), metrics with unparsed policies and grouped breakdowns (`metrics`),
and the epoch reducer (`reducer`).

Modules are imported by name (`from figeval.scoring.outcome import Outcome`); this package imports nothing
itself, so that `judge` can use `labels` while `judged` uses `judge`.
"""
