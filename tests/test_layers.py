"""The layer rules of docs/architecture.md, checked by walking every import of the package.

The table in docs/architecture.md ("Layers and what each may import") is the rule: each module
belongs to one row, imports only its own layer and the layers its row names, uses only the
libraries its row lists, and no modules import each other in a circle. Imports inside
functions and ``TYPE_CHECKING`` blocks count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import pytest

from companion.words_cli import _parsed

# The package's syntax trees are parsed once a process (companion/words_cli.py keeps them while
# the files are unchanged): these tests and test_i18n_app.py's walks run on one worker, which
# parses the package once for all of them (1 s of processor time a parse)
pytestmark = pytest.mark.xdist_group("package-syntax-trees")

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "companion"


# --- the table --------------------------------------------------------------------------------
def layer_table(text: str) -> tuple[list[tuple[str, list[str]]], dict[str, set[str]], dict[str, set[str]]]:
    """(layer, its paths) in table order; layer -> what it may import (layer names and
    dotted module names); layer -> the libraries it may use."""
    section = text.split("## Layers and what each may import", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]  # after the header and rule
    order: list[tuple[str, list[str]]] = []
    allowed: dict[str, set[str]] = {}
    libraries: dict[str, set[str]] = {}
    for line in rows:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 4, f"docs/architecture.md: a layer row needs 4 cells: {line}"
        name, modules, may, libs = cells
        paths = re.findall(r"`(companion/[^`]*)`", modules)
        assert paths, f"docs/architecture.md: layer {name!r} names no module path"
        below = {n for n, _ in order}
        tokens = [t.strip() for t in may.split(",")]
        allowed[name] = set()
        for token in tokens:
            if token == "nothing":
                continue
            if token == "everything below":
                allowed[name] |= below
            elif token.startswith("`"):
                allowed[name].add(token.strip("`"))
            else:
                assert token in below, f"docs/architecture.md: {name!r} may import {token!r}, which is no row above it"
                allowed[name].add(token)
        libraries[name] = set(re.findall(r"`([\w.]+)`", libs))
        order.append((name, paths))
    return order, allowed, libraries


def layer_of(module_path: str, order: list[tuple[str, list[str]]]) -> str | None:
    """The row whose path names ``module_path`` (a file, or a folder it is in); the longest wins."""
    best, size = None, -1
    for name, paths in order:
        for p in paths:
            if (module_path == p or (p.endswith("/") and module_path.startswith(p))) and len(p) > size:
                best, size = name, len(p)
    return best


# --- the imports --------------------------------------------------------------------------------
def package_modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> tuple[set[str], set[str]]:
    """(modules of the package it imports, top-level names of other libraries it imports)."""
    tree = _parsed(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    ours, libs = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == "companion":
                assert target in modules, f"{path.relative_to(ROOT)} imports {target}, which does not exist"
                if target != name:
                    ours.add(target)
            elif target.split(".")[0] not in sys.stdlib_module_names:
                libs.add(target.split(".")[0])
    return ours, libs


def problems(edges: dict[str, set[str]], libs: dict[str, set[str]], layers: dict[str, str | None],
             allowed: dict[str, set[str]], libraries: dict[str, set[str]]) -> list[str]:
    """Every breach of the rules, in words (empty: none)."""
    out = []
    for module in sorted(edges):
        layer = layers[module]
        if layer is None:
            out.append(f"{module} is in no layer of docs/architecture.md")
            continue
        for target in sorted(edges[module]):
            there = layers[target]
            if there != layer and there not in allowed[layer] and target not in allowed[layer]:
                out.append(f"{module} ({layer}) imports {target} ({there}), which its layer may not")
        for lib in sorted(libs.get(module, ())):
            if lib not in libraries[layer]:
                out.append(f"{module} ({layer}) uses the library {lib!r}, which its layer does not list")
    out += [f"import circle: {' -> '.join(cycle)}" for cycle in circles(edges)]
    return out


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round about (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@functools.lru_cache(maxsize=1)
def the_package():
    """(imports, libraries, layer of each module, what each layer may import, its libraries);
    read once: the tests copy what they change."""
    order, allowed, libraries = layer_table(DOC.read_text(encoding="utf-8"))
    modules = package_modules()
    edges, libs = {}, {}
    for name, path in modules.items():
        edges[name], libs[name] = imports_of(name, path, modules)
    layers = {name: layer_of(str(path.relative_to(ROOT)), order) for name, path in modules.items()}
    return edges, libs, layers, allowed, libraries


# --- the tests -------------------------------------------------------------------------------------
def test_every_import_of_the_package_keeps_the_layer_rules_of_docs_architecture():
    edges, libs, layers, allowed, libraries = the_package()
    assert problems(edges, libs, layers, allowed, libraries) == []


def test_the_table_places_the_modules_the_way_the_docs_say():
    _, _, layers, allowed, _ = the_package()
    assert layers["companion.core.position"] == layers["companion.core.rules"] == "engine core"
    assert layers["companion.board.tracker.reading"] == "board (pure)"
    assert layers["companion.board.protocol"] == "firmware codec"
    assert layers["companion.verify_dice"] == "CLI"
    assert "games" not in allowed["dice"] and "games" not in allowed["board (pure)"]
    assert allowed["app"] >= {"base", "engine core", "dice", "games", "board (pure)", "board (edge)", "AI"}
    # the broadcast's colours come from below the app and the web server both (issue 27)
    assert layers["companion.colours"] == "colours" and "colours" in allowed["broadcast (pure)"]
    assert not {"app", "companion.app.theme"} & allowed["broadcast (pure)"]
    assert layers["companion.session.fights"] == layers["companion.session"] == "app"
    assert layers["companion.tournament.table.timing"] == "tournament"


def test_the_check_finds_an_upward_import_a_library_out_of_place_and_a_circle():
    """The rules can fail: the breaches this issue removed, put back into a copy of the graph."""
    edges, libs, layers, allowed, libraries = the_package()
    edges = {k: set(v) for k, v in edges.items()}
    edges["companion.dice.cli"].add("companion.games.combat_verify")  # the dice reaching up into the games
    edges["companion.core.position"].add("companion.core.rules")  # position <-> rules
    edges["companion.ai.match"].add("companion.cli")  # the AI reaching up to the CLI, and a circle
    libs = dict(libs, **{"companion.board.tracker.views": {"kivy"}})
    found = problems(edges, libs, layers, allowed, libraries)
    assert "companion.dice.cli (dice) imports companion.games.combat_verify (games), which its layer may not" in found
    assert "companion.ai.match (AI) imports companion.cli (CLI), which its layer may not" in found
    assert "import circle: companion.core.position -> companion.core.rules" in found
    assert any(f.startswith("import circle: companion.ai.match") and "companion.cli" in f for f in found)
    assert ("companion.board.tracker.views (board (pure)) uses the library 'kivy', which its layer does not list"
            in found)


def test_a_module_in_no_row_is_named():
    edges, libs, layers, allowed, libraries = the_package()
    edges = dict(edges, **{"companion.stray": set()})
    layers = dict(layers, **{"companion.stray": None})
    assert "companion.stray is in no layer of docs/architecture.md" in problems(edges, libs, layers, allowed, libraries)
