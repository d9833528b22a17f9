"""figeval: hallucination and figurative-language benchmarks for low-resource languages, on Inspect AI.

Every task can be imported from here (`from figeval import <task>`). They are looked up on first use, so
that `import figeval` stays light: the tasks import Inspect AI, which takes seconds to load.
"""

import csv

# The csv module refuses cells over 131,072 characters; news articles and user contexts of 200,000
# characters are legitimate. Raised once here, where every figeval reader (tables, sheets, labels) passes.
csv.field_size_limit(1 << 30)


def __getattr__(name: str) -> object:
    # Only what this module does not define arrives here: the version (`figeval.version`) and the tasks.
    if name == "__version__":
        from figeval.version import __version__

        return __version__
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

    return sorted({*globals(), "__version__", *tasks()})
