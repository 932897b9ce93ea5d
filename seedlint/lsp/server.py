"""`seedlint lsp`: findings, fixes and rule pages in the editor, on pygls 2.

Documents are linted from their unsaved text, off the event loop (one analysis thread), at once:
no fixed wait. While a document is analysed, the edits made meanwhile wait as one (the newest text
is analysed as soon as the analysis running ends, so typing fast queues no work), and a result for
a version already replaced is dropped, never shown. The project facts (summaries of other modules'
helpers, findings by content) live for the whole session, and open buffers win over the disk, so a
seeding helper in another file counts as it reads in the editor. When a file changes (its buffer,
once linted, or a watched file on disk), the open documents whose analysis read it are checked
again. Clients that pull diagnostics get them by pull
only; the others by push. A notebook (LSP 3.17 notebook sync) is linted as a whole, its code cells
as one program, and each cell gets its own diagnostics; a fix may edit several cells.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from seedlint import __version__
from seedlint.analysis.modules import ModuleFinder
from seedlint.config import CONFIG_FILES, ConfigError
from seedlint.diagnostics import Diagnostic
from seedlint.discovery import MissingPath, collect_files
from seedlint.lsp.convert import (
    FIX_ALL_KIND,
    CellDocument,
    Positions,
    documents_edit,
    fix_action,
    lsp_diagnostic,
    noqa_action,
    whole_text_edit,
)
from seedlint.noqa import LINE_NOQA
from seedlint.notebook import Notebook, notebook_text
from seedlint.pages import page_text
from seedlint.runner import CheckOptions, Runner
from seedlint.selection import UnknownSelector
from seedlint.source import detect_encoding

_LOG_LEVELS = {
    "error": types.MessageType.Error,
    "warning": types.MessageType.Warning,
    "info": types.MessageType.Info,
    "debug": types.MessageType.Log,
}
_CODE = re.compile(r"[A-Z]+[0-9]+")


@dataclass
class ClientSettings:
    """What the client may set (initializationOptions, workspace/didChangeConfiguration)."""

    select: list[str] | None = None
    extend_select: list[str] | None = None
    ignore: list[str] | None = None
    configuration: Path | None = None  # a config file used instead of those found (`--config`)
    fix_all: bool = True
    log_level: str = "info"

    @classmethod
    def parse(cls, raw: Any, current: ClientSettings | None = None) -> ClientSettings:
        """The settings from a client's object (`{"seedlint": {...}}` or the inner object); unknown
        keys are ignored."""
        settings = ClientSettings(**vars(current)) if current is not None else cls()
        if isinstance(raw, dict) and isinstance(raw.get("seedlint"), dict):
            raw = raw["seedlint"]
        if not isinstance(raw, dict):
            return settings
        for key, name in (
            ("select", "select"),
            ("extendSelect", "extend_select"),
            ("ignore", "ignore"),
        ):
            if isinstance(raw.get(key), list):
                setattr(settings, name, [str(code) for code in raw[key]])
            elif key in raw and raw[key] is None:  # unset: the configuration file's
                setattr(settings, name, None)
        if "configuration" in raw:
            given = raw["configuration"]
            settings.configuration = (
                Path(given).expanduser() if isinstance(given, str) and given else None
            )
        if isinstance(raw.get("fixAll"), bool):
            settings.fix_all = raw["fixAll"]
        if raw.get("logLevel") in _LOG_LEVELS:
            settings.log_level = raw["logLevel"]
        return settings


@dataclass
class Linted:
    """A document's findings for one version of its text (a notebook cell's: with its notebook's
    cells)."""

    version: int | None
    text: str
    positions: Positions
    findings: list[Diagnostic]
    diagnostics: list[types.Diagnostic]
    cells: dict[int, CellDocument] | None = None  # a cell's notebook: every cell, by number

    @property
    def snapshot(self) -> tuple:
        return self.version, self.text

    def publications(self, uri: str) -> list[tuple[str, int | None, list[types.Diagnostic]]]:
        return [(uri, self.version, self.diagnostics)]


@dataclass
class LintedNotebook:
    """A notebook's findings for one version of its cells, by cell."""

    version: int
    texts: tuple[str, ...]
    by_cell: dict[str, Linted]  # cell URI -> its findings

    @property
    def snapshot(self) -> tuple:
        return self.version, self.texts

    def publications(self, uri: str) -> list[tuple[str, int | None, list[types.Diagnostic]]]:
        return [
            (cell_uri, linted.version, linted.diagnostics)
            for cell_uri, linted in self.by_cell.items()
        ]


class SeedlintServer(LanguageServer):
    def __init__(self) -> None:
        python_cells = [types.NotebookCellLanguage(language="python")]
        super().__init__(
            "seedlint",
            __version__,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[
                    types.NotebookDocumentFilterWithCells(cells=python_cells, notebook="*")
                ],
                save=True,
            ),
        )
        self.settings = ClientSettings()
        self.linted: dict[str, Linted | LintedNotebook] = {}
        # uri -> the task linting it until its findings are of its newest text
        self.pending: dict[str, asyncio.Task] = {}
        # uri -> its file, edited: the other open documents are checked again once it is linted
        self._edited: dict[str, Path] = {}
        self._generation = 0  # moved on when settings change: analyses begun before are stale
        self._analysis = ThreadPoolExecutor(max_workers=1, thread_name_prefix="seedlint-analysis")
        self._runner: Runner | None = None
        self._config_stamp: tuple = ()
        self._frozen = (
            False  # whether what the first analysis left alive is out of the collector's sight
        )
        # the workspace's Python files, where a function's callers are looked for (walked once,
        # again when files are created or deleted)
        self._workspace_files: list[Path] | None = None

    # ------------------------------------------------------------ client facts
    @property
    def pulls(self) -> bool:
        """Whether the client pulls diagnostics (then they are never pushed)."""
        document = self.client_capabilities.text_document
        return document is not None and document.diagnostic is not None

    def log(self, level: str, message: str) -> None:
        if list(_LOG_LEVELS).index(level) <= list(_LOG_LEVELS).index(self.settings.log_level):
            self.window_log_message(
                types.LogMessageParams(type=_LOG_LEVELS[level], message=message)
            )

    # ------------------------------------------------------------ analysis (on the analysis thread)
    def _runner_for(self, path: Path) -> Runner:
        """The runner for the current settings and config files (rebuilt when either changed)."""
        given = self.settings.configuration
        stamp = _config_stamp(path) + ((_stamp(given),) if given is not None else ())
        if self._runner is None or stamp != self._config_stamp:
            options = CheckOptions(
                paths=[],
                select=self.settings.select,
                extend_select=self.settings.extend_select,
                ignore=self.settings.ignore,
                config=given,
                cache=False,
            )
            runner = Runner(options)
            if self._runner is not None:
                runner.facts = self._runner.facts  # what was learnt of the project stays
            self._runner, self._config_stamp = runner, stamp
        return self._runner

    def _finder(self, path: Path) -> ModuleFinder:
        unsaved = {}
        for uri, document in list(self.workspace.text_documents.items()):
            other = _path(uri)
            if other is not None:
                unsaved[os.path.abspath(other)] = _encoded(document.source)
        folders = [
            Path(to_fs_path(folder.uri))
            for folder in list(self.workspace.folders.values())
            if to_fs_path(folder.uri)
        ]
        finder = ModuleFinder.for_files([path], unsaved, folders)
        finder.project_files = [
            *self._project_files(path, folders),
            *(Path(other) for other in unsaved if not os.path.exists(other)),
        ]
        return finder

    def _project_files(self, path: Path, folders: list[Path]) -> list[Path]:
        if self._workspace_files is None:
            runner = self._runner_for(path)
            try:
                self._workspace_files = [
                    file
                    for file in collect_files(folders, runner.resolver, force_exclude=True)
                    if file.suffix == ".py"
                ]
            except (OSError, MissingPath):
                self._workspace_files = []
        return self._workspace_files

    def analyse(self, uri: str, text: str, version: int | None) -> Linted:
        path = _path(uri) or Path("untitled.py")
        if path.suffix == ".ipynb" and not text.lstrip().startswith("{"):
            # a notebook's cells as one Python text (jupyterlab-lsp's view of a notebook), not
            # its JSON: linted as the Python it is, where the notebook is
            path = self._notebook_of(path)
            path = path.with_name(f"{path.name}.py")
        positions = Positions(text, self.workspace.position_codec)
        try:
            result = self._runner_for(path).lint_buffer(path, _encoded(text), self._finder(path))
        except (ConfigError, UnknownSelector) as error:
            self.log("error", f"seedlint: {error}")
            return Linted(version, text, positions, [], [])
        for error in result.errors:
            self.log("error", error)
        diagnostics = [lsp_diagnostic(finding, positions) for finding in result.diagnostics]
        return Linted(version, text, positions, result.diagnostics, diagnostics)

    def _notebook_of(self, path: Path) -> Path:
        """Where the notebook of a jupyterlab-lsp document is: jupyter-lsp names it after the
        notebook, under the root's virtual documents folder (`.virtual_documents`, or
        JP_LSP_VIRTUAL_DIR), so the configuration and the modules beside the notebook apply."""
        root = self.workspace.root_path
        if not root:
            return path
        virtual = Path(root, os.environ.get("JP_LSP_VIRTUAL_DIR") or ".virtual_documents")
        try:
            return Path(root, path.relative_to(virtual))
        except ValueError:
            return path

    def _cells(self, uri: str) -> list[tuple[str, int | None, str, str]] | None:
        """A notebook's cells, in order, as (URI, version, cell type, text); None when it is not
        open."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            return None
        cells = []
        for cell in notebook.cells:
            document = self.workspace.get_text_document(cell.document)
            code = cell.kind == types.NotebookCellKind.Code and document.language_id in (
                None,
                "python",
            )
            cells.append(
                (cell.document, document.version, "code" if code else "markdown", document.source)
            )
        return cells

    def analyse_notebook(
        self, uri: str, version: int, cells: list[tuple[str, int | None, str, str]]
    ) -> LintedNotebook:
        path = _path(uri) or Path("untitled.ipynb")
        documents = {
            number: CellDocument(
                cell_uri, cell_version, Positions(text, self.workspace.position_codec)
            )
            for number, (cell_uri, cell_version, _, text) in enumerate(cells, start=1)
        }
        findings: dict[int, list[Diagnostic]] = {number: [] for number in documents}
        try:
            data = notebook_text((kind, text) for _, _, kind, text in cells).encode()
            result = self._runner_for(path).lint_buffer(path, data, self._finder(path))
        except (ConfigError, UnknownSelector) as error:
            self.log("error", f"seedlint: {error}")
        else:
            for error in result.errors:
                self.log("error", error)
            for finding in result.diagnostics:
                findings[finding.notebook.cell if finding.notebook is not None else 1].append(
                    finding
                )
        by_cell = {}
        for number, document in documents.items():
            diagnostics = [
                lsp_diagnostic(finding, document.positions, documents)
                for finding in findings[number]
            ]
            by_cell[document.uri] = Linted(
                document.version,
                cells[number - 1][3],
                document.positions,
                findings[number],
                diagnostics,
                documents,
            )
        return LintedNotebook(version, tuple(text for *_, text in cells), by_cell)

    def collect_garbage(self) -> None:
        """Free the reference cycles an analysis left, between two analyses rather than in a pause
        inside one (`serve` turns the automatic collector off). What the first analysis left alive
        (the libraries, the project's other modules) is frozen out of later collections, which then
        take milliseconds."""
        gc.collect()
        if not self._frozen:
            gc.freeze()
            self._frozen = True

    def fix_all(self, uri: str, linted: Linted) -> types.WorkspaceEdit | None:
        """The edit that applies every safe fix of a document (of a cell's whole notebook), None if
        none applies."""
        if linted.cells is None:
            path = _path(uri) or Path("untitled.py")
            result = self._runner_for(path).lint_buffer(
                path, _encoded(linted.text), self._finder(path), fix="safe"
            )
            if result.source is None or not result.fixed:
                return None
            return documents_edit(
                [
                    (
                        uri,
                        linted.version,
                        [whole_text_edit(linted.text, result.source.text, linted.positions)],
                    )
                ]
            )
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        cells = self._cells(notebook.uri) if notebook is not None else None
        if cells is None:
            return None
        path = _path(notebook.uri) or Path("untitled.ipynb")
        data = notebook_text((kind, text) for _, _, kind, text in cells).encode()
        result = self._runner_for(path).lint_buffer(path, data, self._finder(path), fix="safe")
        if result.program is None or not result.fixed:
            return None
        fixed = Notebook.parse(result.program.notebook.text).cells
        codec = self.workspace.position_codec
        return documents_edit(
            [
                (cell_uri, version, [whole_text_edit(text, new.source, Positions(text, codec))])
                for (cell_uri, version, _, text), new in zip(cells, fixed)
                if new.source != text
            ]
        )

    # ------------------------------------------------------------ scheduling (on the event loop)
    def schedule(self, uri: str, edited: Path | None = None) -> None:
        """Lint a document's newest text: at once, or, while an analysis of it runs, as soon as that
        one ends (edits made meanwhile wait as one). With `edited` (the document's file), the other
        open documents are checked again once it is linted (once however fast the user types)."""
        if edited is not None:
            self._edited[uri] = edited
        task = self.pending.get(uri)
        if task is None or task.done():
            self.pending[uri] = asyncio.ensure_future(self._lint_newest(uri))

    async def _lint_newest(self, uri: str) -> Linted | LintedNotebook | None:
        """Lint a document until the text analysed is still its text when the analysis ends; its
        findings (None: closed, or the analysis failed)."""
        while True:
            state = self._state(uri)
            if state[1] is None:
                return None
            linted = await self._analysed(uri)
            if self._state(uri) == state:
                break
        edited = self._edited.pop(uri, None)
        if edited is not None:
            self.recheck_others(edited)
        return linted

    def _snapshot(self, uri: str) -> tuple | None:
        """What a document's findings depend on: its version and text (a notebook's: its cells'
        texts)."""
        cells = self._cells(uri)
        if cells is not None:
            return self.workspace.get_notebook_document(notebook_uri=uri).version, tuple(
                text for *_, text in cells
            )
        document = self.workspace.text_documents.get(uri)
        return (document.version, document.source) if document is not None else None

    def _state(self, uri: str) -> tuple[int, tuple | None]:
        """What an analysis of a document must still match when it ends to be kept: the settings'
        generation and the document's snapshot."""
        return self._generation, self._snapshot(uri)

    async def current(self, uri: str) -> Linted | None:
        """The findings of a document's current text (after the check waiting for it, if any); a
        notebook cell's come from the check of its whole notebook."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            linted = await self.current(notebook.uri)
            return linted.by_cell.get(uri) if isinstance(linted, LintedNotebook) else None
        while True:
            snapshot = self._snapshot(uri)
            known = self.linted.get(uri)
            if snapshot is None:
                return None
            if known is not None and known.snapshot == snapshot:
                return known
            self.schedule(uri)
            task = self.pending[uri]
            try:
                linted = await asyncio.shield(task)
            except asyncio.CancelledError:
                if task.cancelled():  # closed meanwhile
                    return None
                raise
            if linted is None:  # closed, or the analysis failed
                return None

    async def _analysed(self, uri: str) -> Linted | LintedNotebook | None:
        """Lint a document's (a notebook's) current text off the event loop, publish (push clients),
        keep it."""
        state = self._state(uri)
        snapshot = state[1]
        if snapshot is None:
            return None
        cells = self._cells(uri)
        loop = asyncio.get_running_loop()
        try:
            if cells is not None:
                linted = await loop.run_in_executor(
                    self._analysis, self.analyse_notebook, uri, snapshot[0], cells
                )
            else:
                linted = await loop.run_in_executor(
                    self._analysis, self.analyse, uri, snapshot[1], snapshot[0]
                )
        except Exception as error:  # noqa: BLE001 - a seedlint bug must not take the server down
            self.log("error", f"seedlint failed on {uri}: {type(error).__name__}: {error}")
            return None
        loop.run_in_executor(self._analysis, self.collect_garbage)
        if self._state(uri) != state:
            return None  # closed, edited or set up again meanwhile: this result is already stale
        previous = self.linted.get(uri)
        self.linted[uri] = linted
        if (
            previous is not None
            and previous.snapshot[0] == snapshot[0]
            and previous.publications(uri) == linted.publications(uri)
        ):
            return linted  # checked again for a change elsewhere, and nothing changed here
        if not self.pulls:
            for target, version, diagnostics in linted.publications(uri):
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(
                        uri=target, diagnostics=diagnostics, version=version
                    )
                )
        return linted

    def recheck_others(self, changed: Path) -> None:
        """Check the other open documents again: those whose analysis read `changed` (or whose
        seeding gates it may change) get new findings; for the others, the project facts answers
        from memory."""
        changed_path = os.path.abspath(changed)
        others = [
            uri
            for uri in self.linted
            if _path(uri) is None or os.path.abspath(_path(uri)) != changed_path
        ]
        for uri in others:
            self.schedule(uri)
        if others and self.pulls:
            asyncio.ensure_future(self._refresh_after(others))

    async def _refresh_after(self, uris: list[str]) -> None:
        """Ask a pull client to pull again once the dependents are linted."""
        await asyncio.gather(
            *(self.pending[uri] for uri in uris if uri in self.pending), return_exceptions=True
        )
        workspace = self.client_capabilities.workspace
        if (
            workspace is not None
            and workspace.diagnostics is not None
            and workspace.diagnostics.refresh_support
        ):
            self.workspace_diagnostic_refresh(None)

    def forget(self, uri: str, shown: list[str]) -> None:
        """Stop checking a closed document and clear the diagnostics shown for it (`shown`: the
        documents they were published on: the document, or a notebook's cells)."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.linted.pop(uri, None)
        if not self.pulls:
            for target in shown:
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=target, diagnostics=[])
                )

    def forget_workspace_files(self) -> None:
        self._workspace_files = None

    def relint_all(self) -> None:
        self._generation += 1
        self._runner = None
        self.linted.clear()
        cells = {
            cell.document
            for notebook in list(self.workspace.notebook_documents.values())
            for cell in notebook.cells
        }
        for uri in [*self.workspace.text_documents, *self.workspace.notebook_documents]:
            if uri not in cells:
                self.schedule(uri)


server = SeedlintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: SeedlintServer, params: types.InitializeParams) -> None:
    ls.settings = ClientSettings.parse(params.initialization_options)


@server.feature(types.INITIALIZED)
async def initialized(ls: SeedlintServer, params: types.InitializedParams) -> None:
    watched = ls.client_capabilities.workspace
    if (
        watched is not None
        and watched.did_change_watched_files is not None
        and watched.did_change_watched_files.dynamic_registration
    ):
        patterns = ["**/*.py", *(f"**/{name}" for name in CONFIG_FILES)]
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in patterns]
        )
        try:
            await ls.client_register_capability_async(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="seedlint-watched-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=options,
                        )
                    ]
                )
            )
        except Exception as error:  # noqa: BLE001 - a client that refuses still gets diagnostics
            ls.log("warning", f"could not watch files: {error}")
    ls.log(
        "info",
        f"seedlint {__version__} language server ready ({'pull' if ls.pulls else 'push'} "
        "diagnostics)",
    )


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SeedlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SeedlintServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.schedule(uri, _path(uri))


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: SeedlintServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    path = _path(uri)
    if path is not None and path.name in CONFIG_FILES:
        ls.relint_all()
    else:
        ls.schedule(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SeedlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.forget(uri, [uri])
    path = _path(uri)
    if path is not None:
        ls.recheck_others(path)  # they now read the file from the disk


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def did_open_notebook(ls: SeedlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: SeedlintServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def did_save_notebook(ls: SeedlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: SeedlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.forget(params.notebook_document.uri, [cell.uri for cell in params.cell_text_documents])


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: SeedlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(change.type != types.FileChangeType.Changed for change in params.changes):
        ls.forget_workspace_files()  # a file came or went: walk the workspace again
    for change in params.changes:
        path = _path(change.uri)
        if path is None:
            continue
        if path.name in CONFIG_FILES:
            ls.relint_all()
            return
        if change.uri not in ls.workspace.text_documents:  # an open buffer wins over the disk
            ls.recheck_others(path)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(
    ls: SeedlintServer, params: types.DidChangeConfigurationParams
) -> None:
    ls.settings = ClientSettings.parse(params.settings, ls.settings)
    ls.relint_all()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(
    ls: SeedlintServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    ls.forget_workspace_files()
    ls.relint_all()  # helpers resolve under the folders


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(
        identifier="seedlint", inter_file_dependencies=True, workspace_diagnostics=False
    ),
)
async def diagnostic(
    ls: SeedlintServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    linted = await ls.current(params.text_document.uri)
    return types.RelatedFullDocumentDiagnosticReport(
        items=linted.diagnostics if linted is not None else []
    )


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[
            types.CodeActionKind.QuickFix,
            types.CodeActionKind.SourceFixAll,
            FIX_ALL_KIND,
        ]
    ),
)
async def code_action(ls: SeedlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    linted = await ls.current(uri)
    if linted is None:
        return []
    wanted = params.context.only
    actions: list[types.CodeAction] = []
    if wanted is None or any(kind == types.CodeActionKind.QuickFix for kind in wanted):
        actions += _quick_fixes(linted, params.range, uri)
    if ls.settings.fix_all and (
        wanted is None
        or any(
            kind in (types.CodeActionKind.SourceFixAll, FIX_ALL_KIND, types.CodeActionKind.Source)
            for kind in wanted
        )
    ):
        loop = asyncio.get_running_loop()
        edit = await loop.run_in_executor(ls._analysis, ls.fix_all, uri, linted)
        if edit is not None and ls.workspace.get_text_document(uri).source == linted.text:
            actions.append(
                types.CodeAction(
                    title="seedlint: fix all safely fixable findings", kind=FIX_ALL_KIND, edit=edit
                )
            )
    return actions


def _quick_fixes(linted: Linted, selected: types.Range, uri: str) -> list[types.CodeAction]:
    fixes, silencers = [], []
    for finding, diagnostic in zip(linted.findings, linted.diagnostics):
        if not _overlaps(diagnostic.range, selected):
            continue
        if finding.fix is not None and finding.fix.edits:
            fixes.append(
                fix_action(
                    finding,
                    diagnostic,
                    linted.positions,
                    uri,
                    linted.version,
                    preferred=True,
                    cells=linted.cells,
                )
            )
        if finding.code != "SL000":
            silencers.append(
                noqa_action(finding, diagnostic, linted.positions, uri, linted.version)
            )
    return fixes + silencers


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: SeedlintServer, params: types.HoverParams) -> types.Hover | None:
    linted = await ls.current(params.text_document.uri)
    if linted is None:
        return None
    position = params.position
    codes = [d.code for d in linted.diagnostics if _contains(d.range, position)]
    line = linted.positions.source.line_text(position.line + 1)
    offset = linted.positions.offset(position) - linted.positions.source.offset(
        position.line + 1, 0
    )
    for match in LINE_NOQA.finditer(line):
        if match.group("codes") and match.start("codes") <= offset <= match.end("codes"):
            for code in _CODE.finditer(match.group("codes")):
                if (
                    match.start("codes") + code.start()
                    <= offset
                    <= match.start("codes") + code.end()
                ):
                    codes.insert(0, code.group().upper())
    for code in dict.fromkeys(str(code) for code in codes):
        page = page_text(code)
        if page is not None:
            return types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=page)
            )
    return None


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line,
        b.start.character,
    ) <= (a.end.line, a.end.character)


def _contains(a: types.Range, position: types.Position) -> bool:
    return (
        (a.start.line, a.start.character)
        <= (position.line, position.character)
        <= (a.end.line, a.end.character)
    )


def _path(uri: str) -> Path | None:
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(path) if path else None


def _encoded(text: str) -> bytes:
    """An editor's text as the bytes of its file (its coding cookie honoured)."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        return text.encode(detect_encoding(data))
    except (LookupError, UnicodeError, SyntaxError):
        return data


def _config_stamp(path: Path) -> tuple:
    """The config files that may govern `path`, with their modification times: a change means
    reload."""
    stamp = []
    directory = path.absolute().parent
    while True:
        stamp += [found for name in CONFIG_FILES if (found := _stamp(directory / name))]
        if directory.parent == directory:
            return tuple(stamp)
        directory = directory.parent


def _stamp(file: Path) -> tuple[str, int] | None:
    """A file with its modification time, None when it cannot be read."""
    try:
        return str(file), file.stat().st_mtime_ns
    except OSError:
        return None


def serve() -> None:
    # pygls reports a message it cannot read to the client (window/showMessage); its traceback on
    # stderr would only alarm whoever reads the editor's log.
    logging.getLogger("pygls").setLevel(logging.CRITICAL)
    gc.disable()  # the server collects after each analysis (`collect_garbage`)
    server.start_io()
