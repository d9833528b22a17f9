"""figeval: hallucination and figurative-language benchmarks for low-resource languages, on Inspect AI.

Every task can be imported from here (`from figeval import <task>`), and the run command's Python API:
`figeval.plan(...)` (a dry run's plan, as data) and `figeval.run_paper(...)` (a paper's protocol as one eval set),
given every registered benchmark (docs/python-api.md). They are looked up on first use, so that `import figeval`
stays light: the tasks and the API import Inspect AI, which takes seconds to load.
"""

import csv
from collections.abc import Callable
from typing import Any

# The csv module refuses cells over 131,072 characters; news articles and user contexts of 200,000
# characters are legitimate. Raised once here, where every figeval reader (tables, sheets, labels) passes.
csv.field_size_limit(1 << 30)


# The run library's functions exported here, each given the registered benchmarks (figeval.running.api).
_API = ("plan", "run_paper")


def __getattr__(name: str) -> object:
    # Only what this module does not define arrives here: the version (`figeval.version`), the API and the tasks.
    if name == "__version__":
        from figeval.version import __version__

        return __version__
    if name in _API:
        globals()[name] = function = _with_benchmarks(name)
        return function
    # Dunders and submodules are not tasks: `from figeval import cli` asks for `figeval.cli` here first, and must
    # go on to import the submodule rather than load every task.
    from importlib.util import find_spec

    if name.startswith("__") or find_spec(f"{__name__}.{name}") is not None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from figeval._registry import tasks

    known = tasks()
    if name in known:
        return known[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}; its tasks: {', '.join(known)}")


def __dir__() -> list[str]:
    from figeval._registry import tasks

    return sorted({*globals(), "__version__", *_API, *tasks()})


def _with_benchmarks(name: str) -> Callable[..., Any]:
    """The API function `name` with `benchmarks` given: the registry's, read at each call (a test may add one)."""
    import functools
    from inspect import signature

    from figeval import _registry
    from figeval.running import api

    function = getattr(api, name)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        return function(*args, benchmarks=_registry.BENCHMARKS, **kwargs)

    shown = signature(function)
    call.__signature__ = shown.replace(  # type: ignore[attr-defined]
        parameters=[parameter for parameter in shown.parameters.values() if parameter.name != "benchmarks"])
    return call
