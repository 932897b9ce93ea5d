"""What a rule sees of one file: its text, syntax tree, index, flows and edit helpers.

Everything here is computed at most once per file and shared by every rule.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import is_cuda_string
from seedlint.analysis.edits import Editor
from seedlint.analysis.entries import entry_of, started_in_processes
from seedlint.analysis.events import Entry, Event, Flow
from seedlint.analysis.flow import EffectClassifier, FlowBuilder
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope, dotted_name
from seedlint.analysis.modules import imported_modules, script_folder
from seedlint.analysis.project import ProjectIndex
from seedlint.analysis.setups import SetUps
from seedlint.analysis.walk import iter_descendants
from seedlint.gates import RUN_SEEDED, trainers
from seedlint.parsing import Layout
from seedlint.source import (
    DEFAULT_LIMITS,
    Location,
    ParseLimits,
    SourceDecodeError,
    SourceText,
    decode_source,
)

if TYPE_CHECKING:
    from seedlint.notebook import Program


_CODE = cst.Module(body=[])  # lays out a node's code


@dataclass
class AnalysisSettings:
    """The per-file configuration rules read."""

    seed_functions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    target_torch_version: tuple[int, int] | None = None
    project: ProjectIndex | None = None  # the other modules of this run, for calls into them
    # `name(` of the project's seeding helpers (`gates`)
    project_gates: frozenset[bytes] = frozenset()
    limits: ParseLimits = DEFAULT_LIMITS  # what a file may hold to be parsed


class FileContext:
    """One parsed file and the analysis shared by every rule."""

    def __init__(
        self,
        path: Path,
        source: SourceText,
        layout: Layout,
        module_name: str,
        settings: AnalysisSettings,
        program: Program | None = None,
        index: ModuleIndex | None = None,
    ) -> None:
        self.path = path
        self.source = source
        self.module = layout.module
        self.module_name = module_name
        self.settings = settings
        self.layout = layout  # the character span of each node
        self.program = program  # a notebook's code cells, which this source joins
        self._index = index  # the project index's, when it parsed this very text
        self._entries: dict[FunctionInfo | None, Entry] = {}  # by flow root (`entry`)
        # what analyses of higher layers computed for this file once, by name
        self.memo: dict[str, object] = {}

    @classmethod
    def of_project_file(
        cls, path: Path, settings: AnalysisSettings, faithful: bool = False
    ) -> FileContext | None:
        """The context of a file of the project (`settings.project`) as its index parsed it: lean
        (no positions) unless `faithful`. None when it cannot be read or parsed."""
        project = settings.project
        if project is None or project.module_at(path, faithful) is None:
            return None
        try:
            text = decode_source(project.finder.read_bytes(path))[0]
        except (OSError, SourceDecodeError):
            return None
        parsed = project.parsed(path, text, lean=True)
        if parsed is None:
            return None
        index, layout = parsed
        return cls(path, layout.source, layout, index.module_name, settings, index=index)

    def line_name(self, row: int) -> str:
        """How a message names a line: `line 6`, or in a notebook `line 1 of cell 3`."""
        if self.program is None:
            return f"line {row}"
        cell, location = self.program.cell_location(Location(row, 1))
        return f"line {location.row} of cell {cell}"

    @property
    def index(self) -> ModuleIndex:
        """Scopes, bindings, calls and statements of the module (built on first use)."""
        if self._index is None:
            project = self.settings.project
            self._index = ModuleIndex(
                self.module,
                self.module_name,
                self.path.name == "__init__.py",
                project.localiser(
                    project.finder.import_root(self.path),
                    script_folder(self.path, self.source.text.encode("utf-8", "surrogateescape")),
                )
                if project
                else None,
            )
            if project is not None:
                self._index.star_meaning = project.star_meaning
        return self._index

    @cached_property
    def imports(self) -> list[str]:
        """The module names the module's import statements may load (`imported_modules`), as its
        import root finds them."""
        data = self.source.text.encode("utf-8", "surrogateescape")
        project = self.settings.project
        if project is not None:
            return project.finder.imports_of(self.path, data)
        return imported_modules(data, self.module_name, Path(self.path).name == "__init__.py")

    @cached_property
    def _builder(self) -> FlowBuilder:
        project = self.settings.project
        if (
            project is not None
            and project.owns(self.index)
            and project.seed_functions == self.settings.seed_functions
        ):
            return project.builder(self.index)  # shared with the project's summaries of this module
        return FlowBuilder(
            self.index, EffectClassifier(self.index, self.settings.seed_functions, project)
        )

    @cached_property
    def classifier(self) -> EffectClassifier:
        return self._builder.classifier

    @cached_property
    def flows(self) -> list[Flow]:
        return self._builder.build()

    def walk(self, function: FunctionInfo) -> Flow:
        """The events of running one function of the module (as a process's entry point, say)."""
        return self._builder.walk(function)

    @cached_property
    def seeding_flows(self) -> list[Flow]:
        """The flows that seed, or that start seeded: a function this module runs in a process it
        starts after seeding is seeded code too."""
        flows = [flow for flow in self.flows if flow.is_seeding]
        text = self.source.text
        if flows and ("multiprocessing" in text or "concurrent" in text):
            walked = {flow.root for flow in self.flows}
            for root in started_in_processes(self.index, self._builder):
                if root not in walked:
                    flow = self._builder.walk(root)
                    if self.entry(flow).seeded:
                        flows.append(flow)
        return flows

    def entry(self, flow: Flow) -> Entry:
        """What is seeded when the flow starts, from where the program runs it (`entries`), or,
        for a test nothing in the project runs, from its set-up (`setups`)."""
        if flow.root not in self._entries:
            entry = entry_of(flow, self.index, self._builder, self.settings.project)
            if not entry.sites and flow.root is not None:
                site = self._set_ups.site(flow.root)
                entry = Entry((site,)) if site is not None else entry
            self._entries[flow.root] = entry
        return self._entries[flow.root]

    @cached_property
    def _set_ups(self) -> SetUps:
        return SetUps(self.path, self.index, self._builder, self.settings.project)

    def placements(self, calls: Iterable[cst.Call]) -> dict[cst.Call, list[tuple[Flow, Event]]]:
        """For each call, the seeding flows that run it and its event there (the first, per flow).

        A call with an effect (a draw) keeps its event; any other gets a "reach" event, so its
        place in execution order can be compared with the flow's seeding.
        """
        watched = frozenset(calls)
        if not watched or not self.seeding_flows:
            return {}
        found: dict[cst.Call, list[tuple[Flow, Event]]] = {}
        for flow in FlowBuilder(self.index, self.classifier, watched).build():
            seen: set[cst.Call] = set()
            for event in flow.events:
                if event.call in watched and event.call not in seen:
                    seen.add(event.call)
                    found.setdefault(event.call, []).append((flow, event))
        return found

    @cached_property
    def program_flow(self) -> Flow:
        """What running the file itself runs, into the functions it starts in other processes
        (what the program draws, not what it seeds: seeding does not cross into a spawned
        process)."""
        return FlowBuilder(self.index, self.classifier, into_processes=True).walk(None)

    def run_by_module_body(self, calls: Iterable[cst.Call]) -> set[cst.Call]:
        """The calls that running the file itself (its body, `__main__` block, what they call and
        the functions they start in other processes) runs."""
        watched = frozenset(calls)
        if not watched:
            return set()
        flow = FlowBuilder(self.index, self.classifier, watched, into_processes=True).walk(None)
        return {event.call for event in flow.events if event.call in watched}

    @cached_property
    def calls_run(self) -> set[cst.Call]:
        """Every call that running the file itself runs (`run_by_module_body` of all its calls),
        walked once."""
        return self.run_by_module_body(call for call, _ in self.index.all_calls)

    @cached_property
    def _calls_by_callee(self) -> dict[str, list[tuple[cst.Call, Scope]]]:
        """Every call of the module, grouped by what its callee resolves to (in source order)."""
        grouped: dict[str, list[tuple[cst.Call, Scope]]] = {}
        for call, scope in self.index.all_calls:
            qualified = self.index.qualify(call.func, scope)
            if qualified is not None:
                grouped.setdefault(qualified, []).append((call, scope))
        return grouped

    def calls_to(self, *qualified: str) -> list[tuple[cst.Call, Scope]]:
        """Every call in the module whose callee resolves to one of `qualified`, in source order."""
        found = [
            item
            for name in dict.fromkeys(qualified)
            for item in self._calls_by_callee.get(name, ())
        ]
        if len(qualified) > 1:
            found.sort(key=lambda item: self._call_order[item[0]])
        return found

    def calls_by_name(self, name: str) -> list[tuple[cst.Call, Scope]]:
        """Every call of a callee of that name, bare or as an attribute (`DataLoader(..)`,
        `data.DataLoader(..)`), in source order."""
        return [
            (call, scope)
            for call, scope in self.index.all_calls
            if (isinstance(call.func, cst.Name) and call.func.value == name)
            or (isinstance(call.func, cst.Attribute) and call.func.attr.value == name)
        ]

    def calls_by_method(self, method: str) -> list[tuple[cst.Call, Scope]]:
        """Every call of a method of that name (`x.reset(..)`), whatever `x` is, in source order."""
        return self._calls_by_method.get(method, [])

    @cached_property
    def _calls_by_method(self) -> dict[str, list[tuple[cst.Call, Scope]]]:
        grouped: dict[str, list[tuple[cst.Call, Scope]]] = {}
        for call, scope in self.index.all_calls:
            if isinstance(call.func, cst.Attribute):
                grouped.setdefault(call.func.attr.value, []).append((call, scope))
        return grouped

    @cached_property
    def _call_order(self) -> dict[cst.Call, int]:
        return {call: position for position, (call, _) in enumerate(self.index.all_calls)}

    @cached_property
    def trainers(self) -> dict[str, list[str]]:
        """For each class or function of this module that seeded CUDA programs of the project
        train, their paths (`analysis.programs`, through the project gates)."""
        return trainers(self.settings.project_gates, str(self.path))

    @cached_property
    def seeded_runners(self) -> dict[str, list[str]]:
        """For each class or function of this module that programs of the project which seed run,
        their paths."""
        return trainers(self.settings.project_gates, str(self.path), RUN_SEEDED)

    @cached_property
    def uses_cuda(self) -> bool:
        """Whether the module runs anything on CUDA (`.cuda()`, "cuda" devices, DataParallel)."""
        if any(_moves_to_cuda(self.index, call, scope) for call, scope in self.index.all_calls):
            return True
        text = self.source.text
        if '"cuda' not in text and "'cuda" not in text:  # no "cuda..." string literal to find
            return False
        return any(_is_cuda_device_string(node) for node in iter_descendants(self.module))

    @cached_property
    def drives_several_gpus(self) -> bool:
        """Whether one process uses several GPUs: DataParallel, `cuda:1` devices, device_count
        loops."""
        for call, scope in self.index.all_calls:
            if self.index.qualify(call.func, scope) in catalog.DATA_PARALLEL:
                return True
        text = self.source.text
        if not any(mark in text for mark in ('"cuda:', "'cuda:", "device_count")):
            return False
        for node in iter_descendants(self.module):
            if isinstance(node, cst.SimpleString):
                value = node.evaluated_value
                if (
                    isinstance(value, str)
                    and value.startswith("cuda:")
                    and value[5:] not in ("", "0")
                ):
                    return True
            elif isinstance(node, cst.FormattedString) and _formatted_prefix(node).startswith(
                "cuda:"
            ):
                return True
            elif isinstance(node, cst.For) and any(
                isinstance(inner, cst.Attribute) and inner.attr.value == "device_count"
                for inner in (node.iter, *iter_descendants(node.iter))
            ):
                return True
        return False

    @cached_property
    def edits(self) -> Editor:
        """Text edits of this file that keep its layout (the fixes' building blocks)."""
        return Editor(self.source, self.layout, lambda: self.index)

    def code(self, node: cst.CSTNode) -> str:
        start, end = self.layout.span(node)
        return self.source.text[start:end]

    def written(self, node: cst.BaseExpression) -> str:
        """An expression as written, to compare with others: a name or a chain of attributes as
        `a.b.c`, anything else as its code laid out by libcst (spaced as written, or evenly in a
        lean module: neither needs positions, which a lean module has none of)."""
        return dotted_name(node) or _CODE.code_for_node(node)

    def shown(self, node: cst.BaseExpression) -> str:
        """An expression as a message shows it, on one line: written over several lines, without
        its comments and with its spaces evened out."""
        code = self.code(node)
        if "\n" not in code:
            return code
        try:
            return ast.unparse(ast.parse(f"({code})", mode="eval"))
        except (SyntaxError, ValueError):
            return " ".join(code.split())


def _moves_to_cuda(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """`.cuda()`, `.cuda(gpu)`, `DataParallel(..)`."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
        return True
    return index.qualify(func, scope) in catalog.DATA_PARALLEL


def puts_on_cuda(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """Whether a call runs something on CUDA: `.cuda()`, `DataParallel(..)`, or a "cuda" device
    among its arguments (`torch.device("cuda" if .. else "cpu")`, `.to("cuda:0")`)."""
    return _moves_to_cuda(index, call, scope) or any(
        _is_cuda_device_string(node)
        for arg in call.args
        for node in (arg.value, *iter_descendants(arg.value))
    )


def _is_cuda_device_string(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.SimpleString):
        return is_cuda_string(node)
    return isinstance(node, cst.FormattedString) and _formatted_prefix(node).startswith("cuda")


def _formatted_prefix(node: cst.FormattedString) -> str:
    parts = node.parts
    return parts[0].value if parts and isinstance(parts[0], cst.FormattedStringText) else ""
