"""The project's facts: what seedlint knows of each module, kept from one run to the next.

Per module: the seeding helpers it defines (the gates that open the seeding rules for the files
calling them). Per linted file: its findings, with the settings and gates they were found under.
Each fact is kept with the project modules read to compute it, transitively
(`ProjectIndex.recording`: a summary of a helper in another module counts what computing it read),
each with the hash of its bytes. A fact is reused only while every one of those modules holds the
same bytes: hashes, never modification times, which pre-commit stashes and checkouts change. So
editing a seeding helper re-lints the files whose analysis used it, and no other. The CLI loads the
facts from the cache at the start of a run and saves them at the end; a language server keeps them
in memory.
"""

from __future__ import annotations

import marshal
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import astuple, dataclass, replace
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from seedlint.analysis.events import Summary
from seedlint.analysis.modules import (
    ModuleFinder,
    Resolution,
    content_hash,
    neighbourhood,
)
from seedlint.cache import Store
from seedlint.diagnostics import Diagnostic
from seedlint.gates import opened_by

if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.project import ProjectIndex
    from seedlint.parsing import Layout

_FORMAT = 8  # bumped when the stored shape changes
# Entries kept per file, each valid while what it read resolves as it did: a run over the whole tree
# and one over a single file (other import roots) read different modules, and each reuses its own.
_VARIANTS = 3
_UNUSED_FOR = 30 * 24 * 3600  # entries nobody used for this long are pruned
_REFRESH_AFTER = 24 * 3600
# What the cache keys a file's findings by, of the bytes they were found in: their hash, and what
# the project's gates open the file to (`gates.opened_by`). A worker process computes it where it
# reads the file, so that the parent needs not hold every file's bytes.
Fingerprint = tuple[str, tuple[bool, dict]]


def fingerprint(path: Path, data: bytes, gates: frozenset[bytes]) -> Fingerprint:
    return content_hash(data), opened_by(path, data, gates)


@dataclass
class News:
    """What a worker process learnt since it last handed its news back: summaries of project
    functions, index errors, the finder's namings and stamps (`ModuleFinder.named`, `stamped`)."""

    summaries: dict
    errors: list[str]
    named: dict
    stamped: dict


@dataclass
class _Gates:
    gates: frozenset[bytes]
    reads: dict[str, Resolution]  # the modules read to find them (the module itself among them)
    used: float = 0.0


@dataclass
class _FileFindings:
    content: str
    settings: str
    reads: dict[str, Resolution]
    gates: frozenset[bytes]  # the project's seeding gates when it was linted
    opened: tuple  # what the gates opened it to (`opened_by`)
    diagnostics: list[Diagnostic]
    used: float = 0.0


class ProjectFacts:
    """The facts of one run's project, loaded from and saved to a `Store` (None: in memory only).

    The project index (and the parser) is only set up when a fact must be computed.
    """

    def __init__(
        self,
        finder: ModuleFinder,
        seed_functions: Mapping[str, frozenset[str]],
        store: Store | None = None,
        summaries: dict | None = None,
        parser: Callable[[Path, str], Layout] | None = None,
        lean_parser: Callable[[Path, str], tuple[cst.Module, dict] | None] | None = None,
    ) -> None:
        self.finder = finder
        self.seed_functions = seed_functions
        self.store = store
        self.parser = parser  # None: parse each file in full
        self.lean_parser = lean_parser  # for modules only read (None: `parsing.lean_parse`)
        if summaries is not None:  # a worker process: the parent's known summaries
            self._summaries = summaries
        self._absorbed: dict = {}  # summaries computed in worker processes
        self._errors: list[str] = []  # index errors met in worker processes
        # in a worker: the summaries and errors already handed back
        self._sent = (0, 0)  # the summaries and the errors handed back by `news` so far
        saved = store.load() if store is not None else None
        if not (isinstance(saved, dict) and saved.get("format") == _FORMAT):
            saved = {"format": _FORMAT, "gates": {}, "files": {}}
        self._gates: dict[str, list[_Gates]] = saved["gates"]
        self._files: dict[str, list[_FileFindings]] = saved["files"]
        stamps = self._stamp_store.load() if store is not None else None
        if isinstance(stamps, dict) and stamps.get("format") == _FORMAT:
            finder.stamps, finder.namings = stamps["stamps"], stamps["namings"]
        self._now = time.time()
        self.hits = 0
        self._changed = False  # whether this run learnt anything the store does not hold

    @cached_property
    def _summaries(self) -> dict:
        """Summaries of project functions by (function, gate): (summary, reads, used). Stored apart,
        and loaded only when something must be analysed."""
        saved = self._summary_store.load() if self.store is not None else None
        if not (isinstance(saved, dict) and saved.get("format") == _FORMAT):
            return {}
        return {
            key: (Summary(*summary) if summary is not None else None, reads, used)
            for key, (summary, reads, used) in saved["summaries"]
            .get(repr(sorted(self.seed_functions.items())), {})
            .items()
        }

    @property
    def _summary_store(self) -> Store:
        return self.store.part("summaries", marshal)

    @property
    def _stamp_store(self) -> Store:
        """The files' stamps and hashes (`ModuleFinder.stamps`), stored apart: they change when
        files are touched, the facts when they change."""
        return self.store.part("stamps", marshal)

    def renewed(self, finder: ModuleFinder) -> ProjectFacts:
        """Facts over a new view of the files (an edit in a language server's buffers) that keeps
        what this one learnt: each fact is still checked against the modules it read before it is
        reused."""
        summaries = dict(self._summaries)
        if "project" in self.__dict__:
            summaries.update(
                (key, (*known, self._now)) for key, known in self.project.summaries.items()
            )
        renewed = ProjectFacts(
            finder, self.seed_functions, None, summaries, self.parser, self.lean_parser
        )
        renewed._gates, renewed._files = self._gates, self._files
        return renewed

    @property
    def known_summaries(self) -> dict:
        """The summaries stored by earlier runs (for worker processes to start from)."""
        return self._summaries

    @cached_property
    def project(self) -> ProjectIndex:
        # libcst: only when something must be analysed
        from seedlint.analysis.project import ProjectIndex

        return ProjectIndex(
            self.finder,
            self.seed_functions,
            {key: (summary, reads) for key, (summary, reads, _) in self._summaries.items()},
            self.parser,
            self.lean_parser,
        )

    @property
    def project_if_set_up(self) -> ProjectIndex | None:
        """The project index, if a fact needed it (none is set up otherwise: it loads libcst)."""
        return self.__dict__.get("project")

    @property
    def errors(self) -> list[str]:
        """Modules the project index could not analyse (a seedlint bug)."""
        return (self.project.errors if "project" in self.__dict__ else []) + self._errors

    def news(self) -> News:
        """In a worker: the summaries, index errors, namings and stamps new since the last call (to
        hand to the parent, which stores them for the next run). A worker stores nothing itself: its
        finder's namings and stamps are handed over, not kept."""
        sent, reported = self._sent
        finder = self.finder
        news = News({}, [], finder.named, finder.stamped)
        finder.named, finder.stamped = {}, {}
        if "project" in self.__dict__:
            project = self.project
            # the summaries are kept in the order they were made, and none is removed: the new
            # ones are the last, found from the end (not by going through all at every file)
            summaries = project.summaries
            news.summaries.update(
                reversed(list(islice(reversed(summaries.items()), len(summaries) - sent)))
            )
            sent = len(summaries)
            news.errors.extend(project.errors[reported:])
            reported = len(project.errors)
        self._sent = (sent, reported)
        return news

    def absorb(self, news: News) -> None:
        """What a worker process computed: its summaries, namings and stamps are kept as this
        run's, its errors reported."""
        self._absorbed.update(news.summaries)
        self._errors.extend(news.errors)
        self.finder.named.update(news.named)
        self.finder.stamped.update(news.stamped)

    def _unchanged(self, reads: Mapping[str, Resolution]) -> bool:
        return all(self.finder.resolution(name) == resolution for name, resolution in reads.items())

    # ------------------------------------------------------------------ gates
    def gates(
        self,
        files: Iterable[Path],
        compute: Callable[[list[Path]], list[tuple[frozenset[bytes], dict, bool]]] | None = None,
        neighbours: bool = True,
    ) -> frozenset[bytes]:
        """The project's gates around `files` (with `neighbours=False`: of `files` alone): known
        ones reused, the others computed (by `compute`: a pool of processes, say)."""
        gates: set[bytes] = set()
        stale = []
        around = neighbourhood(files, self.finder.known_roots) if neighbours else files
        for file in around:
            known = next(
                (g for g in self._gates.get(os.path.abspath(file), ()) if self._unchanged(g.reads)),
                None,
            )
            if known is not None:
                known.used = self._now
                gates |= known.gates
            else:
                stale.append(file)
        computed = (
            compute(stale) if compute is not None else [self.computed_gates(file) for file in stale]
        )
        for file, (found, reads, failed) in zip(stale, computed):
            gates |= found
            if not failed:
                _keep(self._gates, os.path.abspath(file), _Gates(found, reads, self._now))
                self._changed = True
        return frozenset(gates)

    def computed_gates(self, file: Path) -> tuple[frozenset[bytes], dict[str, Resolution], bool]:
        """A module's gates, the modules read to find them, and whether the index failed on it."""
        # libcst: only when a gate must be computed
        from seedlint.analysis.programs import program_gates

        errors = len(self.project.errors)
        with self.project.recording() as reads:
            found = self.project.gates_of(file)
            try:
                found |= program_gates(self.project, file)
            except Exception as error:  # noqa: BLE001 - a bug here must not stop the run
                self.project.errors.append(
                    f"program analysis failed on {file}: {type(error).__name__}: {error}"
                )
        return found, reads, len(self.project.errors) > errors

    # ------------------------------------------------------------------ findings
    def findings(
        self, path: Path, settings: str, gates: frozenset[bytes]
    ) -> list[Diagnostic] | None:
        """The findings known for this file's bytes under these settings, or None (it must be
        linted). The file is read only when its stamp changed or the gates did (raises
        OSError)."""
        content = self.finder.content(path)
        for known in self._files.get(os.path.abspath(path), ()):
            if (
                known.content == content
                and known.settings == settings
                and (
                    known.gates == gates
                    or known.opened == opened_by(path, self.finder.read_bytes(path), gates)
                )
                and self._unchanged(known.reads)
            ):
                known.used = self._now
                self.hits += 1
                return [replace(diagnostic, path=path) for diagnostic in known.diagnostics]
        return None

    def remember(
        self,
        path: Path,
        fingerprint: Fingerprint,
        settings: str,
        gates: frozenset[bytes],
        diagnostics: list[Diagnostic],
        reads: Mapping[str, Resolution],
    ) -> None:
        """Keep a file's findings, with the modules its analysis read."""
        content, opened = fingerprint
        absolute = os.path.abspath(path)
        # the findings of older contents are of no use any more
        self._files[absolute] = [k for k in self._files.get(absolute, ()) if k.content == content]
        _keep(
            self._files,
            absolute,
            _FileFindings(
                content,
                settings,
                dict(reads),
                gates,
                opened,
                list(diagnostics),
                self._now,
            ),
        )
        self._changed = True

    # ------------------------------------------------------------------ saving
    def save(self) -> None:
        """Prune what is stale, and store the facts."""
        if self.store is not None:
            self._save_stamps()
        if self.store is None or not (self._changed or self.store.age() > _REFRESH_AFTER):
            return  # nothing new: the entries' last use is refreshed once a day, not on every run
        cutoff = self._now - _UNUSED_FOR
        files, gates = (
            {
                path: fresh
                for path, variants in kept.items()
                if (fresh := [known for known in variants if known.used >= cutoff])
                and os.path.isfile(path)
            }
            for kept in (self._files, self._gates)
        )
        self.store.save({"format": _FORMAT, "gates": gates, "files": files})
        # summaries change only in runs that analyse something
        if "project" in self.__dict__ or self._absorbed:
            summaries = {key: known for key, known in self._summaries.items() if known[2] >= cutoff}
            new = {
                **self._absorbed,
                **(self.project.summaries if "project" in self.__dict__ else {}),
            }
            summaries.update((key, (*known, self._now)) for key, known in new.items())
            plain = {
                key: (astuple(summary) if summary is not None else None, dict(reads), used)
                for key, (summary, reads, used) in summaries.items()
            }
            by_settings = {repr(sorted(self.seed_functions.items())): plain}
            self._summary_store.save({"format": _FORMAT, "summaries": by_settings})

    def _save_stamps(self) -> None:
        """Keep the stamps and namings this run found, when they are new (those of files it did
        not see are kept while the files are there)."""
        finder = self.finder
        # a naming already kept stays where it is: runs that alternate save nothing
        namings = {
            name: [found, *finder.namings.get(name, ())][:_VARIANTS]
            for name, found in finder.named.items()
            if found not in finder.namings.get(name, ())
        }
        namings = {**finder.namings, **namings}
        if namings == finder.namings and all(
            finder.stamps.get(path) == known for path, known in finder.stamped.items()
        ):
            return
        kept = {path: known for path, known in finder.stamps.items() if os.path.isfile(path)}
        self._stamp_store.save(
            {"format": _FORMAT, "stamps": {**kept, **finder.stamped}, "namings": namings}
        )


def _keep(kept: dict[str, list], path: str, entry: _Gates | _FileFindings) -> None:
    """Keep `entry` first among a file's variants (an older one that read the same first, dropped),
    at most `_VARIANTS` of them."""
    others = [known for known in kept.get(path, ()) if known.reads != entry.reads]
    kept[path] = [entry, *others][:_VARIANTS]
