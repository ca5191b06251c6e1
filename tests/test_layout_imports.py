"""The layout's import rules, read from the source: no import cycles between modules, and the
leaves (damagecalc_bridge, setdb) import nothing of randbot or collectors."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("randbot", "setdb", "collectors", "damagecalc_bridge")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _import_graph() -> nx.DiGraph:
    """Every import anywhere in a module (also inside functions and TYPE_CHECKING blocks)."""
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names]
                subs = [s for s in subs if s in modules]
                # `from package import module` imports the module, not the package's other names
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            else:
                continue
            graph.add_edges_from((name, t) for t in targets if t in modules and t != name)
    return graph


def test_no_two_modules_import_each_other():
    graph = _import_graph()
    assert graph.number_of_edges() > 100  # the scan sees the imports
    cycles = [sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1]
    assert cycles == []


def test_the_leaves_import_nothing_of_randbot_or_collectors():
    graph = _import_graph()
    for name in graph:
        if name.startswith(("damagecalc_bridge", "setdb")):
            used = [t for t in graph.successors(name) if t.startswith(("randbot", "collectors"))]
            assert used == [], f"{name} imports {used}"
