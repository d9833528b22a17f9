"""Subsets of a task's samples that keep the task's design: `figeval run --limit N`.

Inspect's `--limit N` runs a dataset's first N samples. Where a task asks each item several ways (a question under
two framings, an item with its correct and its altered version) or reports by group (categories, controls,
frequency bands), and its dataset is ordered by those, the first N are one framing of one group: no average, no
agreement between framings, no comparison of groups. A task declares its `Design` (through
`figeval.task.benchmark_task`, into its metadata; each benchmark's tasks.py says why, from its paper); this module
turns N into the ids of N samples that keep it: whole items (every way each is asked), every stratum present, the
rest in proportion, the first items of each stratum in file order. The same N always gives the same ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any, cast

from inspect_ai.dataset import Sample

from figeval.errors import FigevalError

DESIGN_KEY = "subset_design"
"""The task metadata key a design is recorded under."""
SUBSET_KEY = "subset"
"""The eval metadata key a run on a subset records its rule under (read by reporting)."""
SampleId = str | int


@dataclass(frozen=True)
class Design:
    """How a task's samples hang together; each field names a sample metadata key.

    Attributes:
        unit: the item a sample asks about: an item's samples are kept or left out together. None: each sample
            is its own item.
        asked_as: the way the item is asked (framing, variant, version), named in the rule a subset prints.
        strata: groups the task reports by: each is present in a subset and the rest in proportion. A list value
            (several themes) is a sample's stratum by its first element, and every element of it is present in a
            subset too (a theme that is only ever a text's second is reported, so it is kept).
    """

    unit: str | None = None
    asked_as: str | None = None
    strata: tuple[str, ...] = ()

    def as_metadata(self) -> dict[str, Any] | None:
        """The design as JSON for the task's metadata; None for a task without one (plain first N)."""
        if self == PLAIN:
            return None
        return {"unit": self.unit, "asked_as": self.asked_as, "strata": list(self.strata)}

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any] | None) -> Design:
        recorded = (metadata or {}).get(DESIGN_KEY)
        if not recorded:
            return PLAIN
        return cls(recorded.get("unit"), recorded.get("asked_as"), tuple(recorded.get("strata") or ()))


PLAIN = Design()
"""No item asked several ways and no strata: the first N samples are a fair subset."""


@dataclass(frozen=True)
class Unit:
    key: str
    ids: tuple[SampleId, ...]
    ways: tuple[str, ...]
    stratum: tuple[str, ...]
    groups: frozenset[tuple[int, str]] = frozenset()
    """Every group the item is reported in, by the index of its strata key: all elements of a list value."""


@dataclass(frozen=True)
class Subset:
    rule: str
    """What the subset is, for people and the log ("limit 40: 40 of 800 samples, 20 items x 2 framings, ...")."""
    ids: tuple[SampleId, ...] | None
    """The samples to run, in dataset order; None: Inspect's own first N (a task without a design)."""


def _value(metadata: Mapping[str, Any], key: str) -> str:
    value = metadata.get(key)
    if isinstance(value, list | tuple):
        value = value[0] if value else None
    return "" if value is None else str(value)


def _groups(metadata: Mapping[str, Any], keys: Sequence[str]) -> set[tuple[int, str]]:
    """Every group a sample is reported in: each strata key's value, each element of a list value."""
    found = set()
    for index, key in enumerate(keys):
        value = metadata.get(key)
        for element in (value if isinstance(value, list | tuple) else [value]):
            if element is not None and str(element):
                found.add((index, str(element)))
    return found


def units_of(samples: Sequence[Sample], design: Design) -> list[Unit]:
    """The task's items in order of first appearance, each with its samples' ids, the ways it is asked and its
    stratum.

    Raises:
        FigevalError: a sample without an id, or an item whose samples disagree on a stratum (a task's design
            declaration that does not fit its samples: a bug to report, not a user's mistake).
    """
    grouped: dict[str, list[Sample]] = {}
    for sample in samples:
        if sample.id is None:
            raise FigevalError("a subset needs sample ids; this task's samples have none: report it as a bug.")
        metadata = sample.metadata or {}
        key = _value(metadata, design.unit) if design.unit else str(sample.id)
        grouped.setdefault(key or str(sample.id), []).append(sample)
    units = []
    for key, members in grouped.items():
        strata = {tuple(_value(member.metadata or {}, name) for name in design.strata) for member in members}
        if len(strata) > 1:
            raise FigevalError(f"item {key}: its samples are in different strata ({sorted(strata)}); the task's "
                               "subset design does not fit its samples: report it as a bug.")
        ways = tuple(_value(member.metadata or {}, design.asked_as) for member in members) if design.asked_as else ()
        groups = frozenset(group for member in members for group in _groups(member.metadata or {}, design.strata))
        # no id is None: every sample's was checked above, before grouping
        ids = cast(tuple[SampleId, ...], tuple(member.id for member in members))
        units.append(Unit(key, ids, ways, strata.pop(), groups))
    return units


def allocate(sizes: Sequence[int], items: int, least: Sequence[int] | None = None) -> list[int]:
    """Items per stratum: at least `least` of each (default one), the rest in proportion to the strata's sizes by
    largest remainder (ties to the earlier stratum), never more than a stratum holds. Needs sum(least) <= items <=
    sum(sizes)."""
    least = list(least) if least is not None else [1] * len(sizes)
    total = sum(sizes)
    quotas = [Fraction(items * size, total) for size in sizes]
    counts = [min(size, max(low, floor(quota))) for size, quota, low in zip(sizes, quotas, least)]
    while sum(counts) > items:  # the floors took more than the quotas give
        index = max((i for i, count in enumerate(counts) if count > least[i]),
                    key=lambda i: (counts[i] - quotas[i], -i))
        counts[index] -= 1
    while sum(counts) < items:
        index = max((i for i, count in enumerate(counts) if count < sizes[i]),
                    key=lambda i: (quotas[i] - counts[i], -i))
        counts[index] += 1
    return counts


def _plural(word: str) -> str:
    return word if word.endswith("s") else f"{word}s"


@dataclass(frozen=True)
class _Shape:
    """A task's design as its samples realize it."""

    units: list[Unit]
    """The items a subset is drawn from: those asked every way (an item missing one of its ways is left out)."""
    size: int
    """Samples per item."""
    ways: tuple[str, ...]
    strata: list[tuple[str, ...]]
    """In order of first appearance."""
    varying: tuple[int, ...]
    """Indices of the design's strata keys that take more than one value (the others say nothing)."""
    left_out: int
    required: tuple[Unit, ...] = ()
    """The items every subset keeps: the first of each stratum, then, for a group no such item is in (a theme only
    ever second in a list), the first item in it; in file order."""

    @property
    def plain(self) -> bool:
        return self.size == 1 and not self.varying


def _shape(samples: Sequence[Sample], design: Design) -> _Shape:
    units = units_of(samples, design)
    size = max((len(unit.ids) for unit in units), default=1)
    full = [unit for unit in units if len(unit.ids) == size]
    varying = tuple(i for i in range(len(design.strata)) if len({unit.stratum[i] for unit in full}) > 1)
    strata = list(dict.fromkeys(tuple(unit.stratum[i] for i in varying) for unit in full))
    ways = tuple(dict.fromkeys(way for unit in full for way in unit.ways))
    firsts = {tuple(unit.stratum[i] for i in varying): unit for unit in reversed(full)}
    required = {unit.key for unit in firsts.values()}
    covered = {group for unit in firsts.values() for group in unit.groups}
    for unit in full:
        if unit.groups - covered:
            required.add(unit.key)
            covered |= unit.groups
    return _Shape(full, size, ways, strata, varying, len(units) - len(full),
                  tuple(unit for unit in full if unit.key in required))


def _what(task_name: str, design: Design, shape: _Shape) -> str:
    """How the task's samples hang together: "TASK asks each item 2 ways (framings) and reports by category (4
    strata)"."""
    unit = design.unit or "sample"
    parts = []
    if shape.size > 1:
        parts.append(f"asks each {unit} {shape.size} ways ({_plural(design.asked_as or 'way')})")
    if shape.varying:
        keys = " and ".join(design.strata[i] for i in shape.varying)
        parts.append(f"reports by {keys} ({len(shape.strata)} strata)")
    return f"{task_name} " + " and ".join(parts)


def _working(shape: _Shape) -> str:
    """The N that keep the design: "an even N from 10 to 800"."""
    low, high = max(len(shape.required), 1) * shape.size, len(shape.units) * shape.size
    multiple = {1: "N", 2: "an even N"}.get(shape.size, f"a multiple of {shape.size}")
    return f"{multiple} from {low} to {high}"


def _stratum_text(stratum: tuple[str, ...]) -> str:
    return " ".join(part for part in stratum if part) or "(none)"


def limit_subset(task_name: str, samples: Sequence[Sample], design: Design, limit: str) -> Subset | None:
    """The subset `--limit` selects, keeping the task's design; None when it covers every sample.

    Args:
        task_name: for messages.
        samples: the task's dataset, in order.
        design: the task's declared design.
        limit: `--limit` as given: N, or START-END (checked for form by the caller).

    Raises:
        FigevalError: N or a range that cannot keep the design, naming the N that can and `--sample-id`.
    """
    total = len(samples)
    shape = _shape(samples, design)
    text = limit.strip()
    start, _, end = text.partition("-")
    ranged = bool(end) and not text.startswith("-")
    if ranged:
        if shape.plain:
            first, last = int(start), min(int(end), total)
            return Subset(f"limit {text}: samples {first} to {last} of {total}, in file order (the task asks each "
                          "sample once and reports no groups)", None)
        raise FigevalError(f"--limit {text}: {_what(task_name, design, shape)}; a range of samples would split "
                           f"them: give --limit N ({_working(shape)}) or --sample-id for samples of your choice.")
    count = int(text)
    if count >= total:
        return None
    if shape.plain:
        return Subset(f"limit {count}: the first {count} of {total} samples (the task asks each sample once and "
                      "reports no groups)", None)
    items, rest = divmod(count, shape.size)
    if rest or not len(shape.required) <= items <= len(shape.units):
        raise FigevalError(f"--limit {count}: {_what(task_name, design, shape)}; give {_working(shape)}, or "
                           "--sample-id for samples of your choice.")
    by_stratum = {stratum: [unit for unit in shape.units if _stratum_of(unit, shape) == stratum]
                  for stratum in shape.strata}
    required = {unit.key for unit in shape.required}
    least = [sum(unit.key in required for unit in members) for members in by_stratum.values()]
    counts = allocate([len(members) for members in by_stratum.values()], items, least)
    # each stratum's required items, then its first others in file order
    chosen = {unit.key for members, n in zip(by_stratum.values(), counts)
              for unit in sorted(members, key=lambda unit: unit.key not in required)[:n]}
    wanted = {id for unit in shape.units if unit.key in chosen for id in unit.ids}
    ids = tuple(sample.id for sample in samples if sample.id in wanted)
    rule = _rule(count, total, items, design, shape, dict(zip(by_stratum, counts)))
    return Subset(rule, ids)


def _stratum_of(unit: Unit, shape: _Shape) -> tuple[str, ...]:
    return tuple(unit.stratum[i] for i in shape.varying)


def _rule(count: int, total: int, items: int, design: Design, shape: _Shape, counts: dict[tuple[str, ...], int]) -> str:
    """What the subset is: "limit 40: 40 of 800 samples, 20 items x 2 framings (A, B), in proportion by kind and
    category (fake X 3, ..., real 10)"."""
    unit = _plural(design.unit or "sample")
    rule = f"limit {count}: {count} of {total} samples"
    if shape.size > 1:
        rule += f", {items} {unit} x {shape.size} {_plural(design.asked_as or 'way')} ({', '.join(shape.ways)})"
    if shape.varying:
        keys = " and ".join(design.strata[i] for i in shape.varying)
        each = ", ".join(f"{_stratum_text(stratum)} {n}" for stratum, n in counts.items())
        rule += f", in proportion by {keys} ({each})"
    else:
        rule += f", the first {unit} in file order"
    if shape.left_out:
        named = unit if shape.left_out > 1 else design.unit or "sample"
        rule += f"; {shape.left_out} {named} asked fewer ways left out"
    return rule


# Characters Inspect's `--sample-id` reads as a list separator or a pattern (it splits on commas and matches fnmatch).
SAMPLE_ID_SYNTAX = (",", "*", "?", "[")


def sample_id_text(ids: Sequence[SampleId], task_names: Sequence[str]) -> str:
    """`--sample-id`'s text naming exactly these samples, each by its own id.

    Raises:
        FigevalError: an id Inspect would read as something else: a pattern, two ids, or a task's name and a colon
            (`TASK:ID` selects ID of TASK).
    """
    names = {name.lower() for name in task_names}
    for id in ids:
        text = str(id)
        if any(mark in text for mark in SAMPLE_ID_SYNTAX) or text != text.strip() or (
                ":" in text and text.partition(":")[0].lower() in names):
            raise FigevalError(f"sample id {text!r} cannot be named to Inspect's --sample-id (it reads , * ? [ and a "
                               "leading TASK: as syntax); give --sample-id with patterns of your own, or change the "
                               "id in the data file.")
    return ",".join(str(id) for id in ids)
