"""The project model: what seedlint knows of each module, kept from one run to the next.

Per module: where its name resolves and the hash of its content, the modules its analysis read
(`ProjectIndex.reads`), and the seeding helpers it defines (the gates that open the seeding rules).
Per linted file: its findings, with the settings and gates they were found under. Everything is
keyed by content hashes, never by modification times (pre-commit stashes and checkouts change
those): a fact is reused only while its module and every module its analysis read, transitively,
hold the same bytes. So editing a seeding helper re-lints the files whose analysis read its module,
and no other. The CLI loads the model from the cache at the start of a run and saves it at the
end; a language server can keep one in memory.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from seedlint.analysis.modules import ModuleFinder, Resolution, content_hash, neighbourhood
from seedlint.cache import Store
from seedlint.diagnostics import Diagnostic

if TYPE_CHECKING:
    from seedlint.analysis.project import ProjectIndex

_FORMAT = 2  # bumped when the stored shape changes
_UNUSED_FOR = 30 * 24 * 3600  # entries nobody used for this long are pruned


@dataclass
class _ModuleFacts:
    resolution: Resolution
    reads: dict[str, Resolution] = field(default_factory=dict)
    gates: frozenset[bytes] | None = None  # None: not computed for this content
    used: float = 0.0


@dataclass
class _FileFindings:
    content: str
    settings: str
    reads: dict[str, Resolution]
    gates: frozenset[bytes]  # the project's seeding gates when it was linted
    opened: bool  # whether one of them was in its bytes
    diagnostics: list[Diagnostic]
    used: float = 0.0


class ProjectModel:
    """The facts of one run's project, loaded from and saved to a `Store` (None: in memory only).

    The project index (and the parser) is only set up when a fact must be computed.
    """

    def __init__(self, finder: ModuleFinder, seed_functions: Mapping[str, frozenset[str]],
                 store: Store | None = None) -> None:
        self.finder = finder
        self.seed_functions = seed_functions
        self.store = store
        saved = store.load() if store is not None else None
        if not (isinstance(saved, dict) and saved.get("format") == _FORMAT):
            saved = {"format": _FORMAT, "modules": {}, "files": {}}
        self._modules: dict[str, _ModuleFacts] = saved["modules"]
        self._files: dict[str, _FileFindings] = saved["files"]
        self._fresh: dict[str, bool] = {}
        self._now = time.time()
        self.hits = 0

    @cached_property
    def project(self) -> ProjectIndex:
        from seedlint.analysis.project import ProjectIndex  # the parser: only when something must be analysed

        return ProjectIndex(self.finder, self.seed_functions)

    @property
    def _analysed(self) -> ProjectIndex | None:
        """The project index, if this run set it up."""
        return self.__dict__.get("project")

    @property
    def errors(self) -> list[str]:
        """Modules the project index could not analyse (a seedlint bug)."""
        return self._analysed.errors if self._analysed is not None else []

    @property
    def _reads(self) -> dict[str, dict[str, Resolution]]:
        return self._analysed.reads if self._analysed is not None else {}

    # ------------------------------------------------------------------ gates
    def gates(self, files: Iterable[Path]) -> frozenset[bytes]:
        """The project's seeding gates around `files`: known ones reused, the others computed."""
        gates: set[bytes] = set()
        for file in neighbourhood(files, self.finder.known_roots):
            name = self.finder.module_name(file)
            facts = self._modules.get(name)
            if facts is not None and facts.gates is not None and self._unchanged(name, facts.resolution):
                facts.used = self._now
                gates |= facts.gates
                continue
            errors = len(self.project.errors)
            found = self.project.gates_of(file)
            gates |= found
            if len(self.project.errors) == errors:
                self._facts(name).gates = found
        return frozenset(gates)

    # ------------------------------------------------------------------ findings
    def findings(self, path: Path, data: bytes, settings: str, gates: frozenset[bytes]) -> list[Diagnostic] | None:
        """The findings known for this file's bytes under these settings, or None (it must be linted)."""
        known = self._files.get(os.path.abspath(path))
        if known is None or known.content != self.finder.file_hash(path, data) or known.settings != settings:
            return None
        if known.gates != gates and known.opened != _opens(gates, data):
            return None
        if not all(self._unchanged(name, resolution) for name, resolution in known.reads.items()):
            return None
        known.used = self._now
        self.hits += 1
        return [replace(diagnostic, path=path) for diagnostic in known.diagnostics]

    def remember(self, path: Path, data: bytes, settings: str, gates: frozenset[bytes],
                 diagnostics: list[Diagnostic]) -> None:
        """Keep a file's findings, with what its analysis read."""
        name = self.finder.module_name(path)
        reads = dict(self._reads.get(name, {}))
        self._files[os.path.abspath(path)] = _FileFindings(
            content_hash(data), settings, reads, gates, _opens(gates, data), list(diagnostics), self._now)

    # ------------------------------------------------------------------ freshness
    def _unchanged(self, name: str, resolution: Resolution) -> bool:
        """Whether a module resolves to the same bytes as when a fact was recorded, and so does every
        module its analysis read (transitively)."""
        key = f"{name}\0{resolution}"
        if key not in self._fresh:
            self._fresh[key] = True  # a cycle: the other modules on it decide
            facts = self._modules.get(name)
            if facts is not None:
                facts.used = self._now
            # No facts: the module was read (to resolve a name) but never analysed. Facts of other
            # bytes than these: what analysing these bytes read is not known.
            self._fresh[key] = self.finder.resolution(name) == resolution and (facts is None or (
                facts.resolution == resolution
                and all(self._unchanged(other, seen) for other, seen in facts.reads.items() if other != name)))
        return self._fresh[key]

    def _facts(self, name: str) -> _ModuleFacts:
        current = self.finder.resolution(name)
        facts = self._modules.get(name)
        if facts is None or facts.resolution != current:
            facts = self._modules[name] = _ModuleFacts(current)
        facts.used = self._now
        return facts

    # ------------------------------------------------------------------ saving
    def save(self) -> None:
        """Merge this run's reads into the model, prune what is stale, and store it."""
        if self.store is None:
            return
        for name, reads in self._reads.items():
            self._facts(name).reads.update(reads)
        cutoff = self._now - _UNUSED_FOR
        self._files = {path: known for path, known in self._files.items()
                       if known.used >= cutoff and Path(path).is_file()}
        self._modules = {name: facts for name, facts in self._modules.items() if facts.used >= cutoff}
        self.store.save({"format": _FORMAT, "modules": self._modules, "files": self._files})


def _opens(gates: frozenset[bytes], data: bytes) -> bool:
    """Whether a file's bytes contain one of the project's seeding gates, which open the seeding rules
    for it (all a file's findings depend on of the gates)."""
    return any(gate in data for gate in gates)
