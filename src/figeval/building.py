"""What every `figeval build` command does before its first model call, and what it keeps across resumes.

A build first checks every file it will write against every input it reads (`check_build_outputs`: nothing is
written over an input or through a link) and opens every model it will ask (`open_model`: a model Inspect cannot
open, or a replay file, which cannot answer a build, is one line naming the option), before it reads, asks or
writes anything else. A resumed build keeps the settings that decide its content (`refuse_other_settings`, against
the build's record): resumed with another model or list, one sheet would hold two builds' outputs. A person's
yes/no in a sheet a build wrote is read by one rule (`review_answer`).

Writing answers as they arrive and reading back what a killed build left is `resumable.py`'s.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.model import Model, get_model

from figeval.answering import unknown_provider
from figeval.data.table import AFFIRMATIVE_CELLS, NEGATIVE_CELLS, Row, affirmative, negative
from figeval.errors import DataError, FigevalError
from figeval.output import check_outputs, refuse_folder, refuse_link, refuse_missing_folder, refuse_non_folder
from figeval.providers import model_file, provider_of


# --- Before anything: outputs and models --------------------------------------------------------------------

def sheet_record(sheet: Path) -> Path:
    """The build record of a build that writes one sheet, beside it (a folder build's is DIR/build_record.json)."""
    return sheet.with_name(f"{sheet.name}.build_record.json")


def check_build_outputs(out: Path, inputs: Iterable[Path | None], files: Sequence[str] = ()) -> None:
    """Refuses, before a build reads, asks or writes anything, an `--out` that would replace one of the build's
    inputs, write through a symbolic link, or fail only once the answers are paid for.

    Args:
        out: the sheet the build writes (and its record, `sheet_record`), or (with `files`) the folder it builds
            in (created if missing).
        inputs: every file or folder the build reads (None: an option not given); model files included
            (`model_files`).
        files: the names of every file a folder build writes in `out`.

    Raises:
        FigevalError: one line naming the output and what to do.
    """
    if files:
        refuse_non_folder(out)
        outputs = [out / name for name in files]
    else:
        refuse_link(out)
        refuse_folder(out)
        refuse_missing_folder(out)
        outputs = [out, sheet_record(out)]
    check_outputs(outputs, [path for path in inputs if path is not None])


def model_files(models: Iterable[str | Model]) -> list[Path]:
    """The files that models named `replay/<file.jsonl>` or `gguf/<file.gguf>` read: inputs of the build."""
    return [Path(file) for name in models if isinstance(name, str) and (file := model_file(name)) is not None]


def _plain(message: str) -> str:
    """Inspect's prerequisite message on one line, without its console markup ("[bold]KEY[/bold]")."""
    text = re.sub(r"\[/?[a-z ]+\]", "", message).removeprefix("ERROR: ")
    return ". ".join(line.strip().rstrip(".") for line in text.splitlines() if line.strip()) + "."


def open_model(model: str | Model, option: str, **model_args: Any) -> Model:
    """The model a build asks, opened before the build writes or asks anything.

    Args:
        model: provider/model, or a Model (returned as it is).
        option: the option that named it ("--model", "--generator", "--checker"...), for the message.
        model_args: the model's arguments (-M).

    Raises:
        FigevalError: an unknown provider, or one that cannot start (a missing API key or package).
    """
    if isinstance(model, Model):
        return model
    if provider_of(model).answers_by_sample_id:
        # A replay file's answers are keyed by the id of an evaluation sample; a build asks outside any sample.
        raise FigevalError(f"{option} {model}: a replay file answers evaluation samples by their ids and has no answer "
                           "for a build's prompts; a build needs a model that writes (e.g. gguf/gemma-3-270m, "
                           "openai/gpt-4.1).")
    from figeval._compat import PrerequisiteError

    try:
        return get_model(model, **model_args)
    except PrerequisiteError as error:
        raise FigevalError(f"{option} {model}: {_plain(str(error))}") from None
    except ValueError as error:
        # Inspect: "Model API x of model 'x/y' not recognized." / "... should be in the format of <api_name>/..."
        if "not recognized" not in str(error) and "format of" not in str(error):
            raise
        raise unknown_provider(model, f"{option} {model}") or FigevalError(f"{option} {model}: {error}") from None


# --- What a resumed build must keep -------------------------------------------------------------------------

def read_build_record(path: Path) -> dict[str, Any]:
    """A build's record ({} when there is none yet).

    Raises:
        FigevalError: the file is not a JSON object (edited or damaged), naming it and what to do.
    """
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict):
        raise FigevalError(f"{path} is not a build record (a JSON object); remove it (the build writes it again) or "
                           "build into a new --out.")
    return record


def file_setting(name: str, entries: Sequence[object]) -> dict[str, Any]:
    """A file option as a build records it: its name, and the sha256 of what the build takes from it (`entries`,
    as JSON: the same entries saved again, or given by another name, compare equal), with the first 16 hex digits
    of each entry's (`grown_list` compares those)."""

    def digest(value: object) -> str:
        return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()

    return {"file": name, "sha256": digest(list(entries)), "entries": [digest(entry)[:16] for entry in entries]}


def grown_list(recorded: Any, given: Any) -> bool:
    """Whether a list option (`file_setting`) is the recorded one, or it with entries added at its end (a record
    without the entries: the same content)."""
    if not (isinstance(recorded, dict) and isinstance(recorded.get("entries"), list)):
        return _same_setting(recorded, given)
    return recorded["entries"] == given["entries"][:len(recorded["entries"])]


def text_sha256(text: str) -> str:
    """The first 16 hex digits of the sha256 of a text (a prompt a build records)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _same_setting(recorded: object, given: object) -> bool:
    if isinstance(recorded, dict) and isinstance(given, dict) and "sha256" in recorded:
        return recorded["sha256"] == given.get("sha256")  # a file: the same content under any name
    return recorded == given


def _as_option(option: str, value: object) -> str:
    """A recorded setting as the option that gives it ("--model openai/gpt-4.1", "--allusions a.csv (sha256 ..)");
    a list as the option repeated ("--generator a --generator b")."""
    if value is None or value == []:
        return f"no {option}"
    if isinstance(value, list):
        return " ".join(_as_option(option, one) for one in value)
    if isinstance(value, dict) and "sha256" in value:
        return f"{option} {shlex.quote(str(value.get('file')))} (sha256 {str(value['sha256'])[:12]})"
    return f"{option} {shlex.quote(str(value)) if option.startswith('--') else value}"


def refuse_other_settings(built: Path, recorded: Mapping[str, Any], given: Mapping[str, Any],
                          options: Mapping[str, str],
                          same: Mapping[str, Callable[[Any, Any], bool]] | None = None) -> None:
    """Refuses to resume a build with settings that decide its content other than those it was built with.

    A record written before a setting was recorded lacks it: there is nothing to compare, and the build resumes.

    Args:
        built: the sheet or folder being resumed, for the message.
        recorded: its build record (`read_build_record`).
        given: this run's settings, by record field.
        options: the fields compared, each with the option that gives it ("--model"), or, for what no option
            changes, what it is ("the prompt").
        same: for a field resumed with more than an equal value (a list grown at its end), whether the recorded
            value and the given one go together; others must be equal (a file: the same content).

    Raises:
        FigevalError: naming the option, the recorded value, the given one and the fix.
    """
    for name, option in options.items():
        agree = (same or {}).get(name, _same_setting)
        if name in recorded and not agree(recorded[name], given[name]):
            fix = ("give the same to resume it, or build into a new --out" if option.startswith("--") else
                   "it changed with figeval: build into a new --out, or resume with the figeval that built it")
            raise FigevalError(f"{built} was built with {_as_option(option, recorded[name])}, not "
                               f"{_as_option(option, given[name])}; {fix}.")


# --- A person's answers in a sheet a build wrote ----------------------------------------------------------------

def review_answer(path: Path, row: Row, column: str, empty: str = "not reviewed yet") -> bool | None:
    """A reviewer's yes/no cell: True for yes, False for no, None for empty (`empty` says what that means).

    Raises:
        DataError: any other value (a mark such as "✓" is not read as yes or no), naming the file, row, column,
            value and the values to use.
    """
    cell = row.cells[column].strip()
    if not cell:
        return None
    if affirmative(cell) or negative(cell):
        return affirmative(cell)
    raise DataError(f"{path.name}: row {row.number}, column '{column}' is {cell!r}; use yes or no (also read as "
                    f"yes: {', '.join(sorted(AFFIRMATIVE_CELLS - {'yes'}))}; as no: "
                    f"{', '.join(sorted(NEGATIVE_CELLS - {'no'}))}), or leave it empty ({empty}).")
