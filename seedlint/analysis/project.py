"""What the functions of other project modules do to the global generators.

A call to `set_seed(args.seed)` imported from `utils.py` seeds exactly what `utils.set_seed`
seeds. The project index finds the module a qualified name lives in (under the linted files'
import roots), parses it once, walks the function in execution order with the same flow
machinery as the file being linted (so wrappers of wrappers, methods and re-exports resolve),
and keeps a summary: which generators it seeds, through which parameter the seed comes in,
and which generators it draws from before seeding them. Only files whose bytes contain a seeding
or drawing spelling (`gates.MAY_SEED_OR_DRAW`) are parsed: any other module can do neither, so its
calls are left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import libcst as cst

from seedlint.analysis.arguments import callee_name
from seedlint.analysis.branches import parameter_values, passed_literals
from seedlint.analysis.catalog import LIBRARY_PACKAGES
from seedlint.analysis.events import Summary
from seedlint.analysis.flow import EffectClassifier, FlowBuilder, seeded_on_import
from seedlint.analysis.index import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    bind_arguments,
    positional_parameters,
)
from seedlint.analysis.instances import is_kept
from seedlint.analysis.modules import (
    CALLERS,
    ModuleFinder,
    Resolution,
    neighbourhood,
    script_folder,
)
from seedlint.analysis.samplers import Handed, handed_out
from seedlint.analysis.seed_picks import picks_a_seed
from seedlint.analysis.walk import iter_descendants
from seedlint.files import is_test
from seedlint.gates import (
    DISTRIBUTED,
    MAY_SEED,
    MAY_SEED_OR_DRAW,
    STAR_IMPORT,
    TEST_HELPER,
    contains_any,
)
from seedlint.parsing import Layout, LeanLayout, NotParsed, lean_parse, parse
from seedlint.source import SourceDecodeError, SourceText, decode_source

_MAX_DEPTH = 8
_UNPARSED = object()  # a module not parsed yet (None: parsed, and not a module)
T = TypeVar("T")


# The key of a module's import-time seeding among the summaries.
_ON_IMPORT = "<on import>:"
_INHERITING = " inheriting "  # the key of a base's constructor run for a subclass
_PASSING = " passing "  # the key of a function run with the literals a call passes


@dataclass
class _Module:
    index: ModuleIndex
    layout: Layout | None  # None: built lean (`parsing.lean_parse`), without its formatting
    call_rows: Mapping[cst.Call, int]  # a lean module's: the line each call starts on
    text: str
    root: str  # its import root
    asked: int = 0  # when it was last asked for (`ProjectIndex.trim_trees` counts the calls)

    def row(self, node: cst.CSTNode) -> int | None:
        if self.layout is None:
            return self.call_rows.get(node)  # type: ignore[call-overload]
        return self.layout.source.location(self.layout.span(node)[0]).row


class ProjectIndex:
    """Summaries of the functions and methods of the project's modules, computed once per run."""

    def __init__(
        self,
        roots: Iterable[Path] | ModuleFinder,
        seed_functions: Mapping[str, frozenset[str]] | None = None,
        known_summaries: Mapping[tuple[str, tuple[bytes, ...]], tuple[Summary | None, dict]]
        | None = None,
        parser: Callable[[Path, str], Layout] | None = None,
        lean_parser: Callable[[Path, str], tuple[cst.Module, dict[cst.Call, int]] | None]
        | None = None,
    ) -> None:
        self.finder = roots if isinstance(roots, ModuleFinder) else ModuleFinder(roots)
        self.seed_functions = dict(seed_functions or {})
        # from an earlier run: reused while what they read is unchanged
        self.known_summaries = known_summaries or {}
        # a language server's re-parses what an edit touched
        self.parser = parser or (lambda path, text: parse(text))
        # for a module only read (not one an editor holds, which is linted too)
        self.lean_parser = lean_parser or (lambda path, text: lean_parse(text))
        # the modules parsed, least recently asked for first (what `trim_trees` drops first)
        self._by_path: dict[Path, _Module | None] = {}
        self._kept_source = 0  # the characters of source of the modules in `_by_path`
        self._trims = 0  # the calls of `trim_trees`
        self.gate = (
            MAY_SEED_OR_DRAW  # what a module's text must contain for its functions to be summarised
        )
        self._summaries: dict[
            tuple[str, tuple[bytes, ...]], tuple[Summary | None, dict[str, Resolution]]
        ] = {}
        self._builders: dict[ModuleIndex, FlowBuilder] = {}
        self.errors: list[str] = []  # modules the index could not summarise (a seedlint bug)
        self._in_progress: list[
            tuple[str, tuple[bytes, ...]]
        ] = []  # summaries being computed, outermost first
        # computed inside a cycle: not to be kept
        self._unfinished: set[tuple[str, tuple[bytes, ...]]] = set()
        # The modules read by each computation running, outermost first: module read -> its
        # resolution. A result (a file's findings, a summary) holds while every module read to
        # compute it is unchanged.
        self._recordings: list[dict[str, Resolution]] = []
        # module -> what `import *` of it brings, with the modules read to know it
        self._export_memo: dict = {}
        self._exporting: set[str] = set()  # the modules whose exports are being computed
        # (module, gate) -> whether its text has one of the gate's spellings (searched once)
        self._gated: dict[tuple[str, tuple[bytes, ...]], bool] = {}
        # a name -> the project's Python files whose text calls it (made on first use)
        self._calling: dict[str, list[Path]] = {}  # a name -> the files calling it
        # (name, depth, gate) -> what `_definition` found, with the modules read to find it
        self._definitions: dict = {}

    # ----------------------------------------------------------------- modules
    def module(
        self, name: str, *, gate: tuple[bytes, ...] | None = MAY_SEED_OR_DRAW
    ) -> ModuleIndex | None:
        """The index of a project module by dotted name (None if absent, unparsable, or gated out).

        By default only modules whose text can seed or draw are parsed; `gate=MAY_SEED` asks for
        modules that can seed, `gate=None` for any (a dataset class's definition).
        """
        found = self.module_file(name)
        if found is None or (gate is not None and not self._passes(name, found[1], gate)):
            return None
        module = self._parse(found[0], found[1], name)
        return module.index if module is not None else None

    def _passes(self, name: str, data: bytes, gate: tuple[bytes, ...]) -> bool:
        key = (name, gate)
        passes = self._gated.get(key)
        if passes is None:
            passes = self._gated[key] = contains_any(data, gate)
        return passes

    def module_at(self, path: Path, faithful: bool = False) -> ModuleIndex | None:
        """The index of the project file at `path` (another file of the same module name may be
        the one imports find: two scripts' folders both holding a `train.py`); with `faithful`,
        parsed with its formatting (for a `FileContext`). Not recorded as read: what depends on it
        reads it through `CALLERS`."""
        try:
            data = self.finder.read_bytes(path)
        except OSError:
            return None
        module = self._parse(path, data, self.finder.module_name(path), faithful)
        return module.index if module is not None else None

    def files_naming(self, name: str) -> list[str]:
        """The project's Python files that name `name` (`ModuleFinder.files_naming`), recorded as
        read (`CALLERS`: a file that starts naming it re-checks what depends on it)."""
        self.record({f"{CALLERS}{name}": self.finder.resolution(f"{CALLERS}{name}")})
        return self.finder.files_naming(name)

    def files_matching(self, name: str, pattern: re.Pattern[str]) -> Iterator[str]:
        """The project's Python files that name `name` (recorded as `files_naming` does) and match
        `pattern` (a file that cannot be read does not), each read only when the one before has
        been taken."""
        for path in self.files_naming(name):
            try:
                text = self.finder.read_bytes(Path(path)).decode("utf-8", "replace")
            except OSError:
                continue
            if pattern.search(text):
                yield path

    def files_calling(self, name: str) -> list[Path]:
        """The project's Python files whose text calls `name` (`name(`): of those naming it,
        recorded as read like `files_naming`; searched once per run for each name."""
        naming = self.files_naming(name)
        found = self._calling.get(name)
        if found is None:
            call = re.compile(rb"(?<!\w)" + re.escape(name.encode()) + rb"\s*\(")
            found = self._calling[name] = []
            for path in naming:
                try:
                    if call.search(self.finder.read_bytes(Path(path))):
                        found.append(Path(path))
                except OSError:
                    continue
        return found

    def calls_from_other_modules(
        self,
        index: ModuleIndex,
        function: FunctionInfo,
        gate: tuple[bytes, ...] | None = MAY_SEED_OR_DRAW,
        faithful: bool = False,
    ) -> Iterator[tuple[Path, ModuleIndex, cst.Call]]:
        """The calls other project modules make to a function of `index` (a class's `__init__`:
        the calls building the class), with the caller's file and index (with `faithful`, parsed
        with its formatting). A call counts when its callee resolves to the function, through a
        module whose bytes hold one of `gate`'s spellings (None: any module)."""
        short = function.node.name.value
        cls = function.owner_class.qualified.rsplit(".", 1)[-1] if function.owner_class else None
        called = cls if short == "__init__" else short
        if called is None or called.startswith("__"):
            return
        # what a caller's text must hold to resolve the call: the class of a method, the module of
        # a function (`from pkg.runner import train`, `import runner`)
        mention = (cls if cls is not None else index.module_name.rsplit(".", 1)[-1]).encode()
        package = index.module_name.partition(".")[0]
        for path in self.files_calling(called):
            name = self.finder.module_name(path)
            try:
                data = self.finder.read_bytes(Path(path))
            except OSError:
                continue
            if mention not in data and not (
                b"from ." in data and name.partition(".")[0] == package  # `from . import f`
            ):
                continue
            caller = self.module_at(Path(path), faithful)
            if caller is None:
                continue
            for call, scope in caller.all_calls:
                if callee_name(call.func) != called:
                    continue
                qualified = caller.qualify(call.func, scope)
                if qualified is None:
                    continue
                if gate is None:
                    found = self.definition(qualified)
                    target = found[1].run_by_calling(found[2]) if found is not None else None
                    module = found[1] if found is not None else None
                else:
                    found_function = self.function(qualified, gate)
                    module, target = found_function or (None, None)
                if (
                    target is not None
                    and module.module_name == index.module_name
                    and target.qualified == function.qualified
                ):
                    yield Path(path), caller, call

    def mentions(self, index: ModuleIndex, spelling: bytes) -> bool:
        """Whether a project module's text, or that of a project module it imports, contains
        `spelling` (read as bytes, not parsed: what another class of the project may do, such as a
        hook's `set_epoch`)."""
        return any(spelling in data for _, data in self.texts_around(index.module_name))

    def texts_around(self, name: str) -> list[tuple[Path, bytes]]:
        """The path and bytes of a project module and of the project modules it imports (read,
        not parsed; recorded as read)."""
        found = self.module_file(name)
        if found is None:
            return []
        names = self.finder.imports_of(found[0], found[1])
        return [found, *(imported for imported in map(self.module_file, names) if imported)]

    def imported_texts(
        self, names: Iterable[str], limit: int = 400
    ) -> tuple[list[tuple[Path, bytes]], set[str]] | None:
        """The path and bytes of the project modules among `names` and of every project module
        they import, directly or through others (read, not parsed; recorded as read), with the
        names among them and their imports that are not the project's (installed libraries);
        None beyond `limit` modules."""
        texts: list[tuple[Path, bytes]] = []
        found: set[str] = set()
        outside: set[str] = set()
        pending = list(dict.fromkeys(names))
        seen = set(pending)
        while pending:
            current = pending.pop()
            read = self.module_file(current)
            if read is None:
                outside.add(current)
                continue
            if len(texts) == limit:
                return None
            texts.append(read)
            found.add(current)
            for imported in self.finder.imports_of(read[0], read[1]):
                if imported not in seen:
                    seen.add(imported)
                    pending.append(imported)
        # `from utils.misc import Scaler` names `utils.misc.Scaler`: a name in a project module
        libraries = {name for name in outside if not any(name.startswith(f"{m}.") for m in found)}
        return texts, libraries

    def module_file(self, name: str) -> tuple[Path, bytes] | None:
        """The path and bytes of a project module, recorded as read by the running analysis."""
        self.record({name: self.finder.resolution(name)})
        return self.finder.read(name)

    @property
    def summaries(
        self,
    ) -> dict[tuple[str, tuple[bytes, ...]], tuple[Summary | None, dict[str, Resolution]]]:
        """The summaries known in this run, with the modules read to compute each."""
        return self._summaries

    def record(self, reads: Mapping[str, Resolution]) -> None:
        """Count `reads` as read by the computations running (what a file's findings depend on)."""
        if reads:
            for recording in self._recordings:
                recording.update(reads)

    @contextmanager
    def recording(self) -> Iterator[dict[str, Resolution]]:
        """The modules read from here on (by this computation, and by what it reuses), as they are
        read."""
        recording: dict[str, Resolution] = {}
        self._recordings.append(recording)
        try:
            yield recording
        finally:
            self._recordings.pop()

    def remembered(
        self,
        cache: dict[Hashable, tuple[T, dict[str, Resolution]]],
        key: Hashable,
        compute: Callable[[], T],
    ) -> T:
        """`compute()`, kept in `cache` with the modules it read; reused, those count as read
        again."""
        if key in cache:
            value, reads = cache[key]
            self.record(reads)
            return value
        with self.recording() as reads:
            value = compute()
        cache[key] = (value, reads)
        return value

    def _parse(self, path: Path, data: bytes, name: str, faithful: bool = False) -> _Module | None:
        """A project module, parsed once while its tree is kept: lean unless `faithful` is asked
        for or an editor holds it (a lean one is parsed again, with its formatting, the first time
        that is asked)."""
        key = path.absolute()
        known = self._by_path.pop(key, _UNPARSED)
        if known is _UNPARSED or (faithful and known is not None and known.layout is None):
            if known is not _UNPARSED:
                self._kept_source -= len(known.text)
            known = self._parsed_afresh(path, data, name, faithful)
            if known is not None:
                self._kept_source += len(known.text)
        if known is not None:
            known.asked = self._trims
        self._by_path[key] = known  # the most recently asked for
        return known

    def _parsed_afresh(self, path: Path, data: bytes, name: str, faithful: bool) -> _Module | None:
        try:
            text, _ = decode_source(data)
            lean = (
                None
                if faithful or os.path.abspath(path) in self.finder.unsaved
                else self.lean_parser(path, text)
            )
            layout = self.parser(path, text) if lean is None else None
        except (SourceDecodeError, NotParsed, cst.ParserSyntaxError, RecursionError, MemoryError):
            return None
        tree, rows = (layout.module, {}) if layout is not None else lean
        root = self.finder.import_root(path)
        module = _Module(
            ModuleIndex(
                tree,
                name,
                path.name == "__init__.py",
                self.localiser(root, script_folder(path, data)),
            ),
            layout,
            rows,
            text,
            root,
        )
        module.index.star_meaning = self.star_meaning
        return module

    def localiser(self, root: str, folder: str | None = None) -> Callable[[str], str]:
        """What an absolute import's module name finds from a module under the import root
        `root`, in `folder`."""
        return lambda name: self.finder.localise(name, root, folder)

    def kept_source(self) -> int:
        """The characters of source of the modules whose trees are kept."""
        return self._kept_source

    def trim_trees(self, budget: int, unused_for: int | None = None, root: str = "") -> int:
        """Drop the trees asked for least recently beyond `budget` characters of source, and
        those under another import root than `root` not asked for since the last `unused_for`
        calls of this method (a tree of many projects is read project by project), keeping the
        summaries and what else was learnt from them (what is asked next parses its modules
        again); the characters dropped. Only between two computations: one running may hold a
        dropped module's nodes."""
        self._trims += 1
        dropped = 0
        for key in list(self._by_path):
            module = self._by_path[key]
            if module is None:  # an unparsable one is kept: it costs nothing
                continue
            unused = unused_for is not None and module.asked < self._trims - unused_for
            if self._kept_source <= budget and not unused:
                break  # the rest were asked for later
            if self._kept_source <= budget and module.root == root:
                continue
            del self._by_path[key]
            self._builders.pop(module.index, None)
            module.index.unlink()
            self._kept_source -= len(module.text)
            dropped += len(module.text)
        return dropped

    def _is_package(self, name: str) -> bool:
        found = self.module_file(name)
        return found is not None and found[0].name == "__init__.py"

    def parsed_files(self) -> list[Path]:
        """The files this index parsed (each once)."""
        return list(self._by_path)

    def owns(self, index: ModuleIndex) -> bool:
        """Whether the index is one this project parsed and keeps."""
        return self._parsed_module(index) is not None

    def row_of(self, index: ModuleIndex, node: cst.CSTNode) -> int | None:
        """The line a node of a module this project parsed starts on."""
        found = self._parsed_module(index)
        return found.row(node) if found is not None else None

    def _parsed_module(self, index: ModuleIndex) -> _Module | None:
        return next(
            (
                module
                for module in self._by_path.values()
                if module is not None and module.index is index
            ),
            None,
        )

    def builder(self, index: ModuleIndex) -> FlowBuilder:
        """The flow builder (and effect classifier) of a module, shared by its summaries and its
        linting."""
        if index not in self._builders:
            self._builders[index] = FlowBuilder(
                index, EffectClassifier(index, self.seed_functions, self)
            )
        return self._builders[index]

    def parsed(
        self, path: Path, text: str, lean: bool = False
    ) -> tuple[ModuleIndex, Layout] | None:
        """The index and layout already built for a file, if it was parsed from this very text
        (parse once): with its formatting, or with `lean` a lean one too (a `LeanLayout`)."""
        found = self._by_path.get(path.absolute())
        if found is None or found.text != text:
            return None
        if found.layout is not None:
            return found.index, found.layout
        return (found.index, LeanLayout(found.index.module, SourceText(text))) if lean else None

    def function(
        self, qualified: str, gate: tuple[bytes, ...]
    ) -> tuple[ModuleIndex, FunctionInfo] | None:
        """The module and function a qualified callee runs, read only from a module whose text has
        one of `gate`."""
        return self._function(qualified, gate=gate)

    def _function(
        self,
        qualified: str,
        depth: int = 0,
        gate: tuple[bytes, ...] | None = None,
    ) -> tuple[ModuleIndex, FunctionInfo] | None:
        """The module and function a qualified callee runs: a function, a class's `__init__`, a
        method."""
        if depth > _MAX_DEPTH:
            return None
        gate = gate or self.gate
        owner, _, method = qualified.partition("().")
        if method:  # `pkg.Trainer().seed_all`
            return self._method(owner, method, depth, gate) if "." not in method else None
        found = self._definition(qualified, depth, gate)
        if found is None:  # `pkg.Trainer.seed_all`, a method looked up on the class
            owner, _, method = qualified.rpartition(".")
            return self._method(owner, method, depth, gate) if owner else None
        index, name = found
        if name in index.functions:
            return index, index.functions[name]
        return self._method(name, "__init__", depth, gate) if name in index.classes else None

    def _method(
        self,
        cls: str,
        method: str,
        depth: int,
        gate: tuple[bytes, ...],
    ) -> tuple[ModuleIndex, FunctionInfo] | None:
        found = self._definition(cls, depth, gate)
        if found is None or found[1] not in found[0].classes:
            return None
        function = found[0].find_method(found[0].classes[found[1]], method)
        return (found[0], function) if function is not None else None

    def class_definition(self, qualified: str) -> tuple[ModuleIndex, ClassInfo] | None:
        """The module and class a qualified name refers to, in any project module."""
        found = self._definition(qualified, 0, None)
        if found is None or found[1] not in found[0].classes:
            return None
        return found[0], found[0].classes[found[1]]

    def definition(self, qualified: str) -> tuple[Path, ModuleIndex, str] | None:
        """The file and index of the project module that defines the class or function a
        qualified name refers to (following re-exports), and its qualified name there."""
        found = self._definition(qualified, 0, None)
        if found is None or not (found[1] in found[0].classes or found[1] in found[0].functions):
            return None
        located = self.module_file(found[0].module_name)
        return (located[0], *found) if located is not None else None

    def derives_from(
        self, qualified: str, bases: frozenset[str], spellings: tuple[bytes, ...]
    ) -> bool:
        """Whether a project class without an `__init__` of its own derives from one of `bases`
        (read only from a module whose text contains one of `spellings`)."""
        found = self._definition(qualified, 0, spellings)
        if found is None or found[1] not in found[0].classes:
            return False
        index, cls = found[0], found[0].classes[found[1]]
        return index.find_method(cls, "__init__") is None and index.subclasses_of(cls, bases)

    def _definition(
        self, qualified: str, depth: int, gate: tuple[bytes, ...] | None
    ) -> tuple[ModuleIndex, str] | None:
        """(module index, qualified name inside it) of what `qualified` names, following re-exports
        (a package's `__init__.py` is read when it mentions the name, to follow `from .model import
        Net`)."""
        located = self._located(qualified, depth, gate)
        if located is None:
            return None
        index = self.module(located[0], gate=None)  # parsed again if its tree was trimmed
        return (index, located[1]) if index is not None else None

    def _located(
        self, qualified: str, depth: int, gate: tuple[bytes, ...] | None
    ) -> tuple[str, str] | None:
        """(module, qualified name inside it) for `_definition`, looked up once: names, which
        outlive the trees that `trim_trees` drops."""
        return self.remembered(
            self._definitions,
            (qualified, depth, gate),
            lambda: self._locate(qualified, depth, gate),
        )

    def _locate(
        self, qualified: str, depth: int, gate: tuple[bytes, ...] | None
    ) -> tuple[str, str] | None:
        parts = qualified.split(".")
        for split in range(len(parts) - 1, 0, -1):
            # A package's `__init__.py` is read when it names what is looked up; any module, when it
            # star-imports.
            module = ".".join(parts[:split])
            module_gate = (
                gate
                if gate is None
                else (
                    *gate,
                    STAR_IMPORT,
                    *((parts[split].encode(),) if self._is_package(module) else ()),
                )
            )
            index = self.module(module, gate=module_gate)
            if index is None:
                continue
            name = f"{index.module_name}.{'.'.join(parts[split:])}"
            if name in index.functions or name in index.classes:
                return module, name
            if depth >= _MAX_DEPTH:
                return None
            bound = index.module_scope.bindings.get(parts[split])
            local = f"{index.module_name}.{parts[split]}"
            if isinstance(bound, str) and not bound.startswith("<") and bound != local:
                return self._located(".".join([bound, *parts[split + 1 :]]), depth + 1, gate)
            origin = self.star_origin(index.star_imports, parts[split]) if bound is None else None
            # from a `from module import *` of the module: the last that binds it
            if origin is not None:
                return self._located(".".join([origin, *parts[split:]]), depth + 1, gate)
            return None
        return None

    def has_module_of(self, qualified: str) -> bool:
        """Whether a module of the project holds what a dotted name names: `utils.set_seed` is in
        the project when its module `utils` binds `set_seed`, or a module defines or re-exports it.
        (A project module of that name without it is another project's: the import finds its own at
        run time.)"""
        module, _, name = qualified.rpartition(".")
        index = self.module(module, gate=None)
        return (index is not None and name in index.module_scope.bindings) or self._definition(
            qualified, 0, None
        ) is not None

    def star_origin(self, modules: Sequence[str], name: str) -> str | None:
        """The last of `modules` (each star-imported) that binds `name`, itself or through its own
        `import *`s; None when none of the project's does."""
        return next((module for module in reversed(modules) if name in self._exports(module)), None)

    def star_meaning(self, modules: Sequence[str], name: str) -> str | None:
        """What `name` is where `modules` are star-imported: `module.name`, or what the module
        imports under it (`torch` for its `import torch`)."""
        module = self.star_origin(modules, name)
        index = self.module(module, gate=None) if module is not None else None
        if index is None:
            return None
        bound = index.module_scope.bindings.get(name)
        if isinstance(bound, str) and not bound.startswith("<"):
            return bound
        return f"{module}.{name}"

    def _exports(self, module: str) -> frozenset[str]:
        """The names `from module import *` can bring: what the project module binds at its top
        level, and what its own star imports bring (each module read once; a cycle of star imports
        brings nothing more)."""
        if module in self._exporting:
            return frozenset()
        self._exporting.add(module)
        try:
            return self.remembered(self._export_memo, module, lambda: self._bound_names(module))
        finally:
            self._exporting.discard(module)

    def _bound_names(self, module: str) -> frozenset[str]:
        index = self.module(module, gate=None)
        if index is None:
            return frozenset()
        names = set(index.module_scope.bindings)
        for starred in index.star_imports:
            names |= self._exports(starred)
        return frozenset(names)

    # --------------------------------------------------------------- summaries
    def summary(
        self, qualified: str, call: cst.Call | None = None, caller: ModuleIndex | None = None
    ) -> Summary | None:
        """What a call to `qualified` does, when it is a project function that seeds or draws
        (only seeds, and its draws as far as modules that can seed show them, under
        `seeding_only`); with `call` (made in `caller`), for the literals it passes
        (`shuffle=False` rules out the function's `if shuffle: random.seed(..)`)."""
        summary = self._kept((qualified, self.gate), lambda: self._call_summary(qualified))
        passed = passed_literals(call, caller) if summary is not None and call is not None else ()
        if not passed:
            return summary
        key = (f"{qualified}{_PASSING}{passed!r}", self.gate)  # kept without parsing the module
        return self._kept(key, lambda: self._passing(qualified, call, caller, summary))

    def _passing(
        self, qualified: str, call: cst.Call, caller: ModuleIndex | None, summary: Summary
    ) -> Summary | None:
        """What a call to a project function, made in `caller`, does with the literals it passes."""
        found = self._function(qualified)
        if found is None:
            return summary
        index, function = found
        passed = {name for name, _ in bind_arguments(function, call)}
        known = {
            name: value
            for name, value in parameter_values(index, function, call, caller).items()
            if name in passed
        }
        return self._summarise(index, function, known) if known else summary

    def seeds_on_import(self, name: str, deterministic_only: bool = False) -> frozenset[str]:
        """What the project module `name` seeds when it is imported (its top level outside its
        `__main__` block): `config.py` running `np.random.seed(0)`."""
        key = (f"{_ON_IMPORT}{name}", (b"deterministic",) if deterministic_only else MAY_SEED)
        summary = self._kept(key, lambda: self._import_summary(name, deterministic_only))
        return summary.seeds if summary is not None else frozenset()

    def _kept(
        self, key: tuple[str, tuple[bytes, ...]], compute: Callable[[], Summary | None]
    ) -> Summary | None:
        """A summary computed once per run, or kept from an earlier run while the modules read to
        compute it are unchanged."""
        known = self.known_summaries.get(key)
        if (
            key not in self._summaries
            and known is not None
            and all(
                self.finder.resolution(name) == resolution for name, resolution in known[1].items()
            )
        ):
            self._summaries[key] = known
        if key in self._summaries:
            summary, reads = self._summaries[key]
            self.record(reads)  # computing it read them: so does every caller that uses it
            return summary
        if key in self._in_progress:  # a cycle: what is above it on the stack saw it unfinished
            self._unfinished.update(self._in_progress[self._in_progress.index(key) + 1 :])
            return None
        self._in_progress.append(key)
        with self.recording() as reads:
            summary = compute()
        self._in_progress.pop()
        if key in self._unfinished:
            self._unfinished.discard(key)
        else:
            self._summaries[key] = (summary, reads)
        return summary

    def _call_summary(self, qualified: str) -> Summary | None:
        found = self._function(qualified)
        if (
            found is None
            and qualified.rsplit(".", 1)[-1][:1].isupper()
            and qualified.partition(".")[0] not in LIBRARY_PACKAGES
        ):
            # a class whose constructor calls its base's, which may seed or draw in another module
            found = self._function(qualified, gate=(*self.gate, b"super("))
        if found is None:
            return self._inherited_summary(qualified)
        return self._summarise(*found)

    def _inherited_summary(self, qualified: str) -> Summary | None:
        """A project class without a constructor in its module: the constructor of a base of
        another project module, run for it (`class Exp_Forecast(Exp_Basic)`)."""
        found = self._definition(qualified, 0, self.gate)
        if found is None or found[1] not in found[0].classes:
            return None
        index, cls = found[0], found[0].classes[found[1]]
        if index.find_method(cls, "__init__") is not None:
            return None
        local = [cls, *(index.classes[base] for base in cls.bases if base in index.classes)]
        for base in (base for owner in local for base in owner.bases):
            if base not in index.classes:
                summary = self.constructor_summary(base, index, cls)
                if summary is not None:
                    return summary
        return None

    def constructor_summary(self, base: str, index: ModuleIndex, cls: ClassInfo) -> Summary | None:
        """What the constructor of `base`, a class of another project module, does when run for
        `cls` of `index`: what it seeds, and what the methods `cls` defines do where that
        constructor calls them on `self` (the template-method pattern: `self.model =
        self._build_model()`)."""
        methods = _defined_methods(index, cls)
        key = (f"{cls.qualified}{_INHERITING}{base}", self.gate)
        return self._kept(key, lambda: self._constructed(base, index, methods))

    def _constructed(
        self, base: str, index: ModuleIndex, methods: dict[str, FunctionInfo]
    ) -> Summary | None:
        overridable = tuple(f"self.{name}(".encode() for name in methods if name != "__init__")
        found = self._method(base, "__init__", 1, (*self.gate, *overridable))
        if found is None:
            return None
        summary = self._summarise(*found)
        base_index, constructor = found
        # its own draws count only where it has no branches: which of them a subclass takes is
        # not followed
        seeds = set(summary.seeds) if summary is not None else set()
        draws = (
            set(summary.draws - summary.seeds)
            if summary is not None and not _branches(constructor.node)
            else set()
        )
        overridden = frozenset(methods)
        for call in base_index.calls_by_scope.get(constructor.scope, ()):
            func = call.func
            if not is_kept(func, "self", overridden):
                continue
            assert isinstance(func, cst.Attribute)
            override = self._summarise(index, methods[func.attr.value])
            if override is not None:
                seeds |= override.seeds
                draws |= override.draws - seeds
        if not seeds and not draws:
            return None
        parameter = summary.seed_parameter if summary is not None else None
        return Summary(frozenset(seeds), parameter, frozenset(draws))

    def _import_summary(self, name: str, deterministic_only: bool) -> Summary | None:
        index = self.module(name, gate=MAY_SEED)
        if index is None or not self.builder(index).body_seeds():
            return None
        seeds = seeded_on_import(self.builder(index).walk(None), deterministic_only)
        return Summary(seeds, None, frozenset()) if seeds else None

    @contextmanager
    def seeding_only(self) -> Iterator[None]:
        """While only seeding matters (which functions seed): parse only modules that can seed."""
        saved, self.gate = self.gate, MAY_SEED
        try:
            yield
        finally:
            self.gate = saved

    def _summarise(
        self, index: ModuleIndex, function: FunctionInfo, known: dict[str, object] | None = None
    ) -> Summary | None:
        flow = self.builder(index).walk(function, known)
        seeds: set[str] = set()
        draws: set[str] = set()
        parameter = None
        for event in flow.events:
            if event.kind == "seed" and event.effect.deterministic:
                seeds |= event.generators
                if parameter is None:
                    parameter = _parameter_of(index, function, event)
            elif event.kind == "draw" and not picks_a_seed(index, flow, event):
                # a seed picked when none is given (`seed if seed is not None else
                # np.random.randint(..)`) is the function's own business
                draws |= event.generators - seeds
        if not seeds and not draws:
            return None
        return Summary(frozenset(seeds), parameter, frozenset(draws))

    def seeding_gates(self, files: Iterable[Path]) -> set[bytes]:
        """`name(` of the public functions and classes that seed in the project around `files`.

        A file that calls one of them must be linted by the rules that need seeding, whatever
        the helper is called (`init_seeds(..)`, `Trainer(..)`). The gates come from the linted
        files and the modules beside each script; calls into other modules of their packages are
        still resolved (lazily), but only in files a seeding spelling already lets in.
        """
        return set().union(*(self.gates_of(file) for file in neighbourhood(files)))

    def gates_of(self, file: Path) -> frozenset[bytes]:
        """`name(` of the public functions and classes of one module that seed; DISTRIBUTED +
        `name(` of those that hand out a shuffling DistributedSampler."""
        name = self.finder.module_name(file)
        handing = self.module(name, gate=(b"DistributedSampler",))
        distributed = frozenset(
            DISTRIBUTED + f"{qualified.rsplit('.', 1)[-1]}(".encode()
            for qualified in (self._handed_out(handing) if handing is not None else ())
        )
        return distributed | self._seeding_gates(file, name)

    def handed_out(self, qualified: str) -> Handed | None:
        """What the project function `qualified` returns that holds a shuffling
        DistributedSampler (a sampler, a loader over one, a loader's keyword arguments)."""
        found = self._function(qualified, gate=(b"DistributedSampler",))
        return self._handed_out(found[0]).get(found[1].qualified) if found is not None else None

    def _handed_out(self, index: ModuleIndex) -> dict[str, Handed]:
        """`samplers.handed_out` of a module, once per module."""
        return self.remembered(self.builder(index).memo, "handed out", lambda: handed_out(index))

    def _seeding_gates(self, file: Path, name: str) -> frozenset[bytes]:
        index = self.module(name, gate=MAY_SEED)
        if index is None:
            return frozenset()
        try:
            seeding = self.builder(index).seeding_functions()
        except Exception as error:  # noqa: BLE001 - a bug here must not stop the run
            self.errors.append(f"project index failed on {file}: {type(error).__name__}: {error}")
            return frozenset()
        gates = set()
        if self.seeds_on_import(name, deterministic_only=True):
            # a module that seeds when imported (`config.py`): the files importing it may seed
            short = index.module_name.rsplit(".", 1)[-1]
            gates |= {
                f"import {short}".encode("utf-8", "surrogateescape"),
                f"{short} import".encode("utf-8", "surrogateescape"),
            }
        for function in seeding:
            qualified = (
                function.owner_class.qualified
                if function.node.name.value == "__init__"
                else function.qualified
            )
            short = qualified.rsplit(".", 1)[-1]
            if not short.startswith("_") and short != "main" and "<locals>" not in qualified:
                gates.add(f"{short}(".encode())
        if is_test(file):  # a test's helpers and mocks seed for tests (`from_pretrained`)
            return frozenset(TEST_HELPER + gate for gate in gates)
        return frozenset(gates)


def _branches(function: cst.FunctionDef) -> bool:
    """Whether a function's body has an `if`, a `match` or a `try`."""
    return any(
        isinstance(node, (cst.If, cst.Match, cst.Try, cst.TryStar))
        for node in iter_descendants(function.body)
    )


def _defined_methods(index: ModuleIndex, cls: ClassInfo) -> dict[str, FunctionInfo]:
    """The methods a class defines in its module, its own before its module-local bases'."""
    methods: dict[str, FunctionInfo] = {}
    chain = [cls]
    while chain:
        owner = chain.pop(0)
        for name, method in owner.methods.items():
            methods.setdefault(name, method)
        chain.extend(index.classes[base] for base in owner.bases if base in index.classes)
    return methods


def _parameter_of(
    index: ModuleIndex, function: FunctionInfo, event
) -> tuple[str, int | None] | None:
    """The parameter of `function` the seed of a seeding event comes through, mapped back along its
    calls."""
    expression = event.effect.seed_arg
    steps = [step for step in event.trail[:-1] if step.call is not None]
    for step in reversed(steps):
        callee = index.resolve_local_call(step.call, step.statement.scope)
        name = _parameter_read(expression, callee) if callee is not None else None
        if name is None:
            return None
        expression = dict(bind_arguments(callee, step.call)).get(name)
    name = _parameter_read(expression, function)
    if name is None:
        return None
    positional = [param.name.value for param in positional_parameters(function)]
    return name, positional.index(name) if name in positional else None


def _parameter_read(
    expression: cst.BaseExpression | None, function: FunctionInfo, depth: int = 0
) -> str | None:
    """The first parameter of `function` that an expression reads, also through an attribute the
    function set from it (`self._random_state = random_state or RandomState()`, then
    `set_seed(self._random_state.randint(..))`)."""
    if expression is None:
        return None
    params = function.node.params
    names = {
        param.name.value for param in [*positional_parameters(function), *params.kwonly_params]
    }
    owner = function.owner_class
    for node in (expression, *iter_descendants(expression)):
        if isinstance(node, cst.Name) and node.value in names:
            return node.value
        if (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == "self"
            and owner is not None
            and depth < 2
        ):
            for value, scope in owner.attributes.get(node.attr.value, ()):
                name = (
                    _parameter_read(value, function, depth + 1) if scope is function.scope else None
                )
                if name is not None:
                    return name
    return None
