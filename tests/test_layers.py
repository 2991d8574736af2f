"""The layering of DESIGN.md, checked on the source: no import cycle among interp's modules,
no private name imported across modules, and click only in the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "interp"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every import in the file (top level and inside functions): (module, names)."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            out.append((name, [a.name for a in node.names]))
    return out


MODULES = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}
IMPORTS = {m: _imports(p) for m, p in MODULES.items()}


def test_no_import_cycle():
    graph = nx.DiGraph()
    for module, imports in IMPORTS.items():
        for target, names in imports:
            for name in names or [None]:  # `from pkg import mod` imports the module pkg.mod
                dep = f"{target}.{name}" if f"{target}.{name}" in MODULES else target
                if dep in MODULES and dep != module:
                    graph.add_edge(module, dep)
    assert list(nx.simple_cycles(graph)) == []


def test_no_private_name_imported_across_modules():
    private = [f"{module} imports {target}.{name}"
               for module, imports in IMPORTS.items()
               for target, names in imports if target.startswith("interp")
               for name in names if name.startswith("_") and not name.startswith("__")]
    assert private == []


def test_click_only_in_the_cli():
    users = sorted(m for m, imports in IMPORTS.items()
                   if any(t.split(".")[0] == "click" for t, _ in imports))
    assert users == ["interp.cli"]
