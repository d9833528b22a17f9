"""A report as LaTeX: one booktabs table per report table that fits a page (settings every run shares said once
under it, long names and headers wrapped, a wide table split into several tabulars), its marks explained under it
and its notes as comments."""

from __future__ import annotations

from figeval.reporting.cells import cell_text, fixed_columns, grid, title_line, unit_of, wrapped_lines
from figeval.results.report import Report
from figeval.table_model import Table

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                 "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "↑": r"$\uparrow$",
                 "↓": r"$\downarrow$",
                 # after a line break (\\) a bracket would be read as its optional length: "[18.0, 25.0]" a cell's
                 # second line
                 "[": "{[}", "]": "{]}"}


def latex_escape(text: str) -> str:
    """`text` as literal TeX on one line (a line break would end a table row or a % comment)."""
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in " ".join(text.splitlines()))


# LaTeX tables fit a page: a setting every run of the table shares is said once under it rather than repeated
# in a column; long names, settings and headers wrap onto lines of these many characters; a cell's interval and
# n go under its value; a table wider than LATEX_LINE characters (about a page's text width in \small) is split
# into several tabulars of at least LATEX_MIN_PART value columns, the model columns repeated, as long as they fit a
# page's height; a tabular still wider than the line is scaled down to it (\resizebox, only then).
LATEX_NAME_CHARACTERS, LATEX_HEADER_CHARACTERS, LATEX_VALUE_CHARACTERS = 22, 14, 12
LATEX_LINE = 100
LATEX_PAGE_LINES = 48  # a page's text height in \small lines, less the caption and the note
LATEX_MIN_PART = 3
LATEX_COLUMN_GAP = 3  # \tabcolsep on both sides, in characters


def _latex_cell(lines: list[str], align: str, italic: bool = False) -> str:
    """Escaped lines as one cell: a short stack (a tabular without side padding) when there are several."""
    escaped = [latex_escape(line) for line in lines]
    if italic:
        escaped = [rf"\textit{{{line}}}" if line else line for line in escaped]
    if len(escaped) == 1:
        return escaped[0]
    return rf"\begin{{tabular}}[t]{{@{{}}{align}@{{}}}}" + r" \\ ".join(escaped) + r"\end{tabular}"


def shared_columns(table: Table) -> dict[str, str]:
    """The settings shown as columns with one value in every run's row (the papers' rows have none): said once
    under the table, not per row."""
    runs = [row for row in table.rows if not row.reference]
    return {key: values.pop() for key in table.identity_keys
            if runs and all(key in row.identity for row in runs)
            and len(values := {row.identity[key] for row in runs}) == 1}


def _latex_grid(table: Table) -> tuple[list[list[str]], list[tuple[str, int]]]:
    """The grid without the shared settings' columns, and each kept column's kind ("name" for the model,
    settings and samples, "value") and width in characters once wrapped, padding included."""
    rows = grid(table)
    dropped = {1 + table.identity_keys.index(key) for key in shared_columns(table)}
    rows = [[cell for i, cell in enumerate(row) if i not in dropped] for row in rows]
    fixed = fixed_columns(table) - len(dropped)
    kinds = []
    for i in range(len(rows[0])):
        kind, characters = ("name", LATEX_NAME_CHARACTERS) if i < fixed else ("value", LATEX_VALUE_CHARACTERS)
        widest = max([max(map(len, wrapped_lines(rows[0][i], LATEX_HEADER_CHARACTERS, "header"))),
                      *(max(map(len, wrapped_lines(row[i], characters, kind))) for row in rows[1:])])
        kinds.append((kind, widest + LATEX_COLUMN_GAP))
    return rows, kinds
def latex_parts(table: Table) -> list[list[int]]:
    """The value columns (indexes into `table.columns`) of each tabular: the fewest tabulars of at least
    LATEX_MIN_PART columns (or all of them) that each fit LATEX_LINE beside the model columns, as even as can be;
    fewer when that many would be taller than a page (LATEX_PAGE_LINES), the width then scaled to the line."""
    rows, kinds = _latex_grid(table)
    fixed = sum(1 for kind, _ in kinds if kind == "name")
    widths = [width for _, width in kinds[fixed:]]
    columns = list(range(len(widths)))

    def lines(part: list[int]) -> int:
        """Printed lines of a tabular of these value columns: its header, each row's tallest cell, the rules."""
        def tallest(row: list[str], characters: int, kind: str) -> int:
            return max(len(wrapped_lines(row[i], characters if i < fixed else LATEX_VALUE_CHARACTERS,
                                  kind if i < fixed else "value")) for i in [*range(fixed), *(fixed + c for c in part)])
        return 3 + tallest(rows[0], LATEX_HEADER_CHARACTERS, "header") + sum(
            tallest(row, LATEX_NAME_CHARACTERS, "name") for row in rows[1:])

    def scale(part: list[int]) -> float:
        """How much \\resizebox shrinks the tabular to fit the line (1: not at all)."""
        return min(1.0, LATEX_LINE / (sum(width for _, width in kinds[:fixed]) + sum(widths[c] for c in part)))

    def height(parts: list[list[int]]) -> float:
        return sum(lines(part) * scale(part) for part in parts)

    # the split whose smallest print is largest, among those that fit a page's height; the fewest tabulars of those
    splits = [_even_parts(columns, count) for count in range(1, max(1, len(columns) // LATEX_MIN_PART) + 1)]
    fitting = [parts for parts in splits if height(parts) <= LATEX_PAGE_LINES] or splits[:1]
    return max(fitting, key=lambda parts: (min(map(scale, parts)), -len(parts)))


def _even_parts(items: list, count: int) -> list[list]:
    """`items` in `count` consecutive parts whose lengths differ by at most one."""
    size, extra = divmod(len(items), count)
    bounds = [i * size + min(i, extra) for i in range(count + 1)]
    return [items[bounds[i]:bounds[i + 1]] for i in range(count)]


def _latex_tabular(table: Table, columns: list[int]) -> list[str]:
    rows, kinds = _latex_grid(table)
    fixed = sum(1 for kind, _ in kinds if kind == "name")
    shown = [*range(fixed), *(fixed + c for c in columns)]
    align = "l" * fixed + "r" * len(columns)
    head = [_latex_cell(wrapped_lines(rows[0][i], LATEX_HEADER_CHARACTERS, "header"), "l" if i < fixed else "r")
            for i in shown]
    lines = [r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
             rf"\begin{{tabular}}{{{align}}}", r"\toprule", " & ".join(head) + r" \\", r"\midrule"]
    for row, values in zip(table.rows, rows[1:]):
        cells = [_latex_cell(wrapped_lines(values[i], LATEX_NAME_CHARACTERS, "name") if i < fixed else
                             wrapped_lines(values[i], LATEX_VALUE_CHARACTERS, "value"), "l" if i < fixed else "r",
                             italic=bool(row.reference)) for i in shown]
        lines.append(" & ".join(cells) + r" \\")
    return lines + [r"\bottomrule", r"\end{tabular}}"]


def marks_note(table: Table) -> str:
    """What the marks in a table mean, those it shows only: the arrows, `*`, intervals, a cell's own n, the
    papers' rows."""
    texts = [cell_text(table, row.cells.get(c.key), unit_of(table, c)) for row in table.rows for c in table.columns]
    said = []
    if any(column.better for column in table.columns):
        said.append("↑/↓: higher/lower is better")
    if any(column.ours for column in table.columns):
        said.append("*: figeval's column, not the paper's")
    if any(" [" in text for text in texts):
        said.append("[a, b]: 95% interval")
    if any("(n=" in text for text in texts):
        said.append("(n=k): the cell's own count where it differs from the row's samples")
    if any(row.reference for row in table.rows):
        said.append("(paper), in italics: the paper's published number")
    return "; ".join(said) + "." if said else ""


def latex_table(table: Table) -> str:
    """A booktabs table that fits the page (see LATEX_LINE), its marks explained under it, its notes as
    comments."""
    lines = [r"\begin{table}[t]", r"\centering", r"\small"]
    for number, columns in enumerate(latex_parts(table)):
        lines += ([r"\par\medskip"] if number else []) + _latex_tabular(table, columns)
    shared = ", ".join(f"{key}={value}" for key, value in (shared_columns(table) | table.shared).items())
    if note := " ".join(filter(None, [f"Every run: {shared}." if shared else "", marks_note(table)])):
        lines.append(rf"\par\smallskip{{\footnotesize {latex_escape(note)}\par}}")
    lines += [rf"\caption{{{latex_escape(title_line(table))}}}", rf"\label{{tab:{table.key.replace('/', '-')}}}",
              r"\end{table}"]
    return "\n".join(lines + [f"% {latex_escape(n)}" for n in table.notes])


def render_latex(report: Report) -> str:
    return ("% figeval report; needs \\usepackage{booktabs,graphicx}\n"
            + "\n\n".join(latex_table(t) for t in report.tables) + "\n")
