"""Writing result files safely: whole or not at all, and never over a command's own input.

A file is written to a temporary name beside its destination and renamed over it when complete (an interrupted
write leaves the old file, never half a new one); a destination that is one of the command's inputs is refused
before anything is written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from figeval.errors import FigevalError


def refuse_input(out: Path, inputs: Sequence[Path], option: str = "--out") -> None:
    """Raises FigevalError when `out` is (resolves to) one of `inputs`."""
    for given in inputs:
        if out.resolve() == given.resolve():
            raise FigevalError(f"{option} {out} is one of the command's inputs; write to another file.")


@contextmanager
def atomic_open(path: Path, encoding: str = "utf-8", newline: str | None = None) -> Iterator[IO[str]]:
    """A text file handle whose content replaces `path` only when the block ends without an error.

    Raises:
        FigevalError: the destination's folder does not exist or cannot be written.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FigevalError(f"cannot write {path}: the folder {folder} does not exist; create it or choose another.")
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise FigevalError(f"cannot write {path}: {error.strerror}.") from None
    try:
        with os.fdopen(descriptor, "w", encoding=encoding, newline=newline) as handle:
            yield handle
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """`path` gets `text`, whole or not at all."""
    with atomic_open(path, encoding) as handle:
        handle.write(text)
