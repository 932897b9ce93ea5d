"""seedlint's findings and fixes in LSP terms: ranges in the client's position encoding,
diagnostics, text edits and code actions. No protocol I/O here (`server.py` does that)."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types
from pygls.workspace import PositionCodec, ServerTextPosition

from seedlint.diagnostics import Diagnostic, Edit
from seedlint.noqa import with_noqa
from seedlint.pages import page_url
from seedlint.source import Location, SourceText

SOURCE = "seedlint"
FIX_ALL_KIND = "source.fixAll.seedlint"


class Positions:
    """Maps a linted text's code-point locations and offsets to client positions."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.source = SourceText(text)
        self.codec = codec
        self._lines = self.source.lines  # split where Python and LSP split lines: \n, \r\n, \r

    def at(self, location: Location) -> types.Position:
        line = location.row - 1
        # past the last line (a notebook cell's added newline): the end of the text
        if line >= len(self._lines):
            line = len(self._lines) - 1
            location = Location(line + 1, len(self._lines[line]) + 1)
        return self.codec.position_to_client_units(
            self._lines, ServerTextPosition(line, location.column - 1)
        )

    def at_offset(self, offset: int) -> types.Position:
        return self.at(self.source.location(offset))

    def range(self, start: Location, end: Location) -> types.Range:
        return types.Range(self.at(start), self.at(end))

    def edit(self, edit: Edit) -> types.TextEdit:
        return types.TextEdit(
            types.Range(self.at_offset(edit.start), self.at_offset(edit.end)), edit.content
        )

    def offset(self, position: types.Position) -> int:
        """The code-point offset of a client position."""
        line = min(position.line, len(self._lines) - 1)
        server = self.codec.position_from_client_units(
            self._lines, types.Position(line, position.character)
        )
        return self.source.offset(server.line + 1, server.character)


@dataclass(frozen=True)
class CellDocument:
    """A notebook cell as the client knows it: its own text document."""

    uri: str
    version: int | None
    positions: Positions


def lsp_diagnostic(
    diagnostic: Diagnostic, positions: Positions, cells: dict[int, CellDocument] | None = None
) -> types.Diagnostic:
    """A finding as an LSP diagnostic, its fix (if any) in `data` (in a notebook: as edits of its
    cells)."""
    data = None
    if diagnostic.fix is not None and diagnostic.fix.edits:
        edits = [
            {"start": edit.start, "end": edit.end, "content": edit.content}
            for edit in diagnostic.fix.edits
        ]
        if cells is not None and diagnostic.notebook is not None:
            edits = [
                {
                    "cell": change.text_document.uri,
                    "range": text_edit.range,
                    "content": text_edit.new_text,
                }
                for change in cell_edits(diagnostic, cells).document_changes
                for text_edit in change.edits
            ]
        data = {
            "fix": {
                "message": diagnostic.fix.message,
                "applicability": diagnostic.fix.applicability.value,
                "edits": edits,
            }
        }
    return types.Diagnostic(
        range=positions.range(diagnostic.start, diagnostic.end),
        message=diagnostic.message,
        severity=types.DiagnosticSeverity.Error
        if diagnostic.code == "SL000"
        else types.DiagnosticSeverity.Warning,
        code=diagnostic.code,
        code_description=types.CodeDescription(href=page_url(diagnostic.code)),
        source=SOURCE,
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code == "SL100" else None,
        data=data,
    )


def workspace_edit(
    uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    return documents_edit([(uri, version, edits)])


def documents_edit(
    changes: list[tuple[str, int | None, list[types.TextEdit]]],
) -> types.WorkspaceEdit:
    """Edits of several documents (a notebook's cells), each against its version."""
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri, version=version
                ),
                edits=edits,
            )
            for uri, version, edits in changes
        ]
    )


def cell_edits(diagnostic: Diagnostic, cells: dict[int, CellDocument]) -> types.WorkspaceEdit:
    """A notebook finding's fix as edits of the cells it changes (SL104's move: two cells)."""
    by_cell: dict[int, list[types.TextEdit]] = {}
    for edit, (start, end), number in zip(
        diagnostic.fix.edits, diagnostic.edit_locations, diagnostic.notebook.edit_cells
    ):
        by_cell.setdefault(number, []).append(
            types.TextEdit(cells[number].positions.range(start, end), edit.content)
        )
    return documents_edit(
        [(cells[number].uri, cells[number].version, edits) for number, edits in by_cell.items()]
    )


def fix_action(
    diagnostic: Diagnostic,
    lsp: types.Diagnostic,
    positions: Positions,
    uri: str,
    version: int | None,
    preferred: bool,
    cells: dict[int, CellDocument] | None = None,
) -> types.CodeAction:
    """The quick fix of one finding (an unsafe fix is offered, never preferred)."""
    safe = diagnostic.fix.applicability.value == "safe"
    title = f"{diagnostic.code}: {diagnostic.fix.message}" + ("" if safe else " (unsafe)")
    edit = (
        cell_edits(diagnostic, cells)
        if cells is not None and diagnostic.notebook is not None
        else workspace_edit(uri, version, [positions.edit(edit) for edit in diagnostic.fix.edits])
    )
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp],
        is_preferred=preferred and safe,
        edit=edit,
    )


def noqa_action(
    diagnostic: Diagnostic,
    lsp: types.Diagnostic,
    positions: Positions,
    uri: str,
    version: int | None,
) -> types.CodeAction:
    """ "Disable SLxxx for this line": the code added to the line's `# noqa`, or a `# noqa`
    added."""
    row = diagnostic.start.row
    line = positions.source.line_text(row)
    new = with_noqa(line, diagnostic.code)
    start, end = Location(row, 1), Location(row, len(line) + 1)
    edit = types.TextEdit(positions.range(start, end), new)
    return types.CodeAction(
        title=f"Disable {diagnostic.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp],
        edit=workspace_edit(uri, version, [edit]),
    )


def whole_text_edit(old: str, new: str, positions: Positions) -> types.TextEdit:
    """One edit that turns `old` into `new`: the span between their common prefix and suffix."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return positions.edit(Edit(prefix, len(old) - suffix, new[prefix : len(new) - suffix]))
