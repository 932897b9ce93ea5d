"""The package's layers, read from its own imports: no import cycle, no import that runs up the layers.

`LAYERS` lists the rows of each layer, lowest first (docs/development.md). A module may import only from a lower
row: a lower layer, or a lower row of its own. Every import counts, at the top of a module, inside a function
(a lazy import, kept to keep start-up light, with its reason in a comment) or under `TYPE_CHECKING`; the rule
registry imports every rule module by file name. A new module must be placed in a row here.
"""

from __future__ import annotations

import ast
import fnmatch
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "seedlint"

LAYERS: list[tuple[str, list[list[str]]]] = [
    (
        "leaves",
        [
            ["seedlint", "source", "files", "pages", "parallel", "lean_tree"],
            ["gates"],
            ["cache"],
        ],
    ),
    (
        "text and data",
        [
            ["diagnostics", "noqa", "parsing"],
            ["notebook"],
            ["results"],
        ],
    ),
    (
        "analysis",
        [
            ["analysis.walk", "analysis.catalog", "analysis.arguments", "analysis.modules"],
            ["analysis.index"],
            [
                "analysis.events",
                "analysis.branches",
                "analysis.samplers",
                "analysis.access_paths",
                "analysis.instances",
                "analysis.libraries",
            ],
            ["analysis.bindings"],
            ["analysis.initialisation"],
            ["analysis.flow"],
            ["analysis.repetition", "analysis.seed_picks"],
            ["analysis.project", "analysis.edits"],
            ["analysis.entries", "analysis.setups"],
            ["analysis.context", "analysis.workers"],
            [
                "analysis.generators",
                "analysis.gradients",
                "analysis.ordering",
                "analysis.environment",
            ],
            ["analysis.programs"],
        ],
    ),
    (
        "rules",
        [
            ["rules.base"],
            ["rules.sl*"],
            ["rules"],  # the registry
        ],
    ),
    (
        "run parts",
        [
            ["config"],
            ["selection", "facts", "linter", "reporters._common"],
            [
                "discovery",
                "reporters.concise",
                "reporters.full",
                "reporters.github",
                "reporters.gitlab",
                "reporters.json_items",
                "reporters.sarif",
            ],
            ["reporters.statistics"],
            ["reporters"],
        ],
    ),
    (
        "run",
        [
            ["runner"],
        ],
    ),
    (
        "front ends",
        [
            [
                "lsp",
                "verify",
                "verify.tracer",
                "verify.runs",
                "verify.imports",
                "lsp.convert",
                "lsp.jupyter",
            ],
            ["verify.harness"],
            ["verify.launch", "verify.probe"],
            ["verify.report", "verify.session", "lsp.server"],
        ],
    ),
    (
        "entry",
        [
            ["cli"],
            ["__main__"],
        ],
    ),
]
# What runs in the verified program's process: it must not load the linter.
STANDALONE = ("verify.tracer", "verify.harness", "verify.launch", "verify.runs")


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(["seedlint", *parts])] = path
    return names


def imports(modules: dict[str, Path]) -> dict[str, dict[str, str]]:
    """module -> {imported module: how ("top", "lazy", "type-checking", "registry")}."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, str]] = {}
    for module, path in modules.items():
        found: dict[str, str] = {}
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]

        def visit(node: ast.AST, how: str) -> None:
            for child in ast.iter_child_nodes(node):
                kind = how
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "lazy"
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    kind = "type-checking"
                if isinstance(child, ast.Import):
                    targets = [alias.name for alias in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join([*parts, base] if base else parts)
                    targets = [
                        f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                        for alias in child.names
                    ]
                else:
                    targets = []
                for target in targets:
                    resolved = known(target) if target.startswith("seedlint") else None
                    if resolved is not None and resolved != module:
                        found.setdefault(resolved, kind)
                visit(child, kind)

        visit(ast.parse(path.read_text(encoding="utf-8")), "top")
        graph[module] = found
    for module in modules:  # the registry imports each rule module by its file name
        if module.startswith("seedlint.rules.sl"):
            graph["seedlint.rules"][module] = "registry"
    return graph


def rows() -> dict[str, tuple[int, str]]:
    """Each module's row (counted from the bottom) and its layer, by the patterns of `LAYERS`."""
    placed = {}
    number = 0
    modules = module_names()
    for layer, layer_rows in LAYERS:
        for row in layer_rows:
            for pattern in row:
                full = "seedlint" if pattern == "seedlint" else f"seedlint.{pattern}"
                for module in modules:
                    if fnmatch.fnmatchcase(module, full) and module not in placed:
                        placed[module] = (number, layer)
            number += 1
    return placed


def violations(graph: dict[str, dict[str, str]], placed: dict[str, tuple[int, str]]) -> list[str]:
    """Imports that do not run down the rows, and the cycles they close."""
    found = [f"{module} is in no row of LAYERS" for module in graph if module not in placed]
    for module, targets in sorted(graph.items()):
        for target, how in sorted(targets.items()):
            if module in placed and target in placed and placed[target][0] >= placed[module][0]:
                found.append(
                    f"{module} ({placed[module][1]}) imports {target} ({placed[target][1]}, {how}): "
                    "not a lower row"
                )
    return found + [f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph)]


def cycles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, {}):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return [_cycle_in(graph, set(group)) for group in groups]


def _cycle_in(graph: dict[str, dict[str, str]], group: set[str]) -> list[str]:
    start = min(group)
    path, seen = [start], {start}
    while True:
        step = next(target for target in sorted(graph[path[-1]]) if target in group)
        if step in seen:
            return path[path.index(step) :] + [step]
        path.append(step)
        seen.add(step)


def test_every_import_runs_down_the_layers():
    assert violations(imports(module_names()), rows()) == []


def test_an_upward_import_and_a_cycle_are_caught():
    graph = imports(module_names())
    graph["seedlint.source"]["seedlint.linter"] = "lazy"  # a leaf reaching up to the linter
    found = violations(graph, rows())
    assert any(
        line.startswith("seedlint.source (leaves) imports seedlint.linter (run parts, lazy)")
        for line in found
    )
    assert any(
        line.startswith("import cycle:") and "seedlint.source" in line and "seedlint.linter" in line
        for line in found
    )


def test_a_rule_importing_the_registry_is_a_cycle():
    graph = imports(module_names())
    graph["seedlint.rules.sl100_unused_noqa"]["seedlint.rules"] = "lazy"
    assert any(
        "seedlint.rules.sl100_unused_noqa" in line and "seedlint.rules ->" in line
        for line in violations(graph, rows())
        if line.startswith("import cycle:")
    )


def test_a_new_module_must_be_placed():
    graph = imports(module_names())
    graph["seedlint.newcomer"] = {}
    assert "seedlint.newcomer is in no row of LAYERS" in violations(graph, rows())


def test_every_row_pattern_names_a_module():
    modules = module_names()
    unmatched = [
        pattern
        for _, layer_rows in LAYERS
        for row in layer_rows
        for pattern in row
        if not any(
            fnmatch.fnmatchcase(
                module, "seedlint" if pattern == "seedlint" else f"seedlint.{pattern}"
            )
            for module in modules
        )
    ]
    assert unmatched == []


def test_what_runs_in_the_verified_program_loads_nothing_of_the_linter():
    graph = imports(module_names())
    for name in STANDALONE:
        outside = [
            target
            for target in graph[f"seedlint.{name}"]
            if not target.startswith("seedlint.verify")
        ]
        assert outside == [], name


def test_each_lazy_import_says_why():
    """A function-level import of seedlint's own code is there to keep start-up light: its comment says so (on its
    line, or above the run of imports it belongs to)."""
    unexplained = []
    for module, path in module_names().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith(
                    "seedlint"
                ):
                    here = lines[inner.lineno - 1 : inner.end_lineno]
                    above = inner.lineno - 2
                    while lines[above].strip().startswith(("from ", "import ")):
                        above -= 1
                    if not any("#" in line for line in here) and not lines[
                        above
                    ].strip().startswith("#"):
                        unexplained.append(f"{module}:{inner.lineno}")
    assert unexplained == []


@pytest.mark.parametrize(
    "module", ["seedlint.cli", "seedlint.runner", "seedlint.facts", "seedlint.results"]
)
def test_start_up_loads_no_libcst(module):
    """The command line, the runner and what the cache holds load no parser: only files to analyse need it."""
    code = f"import sys, {module}; print('libcst' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
