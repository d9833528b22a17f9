"""The structure docs/architecture.md promises: no import cycles; each module imports only from its own layer
or lower ones (imports inside functions included); no source file over MAX_LINES; nothing outside a
benchmark's folder names a benchmark, a task or a table, so that a benchmark is its folder; and Inspect's private
APIs are imported in `_compat.py` alone."""

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_LINES = 350

# docs/architecture.md's layers, lowest first; a module belongs to the layer of its longest matching prefix.
LAYERS = (
    ("text, parsing and primitives", ("figeval.version", "figeval.errors", "figeval._compat", "figeval.text",
                                      "figeval.markup",
                                      "figeval.parsing", "figeval.verdict", "figeval.providers", "figeval.output",
                                      "figeval.spreadsheet", "figeval.progress", "figeval.terminal",
                                      "figeval.stats", "figeval.paired", "figeval.answering",
                                      "figeval.arguments")),
    ("data", ("figeval.data",)),
    ("scoring core and model calls", ("figeval.scoring", "figeval.models")),
    ("people, tasks and builders", ("figeval.annotation", "figeval.subset", "figeval.task", "figeval.building",
                                    "figeval.resumable")),
    ("the benchmark contract", ("figeval.table_model", "figeval.benchmark")),
    ("results", ("figeval.results",)),
    ("benchmarks", ("figeval.benchmarks",)),
    ("the run library", ("figeval.running",)),
    ("surfaces", ("figeval", "figeval.__main__", "figeval._registry", "figeval.cli", "figeval.reporting")),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """figeval modules a file imports anywhere (at the top or inside a function), as the nearest known module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name.startswith("figeval"):
                found.add(name)
    return found


def test_no_import_cycles():
    files = {module_name(p): p for p in (SRC / "figeval").rglob("*.py")}
    modules = set(files)
    # A package's __init__ is not an edge of its own submodules' imports: importing a.b runs a first.
    graph = {name: {m for m in imports_of(path, modules) if m != name and not name.startswith(f"{m}.")}
             for name, path in files.items()}
    cycles = []

    def visit(node: str, stack: list[str], done: set[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in stack:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, stack + [nxt], done)
        done.add(node)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name], done)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles[:5])


def layer_of(module: str) -> int:
    """The index in LAYERS of the module's layer (its longest matching prefix)."""
    found = [(len(prefix), index) for index, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
             if module == prefix or module.startswith(prefix + ".")]
    assert found, f"{module} is in no layer: add it to LAYERS and to docs/architecture.md"
    return max(found)[1]


def test_no_import_runs_up_a_layer():
    files = {module_name(p): p for p in (SRC / "figeval").rglob("*.py")}
    upward = []
    for name, path in sorted(files.items()):
        for imported in imports_of(path, set(files)):
            # a package's own __init__ runs before its modules: not an import up, save the root's (the top floor)
            parent = name.startswith(f"{imported}.") and imported != "figeval"
            if imported != name and not parent and layer_of(imported) > layer_of(name):
                upward.append(f"{name} ({LAYERS[layer_of(name)][0]}) imports {imported} "
                              f"({LAYERS[layer_of(imported)][0]})")
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def test_no_source_file_is_over_the_limit():
    long = {str(p.relative_to(SRC)): n for p in (SRC / "figeval").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines (split along its jobs): {long}"


def benchmark_names() -> set[str]:
    """Every name that says which benchmark, task or table a text is about: folder names, ids, titles, task
    names, table and figure keys, stored dataset names."""
    from figeval._registry import BENCHMARKS

    names = set()
    for benchmark in BENCHMARKS:
        folder = benchmark.tasks[0].__module__.split(".")[2]
        names |= {folder, benchmark.name, benchmark.title, *benchmark.task_names()}
        names |= {spec.key for spec in benchmark.tables} | {spec.table for spec in benchmark.figures}
        names |= {source.name for source in benchmark.datasets()}
    return names


def named_in(text: str, names: set[str]) -> list[str]:
    return sorted(name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE))


def test_only_a_benchmark_s_folder_names_it():
    """A benchmark is its folder and its line in _registry.py: the commands, reports and figures read its
    declaration (figeval/benchmark.py), so none of their code, strings or comments names one."""
    names = benchmark_names()
    # paper titles in ordinary prose ("Turkish idioms") are found by their ids and task names alone
    named = {}
    for path in sorted((SRC / "figeval").rglob("*.py")):
        relative = path.relative_to(SRC / "figeval")
        # the registry's one line per benchmark
        if relative.parts[0] == "benchmarks" or relative.as_posix() == "_registry.py":
            continue
        if found := named_in(path.read_text(encoding="utf-8"), names):
            named[relative.as_posix()] = found
    assert not named, f"files outside benchmarks/<name>/ that name a benchmark, task or table: {named}"


def test_the_name_check_sees_a_name():
    names = benchmark_names()
    # ids and titles differ only in case ("ffe-hallu", "FFE-HALLU"): both are found, whatever the case written
    assert named_in('spec = by_key.get("ffe-hallu/figure-1")', names) == ["FFE-HALLU",
                                                                          "ffe-hallu", "ffe-hallu/figure-1"]
    assert named_in("the PerHalluEval Table 4 rows", names) == ["PerHalluEval", "perhallueval"]
    assert named_in("a judge's answer, differing (tr_idiom_detection_x is another name)", names) == []


def private_inspect_imports(path: Path) -> set[str]:
    """The private Inspect modules a file imports (a module path with a part starting `_`), anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
        found |= {name for name in names
                  if name.split(".")[0] == "inspect_ai" and any(part.startswith("_") for part in name.split("."))}
    return found


def test_inspect_s_private_apis_are_used_in_one_place():
    """Inspect may move a private API in any release: `_compat.py` alone imports them, each with its reason, so
    an upgrade is checked in one file."""
    used = {str(path.relative_to(SRC)): found for path in sorted((SRC / "figeval").rglob("*.py"))
            if path.name != "_compat.py" and (found := private_inspect_imports(path))}
    assert not used, f"private Inspect imports outside figeval/_compat.py: {used}"


def test_the_private_import_check_sees_one(tmp_path: Path):
    (tmp_path / "m.py").write_text("def f():\n    from inspect_ai.log._file import read_eval_log_headers\n"
                                   "import inspect_ai.model\n")
    assert private_inspect_imports(tmp_path / "m.py") == {"inspect_ai.log._file"}
