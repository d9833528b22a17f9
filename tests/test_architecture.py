"""The layering the architecture document promises: no import cycles between figeval's modules."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


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
