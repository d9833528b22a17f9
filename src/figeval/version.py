"""figeval's version, as installed (recorded in every log and report)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("figeval")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"
