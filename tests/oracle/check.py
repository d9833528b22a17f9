"""Every format of a report held against the oracle's tables: JSON and CSV by value, n and interval; text,
Markdown, HTML and LaTeX by the text each cell should print. The formats are parsed here from their output, as a
reader of them would, with nothing of figeval's rendering code."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from tests.oracle.measure import MIN_BOOTSTRAP, Expect, close, printed
from tests.oracle.tables import ERow, OTable, column_format, paper_rows

MISSING = "-"
JSON_TOLERANCE = 6e-5  # JSON keeps four decimals of a proportion


@dataclass
class Problems:
    found: list[str] = field(default_factory=list)

    def add(self, what: str) -> None:
        self.found.append(what)

    def check(self, condition: bool, what: str) -> None:
        if not condition:
            self.add(what)


def cell_text(table: OTable, key: str, expected: Expect, shown_bounds: tuple[float, float] | None) -> str:
    unit, decimals = column_format(table, key)
    text = printed(expected.value, unit, decimals)
    n = expected.n
    if shown_bounds is not None and (table.intervals or (n if n is not None else 100) < 100):
        text += f" [{printed(shown_bounds[0], unit, decimals)}, {printed(shown_bounds[1], unit, decimals)}]"
    if n is not None and (table.cell_n or (expected.samples is not None and n != expected.samples)):
        text += f" (n={n})"
    if expected.label:
        text += f" ({expected.label})"
    return text


def _rows_of(document: dict, key: str) -> tuple[dict | None, list[dict]]:
    table = next((t for t in document["tables"] if t["key"] == key), None)
    return table, [row for row in (table or {}).get("rows", []) if not row["reference"]]


def _identity(row: ERow) -> tuple:
    return row.label, tuple(sorted(row.settings.items()))


def check_json(table: OTable, expected: list[ERow], document: dict, problems: Problems) -> dict[tuple, dict]:
    """The JSON table's rows against the expected ones (one row per model and identity, no more, no fewer), each
    cell's value, n, samples and interval. Returns each expected row's JSON row."""
    found, rows = _rows_of(document, table.key)
    if not expected:
        problems.check(not rows, f"{table.key}: rows {[(r['label'], r['identity']) for r in rows]} where none expected")
        return {}
    if found is None:
        problems.add(f"{table.key}: missing; expected rows {[_identity(row) for row in expected]}")
        return {}
    actual = {(row["label"], tuple(sorted(row["identity"].items()))): row for row in rows}
    wanted = {_identity(row): row for row in expected}
    problems.check(len(actual) == len(rows), f"{table.key}: two rows with one model and identity")
    for key in wanted.keys() - actual.keys():
        problems.add(f"{table.key}: no row {key}; rows: {sorted(actual)}")
    for key in actual.keys() - wanted.keys():
        problems.add(f"{table.key}: unexpected row {key}; expected: {sorted(wanted)}")
    matched = {}
    for key in wanted.keys() & actual.keys():
        row, json_row = wanted[key], actual[key]
        matched[key] = json_row
        cells = json_row["cells"]
        problems.check(set(cells) == set(row.cells), f"{table.key} {key}: cells {sorted(cells)} != {sorted(row.cells)}")
        for column, expected_cell in row.cells.items():
            cell = cells.get(column)
            if cell is None:
                continue
            where = f"{table.key} {key} {column}"
            problems.check(close(cell["value"], float(expected_cell.value), JSON_TOLERANCE),
                           f"{where}: value {cell['value']} != {float(expected_cell.value)}")
            problems.check(cell["n"] == expected_cell.n, f"{where}: n {cell['n']} != {expected_cell.n}")
            if expected_cell.samples is not None:
                problems.check(cell["samples"] == expected_cell.samples,
                               f"{where}: samples {cell['samples']} != {expected_cell.samples}")
            _check_interval(where, expected_cell, cell, problems)
    return matched


def _check_interval(where: str, expected: Expect, cell: dict, problems: Problems) -> None:
    low, high = cell["ci_low"], cell["ci_high"]
    if expected.interval == "wilson":
        bounds = expected.bounds()
        problems.check(low is not None and close(low, bounds[0], JSON_TOLERANCE)
                       and close(high, bounds[1], JSON_TOLERANCE),
                       f"{where}: interval {low, high} != Wilson {bounds}")
    elif expected.interval == "bootstrap" and (expected.n or 0) >= MIN_BOOTSTRAP:
        problems.check(low is not None and low <= float(expected.value) + JSON_TOLERANCE and
                       high >= float(expected.value) - JSON_TOLERANCE and high - low > 0,
                       f"{where}: bootstrap interval {low, high} around {float(expected.value)}")
    else:
        problems.check(low is None and high is None, f"{where}: an interval {low, high} where none is honest "
                                                     f"(n={expected.n}, {expected.interval})")


Shown = tuple[str, ...]
"""The texts a cell may print: one, or, for a bound that is a bootstrap's draw (known here only as the JSON's four
decimals), each rounding of a value within half a unit of the JSON's last decimal."""


def shown_cells(table: OTable, row: ERow, json_row: dict, ties: bool = False) -> list[Shown]:
    """What each column of a row should print, in the table's column order (`-` for no cell); with `ties`, each
    value may carry the leaderboard's mark of a model not significantly apart from the row above."""
    texts: list[Shown] = []
    for column in table.columns:
        expected = row.cells.get(column.key)
        if expected is None:
            texts.append((MISSING,))
            continue
        cell = json_row["cells"].get(column.key) or {"ci_low": None}
        if expected.interval == "bootstrap" and cell["ci_low"] is not None:
            nudges = (-JSON_TOLERANCE, 0.0, JSON_TOLERANCE)
            texts.append(tuple(dict.fromkeys(
                cell_text(table, column.key, expected, (cell["ci_low"] + a, cell["ci_high"] + b))
                for a in nudges for b in nudges)))
        else:
            texts.append((cell_text(table, column.key, expected, expected.bounds()),))
        if ties:
            texts[-1] = (*texts[-1], *(f"{text} (≈)" for text in texts[-1]))
    return texts


def samples_text(table: OTable, row: ERow) -> str:
    """The row's sample count(s): each run's, in column order, once; a cell that is no run's metric (a share of a
    data file's items) counts its own n."""
    if table.cell_n:
        return ""
    cells = [row.cells[c.key] for c in table.columns if c.key in row.cells]
    counts = [cell.samples if cell.samples is not None else cell.n for cell in cells]
    return "/".join(str(n) for n in dict.fromkeys(n for n in counts if n is not None))


def expected_lines(table: OTable, expected: list[ERow], document: dict,
                   matched: dict[tuple, dict], ties: bool = False) -> list[tuple[int, list[Shown]]]:
    """Each expected row as every text format should print it (label, shown settings, samples, cells), with its
    place among the table's rows."""
    found, _ = _rows_of(document, table.key)
    shown_keys = found["identity_keys"] if found else []
    lines = []
    for row in expected:
        json_row = matched.get(_identity(row))
        if json_row is None:
            continue
        fixed = [row.label, *(row.settings.get(key, "") for key in shown_keys), samples_text(table, row)]
        lines.append((found["rows"].index(json_row),
                      [(text,) for text in fixed] + shown_cells(table, row, json_row, ties)))
    return sorted(lines)


def _fits(actual: list[str], line: list[Shown], normal: bool = False) -> bool:
    norm = _normal if normal else (lambda text: text)
    return len(actual) == len(line) and all(norm(a) in {norm(t) for t in texts} for a, texts in zip(actual, line))


def check_settings_shown(table: OTable, expected: list[ERow], document: dict, problems: Problems) -> None:
    """Two rows of a table are told apart by what it shows: every setting whose value differs between rows is a
    column, and every other setting is said once as shared."""
    found, _ = _rows_of(document, table.key)
    if not found or not expected:
        return
    names = {name for row in expected for name in row.settings}
    for name in names:
        values = {row.settings.get(name) for row in expected}
        if len(values) > 1:
            problems.check(name in found["identity_keys"], f"{table.key}: setting {name} differs between rows "
                                                           f"({values}) but is not shown")
        elif name not in found["identity_keys"]:
            problems.check(found.get("shared_settings", {}).get(name) == values.pop(),
                           f"{table.key}: setting {name} shared by every row is neither shown nor said")


def _normal(text: str) -> str:
    return "".join(text.split())


def check_text(table: OTable, lines: list[tuple[int, list[Shown]]], text: str, title: str, problems: Problems) -> None:
    section = _section(text, title)
    if section is None:
        problems.check(not lines, f"text: no table {title}")
        return
    body = [_normal(line) for line in section.splitlines()[2:] if not line.startswith("note: ")]
    for index, line in lines:
        pattern = "".join("(?:" + "|".join(re.escape(_normal(t)) for t in texts) + ")" for texts in line)
        problems.check(index < len(body) and re.fullmatch(pattern, body[index]) is not None,
                       f"text {table.key}: row {index} is "
                       f"{body[index] if index < len(body) else None}, expected {line}")


def _section(text: str, title: str) -> str | None:
    for part in text.split("\n\n"):
        if part.startswith(title + ":") or part.startswith(title + "\n"):
            return part
    return None


_MARKDOWN_UNESCAPE = re.compile(r"\\([\\`*_\[\]<>|#])")


def check_markdown(table: OTable, lines: list[list[str]], markdown: str, title: str, problems: Problems) -> None:
    parts = [part for part in re.split(r"^### ", markdown, flags=re.MULTILINE)
             if _MARKDOWN_UNESCAPE.sub(r"\1", part).startswith(title)]
    if not parts:
        problems.check(not lines, f"markdown: no table {title}")
        return
    rows = []
    for line in parts[0].splitlines()[4:]:
        if line.startswith("| "):
            cells = [_MARKDOWN_UNESCAPE.sub(r"\1", cell.strip()) for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.append([cell[1:-1] if len(cell) > 1 and cell[0] == cell[-1] == "*" else cell for cell in cells])
    for index, line in lines:
        problems.check(index < len(rows) and _fits(rows[index], line),
                       f"markdown {table.key}: row {index} is {rows[index] if index < len(rows) else None}, "
                       f"expected {line}")


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = attrs.get("id")
            self.tables[self._table] = []
        elif tag == "tr" and attrs.get("class") == "run":
            self._row = []
        elif tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._table].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def check_html(table: OTable, lines: list[list[str]], page: str, problems: Problems) -> None:
    parser = _Tables()
    parser.feed(page)
    rows = parser.tables.get(table.key, [])
    for index, line in lines:
        problems.check(index < len(rows) and _fits(rows[index], line),
                       f"html {table.key}: row {index} is {rows[index] if index < len(rows) else None}, "
                       f"expected {line}")


_LATEX_SPECIAL = {r"\%": "%", r"\_": "_", r"\&": "&", r"\#": "#", r"\$": "$", r"{[}": "[", r"{]}": "]",
                  r"\textasciitilde{}": "~", r"\textasciicircum{}": "^", r"\{": "{", r"\}": "}",
                  r"\textbackslash{}": "\\"}


def _latex_text(cell: str) -> str:
    cell = re.sub(r"^\\textit\{(.*)\}$", r"\1", cell.strip())
    inner = re.sub(r"^\\begin\{tabular\}\[t\]\{@\{\}[lr]@\{\}\}(.*)\\end\{tabular\}$", r"\1", cell)
    inner = re.sub(r"\\textit\{([^}]*)\}", r"\1", inner)
    inner = inner.replace(r" \\ ", " ")
    for escaped, plain in _LATEX_SPECIAL.items():
        inner = inner.replace(escaped, plain)
    return inner


def check_latex(table: OTable, lines: list[tuple[int, list[Shown]]], latex: str, problems: Problems) -> None:
    """LaTeX rows may be split over several tabulars (each repeating the fixed columns: the model, the settings not
    every run shares, the samples): row i of every tabular is the table's row i, whose value cells, part after
    part, must be the expected ones."""
    label = rf"\label{{tab:{table.key.replace('/', '-')}}}"
    if label not in latex:
        problems.check(not lines, f"latex: no table {table.key}")
        return
    block = latex[:latex.index(label)].rsplit(r"\begin{table}", 1)[1]
    parts = [part.split(r"\midrule", 1)[1].split(r"\bottomrule", 1)[0] for part in block.split(r"\begin{tabular}{")[1:]]
    part_rows = [[[_latex_text(cell) for cell in line.strip().removesuffix(r" \\").split(" & ")]
                  for line in part.strip().splitlines() if line.strip()] for part in parts]
    values = len(table.columns)
    for index, line in lines:
        got = [rows[index] for rows in part_rows if index < len(rows)]
        if not got:
            problems.add(f"latex {table.key}: no row {index} for {line}")
            continue
        fixed = (sum(len(row) for row in got) - values) // len(got)
        cells = [cell for row in got for cell in row[fixed:]]
        problems.check(_normal(got[0][0]) == _normal(line[0][0]) and _fits(cells, line[-values:], normal=True),
                       f"latex {table.key}: row {index} is {got}, expected {line}")


def check_csv(table: OTable, expected: list[ERow], text: str, problems: Problems) -> None:
    rows = [line for line in csv.DictReader(io.StringIO(text)) if line["table"] == table.key and not line["paper"]]
    for row in expected:
        settings = ";".join(f"{k}={v}" for k, v in row.settings.items())
        for column, cell in row.cells.items():
            found = [line for line in rows if line["row"] == row.label and line["column"] == column
                     and sorted(line["settings"].split(";")) == sorted(settings.split(";"))]
            where = f"csv {table.key} {row.label} {column}"
            if len(found) != 1:
                problems.add(f"{where}: {len(found)} lines")
                continue
            unit, _ = column_format(table, column)
            scale = 100 if unit == "percent" else 1
            problems.check(close(float(found[0]["value"]), float(cell.value) * scale, 6e-3 if scale == 100 else 6e-5),
                           f"{where}: {found[0]['value']} != {float(cell.value) * scale}")
            problems.check((found[0]["n"] or None) == (str(cell.n) if cell.n is not None else None),
                           f"{where}: n {found[0]['n']} != {cell.n}")


def check_paper_rows(table: OTable, document: dict, text: str, problems: Problems) -> None:
    """The paper's rows exactly as printed: the text a reader sees is the paper's, and JSON's value is it."""
    found, _ = _rows_of(document, table.key)
    if found is None:
        return
    paper = paper_rows(table)
    references = {row["label"]: row for row in found["rows"] if row["reference"]}
    for name, cells in paper.items():
        row = references.get(name)
        if row is None:
            problems.add(f"{table.key}: the paper's row {name} is missing")
            continue
        for column, value in cells.items():
            unit, _ = column_format(table, column)
            stored = float(value) / (100 if unit == "percent" else 1)
            problems.check(close(row["cells"][column]["value"], stored, 1e-9),
                           f"{table.key} paper {name} {column}: {row['cells'][column]['value']} != {value}")
        section = _section(text, f"{found['source']}: {found['title']}")
        line = next((line for line in (section or "").splitlines() if line.startswith(f"{name} (paper)")), "")
        for value in cells.values():
            problems.check(re.search(rf"(^|\s){re.escape(value)}(\s|$)", line) is not None,
                           f"text {table.key} paper {name}: {value} not printed as such in {line!r}")


def check_other_data(table: OTable, expected: list[ERow], document: dict, problems: Problems) -> None:
    """Beside the paper's rows, every row on a file of the user's (another fake set, a data file, pairs or
    paraphrases) says it is not the paper's measurement."""
    found, _ = _rows_of(document, table.key)
    if found is None or not any(row["reference"] for row in found["rows"]):
        return
    files = [row for row in expected if any(run is not None and set(run.files) & set(row.settings)
                                            for run in row.runs.values())
             and "people" not in row.settings.get("labelled by", "")]
    note = next((n for n in found["notes"] if n.startswith("on data other than the paper's")), "")
    for row in files:
        problems.check(f"{row.label} (" in note, f"{table.key}: {row.label}'s row on a file of the user's is not said "
                                                 f"to be on other data ({note!r})")
