"""figeval: hallucination and figurative-language benchmarks for low-resource languages, on Inspect AI."""

import csv
from importlib.metadata import PackageNotFoundError, version

# The csv module refuses cells over 131,072 characters; PerHalluEval's articles and user contexts of 200,000
# characters are legitimate. Raised once here, where every figeval reader (tables, sheets, labels) passes.
csv.field_size_limit(1 << 30)

try:
    __version__ = version("figeval")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"
