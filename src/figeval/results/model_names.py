"""Models as reports name them: the run's own name (`figeval run --name`), else a short name (a replay or gguf
file's stem), one name per model however its file's path was spelled, with as many parent folders as tell two
different files apart. Works on model names as logs record them; `figeval.results.runs.with_display_names`
applies the names to runs."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from pathlib import Path, PurePath

from inspect_ai.log import EvalLog

from figeval.providers import model_file

# The log's metadata key for a run's own name (`figeval run --name NAME`; `eval(metadata={"display_name": ...})`).
DISPLAY_NAME_KEY = "display_name"
# A model whose name ends with a weights file's name is those weights, whichever route ran them: embedded
# (`gguf/models/x.gguf`) or behind a server that names its model by its file (`openai-api/llama/models/x.gguf`).
WEIGHTS_SUFFIX = ".gguf"


def given_name(log: EvalLog) -> str:
    """The name the user gave the run, or ""."""
    return str((log.eval.metadata or {}).get(DISPLAY_NAME_KEY) or "").strip()


def _model_file(model: str) -> tuple[str, str] | None:
    """(provider prefix, path) of a model named by a file (`replay/runs/a.jsonl`: its provider `names_a_file`);
    None for any other model and for an embedded gguf alias (`gguf/gemma-3-270m`, a name, not a path)."""
    from figeval.models.gguf import ALIASES

    name = model_file(model)
    if name is None or name in ALIASES:
        return None
    return model.partition("/")[0] + "/", name


def served_weights(model: str) -> str | None:
    """The weights file's name (`x.gguf`) of a model behind a server that names its model by its file
    (`openai-api/llama/models/x.gguf`, `vllm/x.gguf`); None for a model named by a file of this machine
    (`_model_file`) and for any other model."""
    if _model_file(model) is not None or not model.endswith(WEIGHTS_SUFFIX):
        return None
    return PurePath(model).name


def route(model: str) -> str | None:
    """How a model named by its weights file was run: its provider (`gguf` embedded, `openai-api` or `vllm` behind
    a server); None for a model not named by weights. One model's weights run two ways answer differently (each
    route's sampling defaults differ), so the route is a setting of the run."""
    found = _model_file(model)
    by_weights = found[1].endswith(WEIGHTS_SUFFIX) if found else served_weights(model) is not None
    return model.partition("/")[0] if by_weights else None


def short_name(model: str) -> str:
    """A model's readable default name: a replay or gguf file's stem ("a" for `replay/runs/a.jsonl`), a served
    weights file's stem, else the model as recorded (`openai/gpt-4.1`, `gguf/gemma-3-270m`)."""
    found = _model_file(model)
    if found:
        return PurePath(found[1]).stem or model
    served = served_weights(model)
    return PurePath(served).stem if served else model


def canonical_model(model: str, here: Path) -> str:
    """`model` with its file's path in one spelling: normalized (`./runs/a.jsonl` -> `runs/a.jsonl`) and, when
    the file is found (a relative path from `here`, the folder the report runs in, as runs are usually started
    from it), absolute with links resolved. A log does not record the folder a run started in, so a relative path
    not found from `here` stays relative (see `_merge_relative`)."""
    found = _model_file(model)
    if found is None:
        return model
    prefix, name = found
    path = Path(os.path.normpath(os.path.expanduser(name)))
    located = path if path.is_absolute() else here / path
    if located.exists():
        path = located.resolve()
    return prefix + path.as_posix()


def _merge_relative(models: set[str]) -> dict[str, str]:
    """{model: the model it is}: a relative path that was not found (`replay/runs/a.jsonl`) is the one absolute
    path among `models` that ends with it (`replay//home/u/p/runs/a.jsonl`), when there is exactly one; the rest
    are themselves."""
    merged = {model: model for model in models}
    absolute = [m for m in models if (f := _model_file(m)) and PurePath(f[1]).is_absolute()]
    for model in models:
        found = _model_file(model)
        if found is None or PurePath(found[1]).is_absolute():
            continue
        prefix, tail = found[0], PurePath(found[1]).parts
        ends = [m for m in absolute
                if m.startswith(prefix) and PurePath(m.removeprefix(prefix)).parts[-len(tail):] == tail]
        if len(ends) == 1:
            merged[model] = ends[0]
    return merged


def _merge_served(models: set[str]) -> dict[str, str]:
    """{model: the model it is}: weights behind a server (`served_weights`) are the one embedded model among `models`
    whose file has that name, when there is exactly one; the rest are themselves."""
    merged = {model: model for model in models}
    for model in models:
        if (served := served_weights(model)) is None:
            continue
        same = [m for m in models if (f := _model_file(m)) and m.startswith("gguf/") and PurePath(f[1]).name == served]
        if len(same) == 1:
            merged[model] = same[0]
    return merged


def _name_candidates(model: str) -> list[str]:
    """Names for a canonical model, shortest first: the file's stem, then with one more parent folder each time
    ("a", "runs/a", "p/runs/a"), then the model as written; the model itself for any other model."""
    found = _model_file(model)
    if found is None:
        served = served_weights(model)
        return [PurePath(served).stem, model] if served else [model]
    path = PurePath(found[1])
    folders = [part for part in path.parent.parts if part not in (path.anchor, ".")]
    return [*("/".join([*folders[len(folders) - k:], path.stem]) for k in range(len(folders) + 1)), model]


def _unique_names(candidates: dict[str, list[str]], taken: set[str]) -> dict[str, str]:
    """One name per key: each key's first candidate that no other key's name and no name in `taken` (the
    users' own) is; a key whose candidates all clash keeps its last (the model as written)."""
    depth = {key: 0 for key in candidates}
    while True:
        names = {key: candidates[key][depth[key]] for key in candidates}
        holders: dict[str, list[str]] = {}
        for key, name in names.items():
            holders.setdefault(name, []).append(key)
        clashing = [key for key, name in names.items() if (len(holders[name]) > 1 or name in taken)
                    and depth[key] < len(candidates[key]) - 1]
        if not clashing:
            return names
        for key in clashing:
            depth[key] += 1


def model_names(recorded: Iterable[str], unnamed: Collection[str], taken: set[str], here: Path) -> dict[str, str]:
    """{model as recorded: its name in reports} for each of `unnamed`: one name per model however its path was
    spelled (`replay/./runs/a.jsonl`, `replay/runs/a.jsonl` and the file's absolute path are one model:
    `canonical_model`, `_merge_relative`) and whichever route ran its weights (`_merge_served`): the file's stem
    with as many parent folders as tell two different files apart ("runs/a", "old/a") and clash with none of
    `taken`, or the model as recorded for any other model.

    Args:
        recorded: every model found, as recorded: a relative path not found may be one of their absolute paths.
        unnamed: the models to name (among `recorded`).
        taken: names users gave their runs, which no default name may be.
        here: the folder relative model paths are looked up from.
    """
    spelled = {model: canonical_model(model, here) for model in recorded}
    merged = _merge_relative(set(spelled.values()))
    served = _merge_served(set(merged.values()))
    canonical = {model: served[merged[found]] for model, found in spelled.items()}
    wanted = {canonical[model] for model in unnamed}
    names = _unique_names({model: _name_candidates(model) for model in sorted(wanted)}, taken)
    return {model: names[canonical[model]] for model in unnamed}
