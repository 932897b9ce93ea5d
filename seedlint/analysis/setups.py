"""What a test framework runs before a test, and what that seeds when the test starts.

unittest runs a test method's `setUp` (and `setup_method` for pytest-style classes) before each
test: its class's, a base's of the same module, or a base's of another project module. pytest
runs the fixtures a test function names among its parameters before it, and the `autouse` ones:
those of its class, of its module, and of the `conftest.py` files of its folder and the folders
above, each fixture after the fixtures it names itself. A fixture's seeding before its `yield`
runs before the test; what it does after the `yield` is teardown.

Only a test that nothing in the project calls is started this way; what its set-up seeds is
seeded when it starts (a test whose set-up seeds nothing starts where the analysis has not seen).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.branches import literal
from seedlint.analysis.events import Flow, Site
from seedlint.analysis.flow import FlowBuilder, seeded_by
from seedlint.analysis.index import ClassInfo, FunctionInfo, ModuleIndex, all_parameters
from seedlint.analysis.project import ProjectIndex
from seedlint.analysis.walk import iter_children
from seedlint.files import display_path

_SET_UPS = ("setUp", "setup_method")
_MAX_FIXTURES = 12  # how many fixtures one test's set-up is followed through
# A fixture a test can name: its module, its definition, its `@pytest.fixture` options.
_Place = tuple[ModuleIndex, FunctionInfo, dict[str, object]]


def _set_up_method(
    index: ModuleIndex, project: ProjectIndex | None, owner: ClassInfo
) -> FunctionInfo | str | None:
    """The class's set-up: a method of its module, or the qualified name of a base's of another
    project module (`pkg.BaseTest().setUp`)."""
    for name in _SET_UPS:
        method = index.find_method(owner, name)
        if method is not None:
            return method
    if project is None:
        return None
    for base in owner.bases:
        if base in index.classes:
            continue
        for name in _SET_UPS:
            qualified = f"{base}().{name}"
            if project.function(qualified, (b"def " + name.encode(),)) is not None:
                return qualified
    return None


class SetUps:
    """The set-up code around the tests of one module."""

    def __init__(
        self, path: Path, index: ModuleIndex, builder: FlowBuilder, project: ProjectIndex | None
    ) -> None:
        self.path, self.index, self.builder, self.project = path, index, builder, project
        self._conftests: list[ModuleIndex] | None = None

    def site(self, function: FunctionInfo) -> Site | None:
        """Where the test framework starts `function`, a test (a `test*` function or method),
        with what its set-up seeds; None when it is not a test or its set-up seeds nothing
        seen."""
        if not function.node.name.value.startswith("test"):
            return None
        owner = function.owner_class
        if (
            owner is not None
            and not owner.node.name.value.startswith("Test")
            and _set_up_method(self.index, self.project, owner) is None
        ):
            return None  # neither a pytest class nor a unittest case with a set-up
        seeded = set(self.set_up_seeds(owner)) if owner is not None else set()
        for fixture in self.fixtures(function):
            seeded |= fixture
        if not seeded:
            return None
        return Site(display_path(self.path), None, "the test framework", frozenset(seeded), False)

    def set_up_seeds(self, owner: ClassInfo) -> frozenset[str]:
        found = _set_up_method(self.index, self.project, owner)
        if isinstance(found, FunctionInfo):
            return _seeds_before_yield(self.index, found, self.builder.walk(found))
        if isinstance(found, str) and self.project is not None:
            summary = self.project.summary(found)
            return summary.seeds if summary is not None else frozenset()
        return frozenset()

    def fixtures(self, test: FunctionInfo) -> Iterator[frozenset[str]]:
        """What each fixture run before `test` seeds (the autouse ones, then those it names)."""
        places = self._places(test.owner_class)
        pending = [(index, f) for index, f, options in places if options.get("autouse") is True]
        pending += self._named(places, _parameters(test.node))
        seen: set[FunctionInfo] = set()
        while pending and len(seen) < _MAX_FIXTURES:
            index, fixture = pending.pop()
            if fixture in seen:
                continue
            seen.add(fixture)
            builder = (
                self.builder
                if index is self.index or self.project is None
                else self.project.builder(index)
            )
            yield _seeds_before_yield(index, fixture, builder.walk(fixture))
            pending += self._named(places, _parameters(fixture.node))

    def _named(
        self, places: list[_Place], names: list[str]
    ) -> list[tuple[ModuleIndex, FunctionInfo]]:
        """The fixture each name asks for: the nearest definition (class, module, conftest)."""
        found = []
        for name in names:
            match = next(
                (
                    (index, f)
                    for index, f, options in places
                    if options.get("name", f.node.name.value) == name
                ),
                None,
            )
            if match is not None:
                found.append(match)
        return found

    def _places(self, owner: ClassInfo | None) -> list[_Place]:
        """The fixtures a test can name, nearest first: its class's, its module's, conftests',
        each with its options."""
        candidates = [(self.index, m) for m in owner.methods.values()] if owner is not None else []
        for module in (self.index, *self._conftest_modules()):
            candidates += [
                (module, f)
                for f in module.functions.values()
                if f.owner_class is None and f.scope.parent is module.module_scope
            ]
        return [
            (index, f, options)
            for index, f in candidates
            if (options := _fixture_options(index, f)) is not None
        ]

    def _conftest_modules(self) -> list[ModuleIndex]:
        """The `conftest.py` of the test's folder and of each folder above it in the project."""
        if self._conftests is None:
            self._conftests = []
            project = self.project
            if project is not None:
                folder = Path(os.path.abspath(self.path)).parent
                roots = [Path(root) for root in project.finder.roots]
                while any(folder == root or root in folder.parents for root in roots):
                    conftest = folder / "conftest.py"
                    if conftest.is_file() and conftest != Path(os.path.abspath(self.path)):
                        name = project.finder.module_name(conftest)  # an edit re-checks the test
                        project.record({name: project.finder.resolution(name)})
                        module = project.module_at(conftest)
                        if module is not None:
                            self._conftests.append(module)
                    if folder.parent == folder:
                        break
                    folder = folder.parent
        return self._conftests


def _fixture_options(index: ModuleIndex, function: FunctionInfo) -> dict[str, object] | None:
    """The keyword options of a function's `@pytest.fixture` (`name`, `autouse`); None when it is
    not a fixture."""
    for qualified, call in index.decorators(function):
        if qualified in catalog.PYTEST_FIXTURES:
            options: dict[str, object] = {}
            for keyword in ("name", "autouse"):
                value = argument(call, keyword, None) if call is not None else None
                if value is not None:
                    options[keyword] = literal(value)
            return options
    return None


def _parameters(function: cst.FunctionDef) -> list[str]:
    return [p.name.value for p in all_parameters(function) if p.name.value not in {"self", "cls"}]


def _seeds_before_yield(index: ModuleIndex, function: FunctionInfo, flow: Flow) -> frozenset[str]:
    """What a set-up seeds (deterministically) before its first `yield` (a fixture's teardown
    follows it)."""
    body = index.body_of(function)
    end = next(
        (s.position for s in body if any(isinstance(n, cst.Yield) for n in _yields(s.node))),
        len(body),
    )
    before = (e for e in flow.events if e.trail and e.trail[0].statement.position < end)
    return seeded_by(before, deterministic_only=True)


def _yields(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The `yield` expressions of a body statement (not of functions it defines)."""
    if isinstance(node, cst.Yield):
        yield node
    if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        return
    for child in iter_children(node):
        yield from _yields(child)
