"""Writing files safely: never over a command's own input, never through a link, whole or not at all.

Every command that writes checks all its output paths against all its inputs with `check_outputs` before it does
any work. The check resolves symbolic links (a link is its target), and an input folder stands for every file in
it, so `--out` cannot name an input by another spelling, through a link, or inside a folder the command reads.
An output that is itself a symbolic link is refused: writing through it would change a file the user did not
name. A result file is then written to a temporary name beside its destination and renamed over it when complete
(an interrupted write leaves the old file, never half a new one), with the mode the user's umask gives, as any
newly created file gets; files that grow as work arrives (a build's steps and sheets) are opened with
`open_append`, which refuses a link at the last moment too.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from figeval.errors import FigevalError


def check_outputs(outputs: Iterable[Path], inputs: Iterable[Path], option: str = "--out") -> None:
    """Refuses, in one line, an output that is a symbolic link or a folder, or that is (or resolves to) one of
    `inputs`, a folder among `inputs` standing for every file inside it.

    Args:
        outputs: every file the command will write (for a folder it writes into, the files it writes there).
        inputs: every file or folder the command reads; paths that do not exist are ignored.
        option: how the user named the outputs, for the message (e.g. "--out", "--out DIR/final.csv").

    Raises:
        FigevalError: naming the output, the input it would replace and what to do.
    """
    read = _input_files(inputs)
    for out in outputs:
        refuse_link(out, option)
        refuse_folder(out, option)
        target = out.resolve()
        if target in read:
            given = read[target]
            same = "" if given.absolute() == out.absolute() else f" ({given})"
            raise FigevalError(f"{option} {out} is one of the command's inputs{same}; writing it would replace that "
                               "input: write to another file.")


def refuse_link(path: Path, option: str = "--out") -> None:
    """Refuses an output path that is a symbolic link (writing would change the file it points to)."""
    if path.is_symlink():
        raise FigevalError(f"{option} {path} is a symbolic link (to {os.readlink(path)}); figeval does not write "
                           "through links: give the real path, or another one.")


# One wording for an output path of the wrong kind, whichever command meets it.

def refuse_folder(path: Path, option: str = "--out") -> None:
    """Refuses an output file's path that is a folder (a symbolic link is `refuse_link`'s to name)."""
    if path.is_dir() and not path.is_symlink():
        raise FigevalError(f"{option} {path} is a folder, where the command writes a file; remove it or write to "
                           "another place.")


def refuse_non_folder(path: Path, option: str = "--out") -> None:
    """Refuses a path the command writes files into that is something else (a file)."""
    if path.exists() and not path.is_dir():
        raise FigevalError(f"{option} {path} is a file; {option} names a folder to write into (created if missing).")


def refuse_missing_folder(path: Path, option: str = "--out") -> None:
    """Refuses an output file's path whose folder is missing (the command does not guess that a typo is a folder
    to create)."""
    folder = path.absolute().parent
    if not folder.is_dir():
        state = "is not a folder" if folder.exists() else "does not exist"
        raise FigevalError(f"{option} {path}: the folder {folder} {state}; create it or choose another.")


def _input_files(inputs: Iterable[Path]) -> dict[Path, Path]:
    """Every input file by its resolved path (a folder: the files in it, at any depth), mapped to how it was given."""
    files: dict[Path, Path] = {}
    for given in inputs:
        if given.is_dir():
            for found in given.rglob("*"):
                if found.is_file():
                    files.setdefault(found.resolve(), found)
        elif given.exists():
            files.setdefault(given.resolve(), given)
    return files


def umask_mode() -> int:
    """The mode a new file gets from the user's umask (mkstemp's temporary files are private, 0600)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_open(path: Path, encoding: str = "utf-8", newline: str | None = None) -> Iterator[IO[str]]:
    """A text file handle whose content replaces `path` only when the block ends without an error.

    Raises:
        FigevalError: the destination is a symbolic link or a folder, or its folder does not exist or cannot be
            written.
    """
    with _replacing(path) as descriptor, os.fdopen(descriptor, "w", encoding=encoding, newline=newline) as handle:
        yield handle


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """`path` gets `text`, whole or not at all."""
    with atomic_open(path, encoding) as handle:
        handle.write(text)


def write_bytes(path: Path, data: bytes) -> None:
    """`path` gets `data`, whole or not at all."""
    with _replacing(path) as descriptor, os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


@contextmanager
def _replacing(path: Path) -> Iterator[int]:
    """A descriptor of a temporary file beside `path`, renamed over `path` when the block ends without an error."""
    refuse_link(path, "the output")
    folder = path.parent if str(path.parent) else Path(".")
    refuse_missing_folder(path, "cannot write")
    if path.is_dir():
        raise FigevalError(f"cannot write {path}: it is a folder; remove it or choose another name.")
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise FigevalError(f"cannot write {path}: {error.strerror}.") from None
    try:
        os.fchmod(descriptor, umask_mode())
        yield descriptor
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def open_append(path: Path, encoding: str = "utf-8", newline: str | None = None) -> IO[str]:
    """`path` opened to add to its end (created if missing), never through a symbolic link.

    Raises:
        FigevalError: `path` is a symbolic link, a folder, or cannot be written.
    """
    refuse_link(path, "the output")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as error:
        raise FigevalError(f"cannot write {path}: {error.strerror}; check the path.") from None
    return os.fdopen(descriptor, "a", encoding=encoding, newline=newline)
