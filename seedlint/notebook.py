"""Jupyter notebooks: their code cells as one program (what "Run all" executes), and the way back
from that program's findings and fixes to the cells and to the notebook's own JSON text."""

from __future__ import annotations

import ast
import bisect
import codecs
import functools
import json
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from seedlint.diagnostics import CellPlace, Diagnostic, Edit, apply_edits
from seedlint.source import Location, SourceText

NOTEBOOK_SUFFIX = ".ipynb"
# Cell magics whose body is Python, run by IPython (as ruff lints them); any other `%%` cell is not
# Python.
PYTHON_CELL_MAGICS = frozenset(
    {"capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit"}
)
# A magic line, in the program: a statement that does nothing, the original line kept in a comment.
_MAGIC_MARK = "seedlint-magic:"
_MAGIC_LINE = re.compile(rf"^[ \t]*pass  # {_MAGIC_MARK}(.*)$")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# IPython's line escapes: magics, shell, help, autocall
_ESCAPE_PREFIXES = (
    "%",
    "!",
    "?",
    "/",
    ",",
    ";",
)
# IPython's automagic (on by default) runs a line magic written without its `%` (`pip install ..`,
# `cd data`) when the line is not Python.
_AUTOMAGIC = re.compile(
    r"^[ \t]*(?:pip|conda|mamba|cd|ls|pwd|env|set_env|load_ext|reload_ext|matplotlib|run|mkdir"
    r"|cat|rm|cp|mv|time|timeit|pinfo|who|whos)[ \t]+"
    r"(?!=|\(|\[|,|:|[-+*/%<>!&|^@]=?[ \t]|(?:in|is|and|or|if|not)[ \t])\S"
)
# `files = !ls`, `(out, err) = %sx ls`: a magic's output assigned (no Python expression starts with
# `!` or `%`).
_TARGETS = r"[A-Za-z_*][\w.\[\], \t*]*"  # `files`, `a, *b`, `d[k]`: what an assignment can bind
_ASSIGNED_MAGIC = re.compile(
    rf"^[ \t]*(?:{_TARGETS}|[(\[][ \t]*{_TARGETS}[)\]][ \t]*)(?<![=!<>:+\-*/%&|^@])=[ \t]*[!%]"
)


def is_notebook(path: Path) -> bool:
    return path.suffix.lower() == NOTEBOOK_SUFFIX


@functools.lru_cache(maxsize=4)
def read_program(data: bytes) -> Program:
    """A notebook file's code cells as one program, read once for the same bytes (an editor's
    notebook is read for its imports, then linted). Raises NotebookError."""
    return Notebook.read(data).program()


class NotebookError(Exception):
    """The file is not a notebook seedlint can read (not JSON, not nbformat 4)."""


@dataclass(frozen=True)
class Cell:
    """One cell of a notebook, as stored in the file."""

    number: int  # 1-based, every cell counted (markdown too), as ruff and Jupyter show it
    kind: str  # "code", "markdown", "raw"
    source: str
    span: tuple[int, int]  # where its `source` value lies in the file's text
    as_lines: bool  # stored as a list of lines (nbformat's way) rather than one string


class Notebook:
    """A notebook file's text and its cells."""

    def __init__(self, text: str, cells: list[Cell], python: bool, bom: bool) -> None:
        self.text = text
        self.cells = cells
        self.python = python  # the kernel's language is Python (else no cell is linted)
        self.bom = bom

    @classmethod
    def read(cls, data: bytes) -> Notebook:
        try:
            return cls.parse(data.decode("utf-8-sig"), data.startswith(codecs.BOM_UTF8))
        except UnicodeDecodeError as error:
            raise NotebookError(f"not a notebook: {error}") from error

    @classmethod
    def parse(cls, text: str, bom: bool = False) -> Notebook:
        try:
            document = json.loads(text)
        except ValueError as error:
            raise NotebookError(f"not a notebook: {error}") from error
        if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
            version = document.get("nbformat") if isinstance(document, dict) else None
            raise NotebookError(
                f"not an nbformat 4 notebook (nbformat {version})"
                if version not in (None, 4)
                else "not a notebook: no list of cells"
            )
        spans = _source_spans(text)
        cells = []
        for number, (cell, span) in enumerate(zip(document["cells"], spans), start=1):
            if not isinstance(cell, dict):
                raise NotebookError(f"cell {number} is not an object")
            source = cell.get("source", "")
            if isinstance(source, list) and all(isinstance(line, str) for line in source):
                cells.append(Cell(number, str(cell.get("cell_type")), "".join(source), span, True))
            elif isinstance(source, str):
                cells.append(Cell(number, str(cell.get("cell_type")), source, span, False))
            else:
                raise NotebookError(
                    f"cell {number}: its source is neither a string nor a list of strings"
                )
        metadata = document.get("metadata")
        language = _language(metadata if isinstance(metadata, dict) else {})
        return cls(text, cells, language in (None, "python"), bom)

    def encoded(self) -> bytes:
        return (codecs.BOM_UTF8 if self.bom else b"") + self.text.encode("utf-8")

    def program(self, left_out: frozenset[int] = frozenset()) -> Program:
        """The Python code cells, in order, as one program (without the cells numbered in
        `left_out`)."""
        pieces = [
            _piece(cell)
            for cell in self.cells
            if cell.kind == "code" and self.python and cell.number not in left_out
        ]
        return Program(self, [piece for piece in pieces if piece is not None], left_out)

    def with_sources(self, sources: dict[int, str]) -> str:
        """The file's text with new sources for some cells (by number): only their `source` values
        change."""
        text = self.text
        for number in sorted(sources, reverse=True):
            cell = self.cells[number - 1]
            start, end = cell.span
            text = text[:start] + self._encoded(cell, sources[number]) + text[end:]
        return text

    def _encoded(self, cell: Cell, source: str) -> str:
        """A cell's new source as JSON, written the way the file writes it."""
        ascii_only = self.text.isascii()
        if not cell.as_lines:
            return json.dumps(source, ensure_ascii=ascii_only)
        items = [
            json.dumps(line, ensure_ascii=ascii_only) for line in source.splitlines(keepends=True)
        ]
        old = self.text[cell.span[0] : cell.span[1]]
        if not items:
            return "[]"
        layout = _list_layout(self.text, cell.span, old)
        if layout is None:
            separator = ", " if ", " in old or old in ("[]", "[ ]") else ","
            return "[" + separator.join(items) + "]"
        item_indent, close_indent = layout
        return "[" + "".join(f"{item_indent}{item}," for item in items)[:-1] + close_indent + "]"

    def file_location(self, number: int, offset: int) -> Location:
        """Where a character of a cell's source (its offset in the cell) is in the file's text."""
        cell = self.cells[number - 1]
        return self._file.location(_raw_offset(self.text, cell.span, offset))

    @cached_property
    def _file(self) -> SourceText:
        return SourceText(self.text)


def notebook_text(cells: Iterable[tuple[str, str]]) -> str:
    """An nbformat 4 notebook of (cell type, source) pairs: an editor's open notebook, as the linter
    reads it."""
    return json.dumps(
        {
            "cells": [
                {"cell_type": kind, "metadata": {}, "source": source} for kind, source in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def _language(metadata: dict) -> str | None:
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            return value[field].lower()
    return None


# ---------------------------------------------------------------------------------------------- the
# program
@dataclass(frozen=True)
class Piece:
    """A code cell's text as it stands in the program: magic lines made into `pass`, and a final
    newline."""

    cell: Cell
    program_text: str
    # offsets in program_text of the lines that were magics
    magic_spans: tuple[tuple[int, int], ...]
    # the indentation IPython removes from every line of a cell whose first line is indented
    dedent: int = 0


def _piece(cell: Cell) -> Piece | None:
    """A code cell's piece of the program; None when the cell is not Python (a `%%bash` cell)."""
    text = cell.source
    first = text.lstrip(" \t\r\n")
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        if name not in PYTHON_CELL_MAGICS:
            return None
    lines = _NEWLINE.split(text)
    endings = _NEWLINE.findall(text) + [""]
    first_row = next((row for row, line in enumerate(lines) if line.strip()), 0)
    lines, dedent = _dedented(lines, first_row)
    out, spans, position = [], [], 0
    continued_indent = None
    for row, (line, ending, (starts, code)) in enumerate(zip(lines, endings, _scanned(lines))):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if continued_indent is not None or (starts and _is_magic(line, code, row == first_row)):
            block_indent = indent if continued_indent is None else continued_indent
            line = f"{block_indent}pass  # {_MAGIC_MARK}{line}"
            spans.append((position, position + len(line)))
            continued_indent = block_indent if line.endswith("\\") else None
        out.append(line + ending)
        position += len(line) + len(ending)
    program_text = "".join(out)
    if not program_text.endswith(("\n", "\r")):
        program_text += "\n"
    return Piece(cell, program_text, tuple(spans), dedent)


def _dedented(lines: list[str], first_row: int) -> tuple[list[str], int]:
    """The lines without the indentation of the first one when every line has it (IPython's
    `leading_indent` cleanup runs such a cell), and its width."""
    first = lines[first_row] if lines else ""
    prefix = first[: len(first) - len(first.lstrip(" \t"))]
    if not prefix or not all(line.startswith(prefix) for line in lines if line.strip()):
        return lines, 0
    return [line[len(prefix) :] if line.strip() else line for line in lines], len(prefix)


def _is_magic(line: str, code: str, first_line: bool) -> bool:
    """Whether a line that starts a statement is IPython syntax (`code`: the line without its
    comment)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return False
    if stripped.startswith("%%"):
        return first_line
    if stripped.startswith(_ESCAPE_PREFIXES) or _ASSIGNED_MAGIC.match(line):
        return True
    if _AUTOMAGIC.match(line) and not _compiles(code.strip()):
        return True
    return code.rstrip().endswith("?")  # `obj?`, `obj??`: help


def _compiles(line: str) -> bool:
    try:
        compile(line, "<cell>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def _scanned(lines: Sequence[str]) -> Iterable[tuple[bool, str]]:
    """For each line: whether it begins a statement (not inside brackets, a string or a continued
    line), and its text up to its comment (a `#` outside strings)."""
    depth, quote, continued = 0, None, False
    for line in lines:
        starts = depth == 0 and quote is None and not continued
        index, continued, code_end = 0, False, len(line)
        while index < len(line):
            char = line[index]
            if quote:
                if char == "\\":
                    index += 1
                elif line.startswith(quote, index):
                    index += len(quote) - 1
                    quote = None
            elif char in "'\"":
                quote = char * 3 if line.startswith(char * 3, index) else char
                index += len(quote) - 1
            elif char == "#":
                code_end = index
                break
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(depth - 1, 0)
            elif char == "\\" and index == len(line) - 1:
                continued = True
            index += 1
        if quote is not None and len(quote) == 1:
            quote = (
                None  # a one-quote string ends with its line (unterminated: a syntax error anyway)
            )
        yield starts, line[:code_end]


def _unmagicked(program_text: str) -> str:
    """A piece's text with its magic lines back as they were."""
    lines = _NEWLINE.split(program_text)
    endings = _NEWLINE.findall(program_text) + [""]
    restored = []
    for line, ending in zip(lines, endings):
        match = _MAGIC_LINE.match(line)
        restored.append((match.group(1) if match else line) + ending)
    return "".join(restored)


class Program:
    """A notebook's Python code cells as one text, and where each cell lies in it."""

    def __init__(
        self, notebook: Notebook, pieces: list[Piece], left_out: frozenset[int] = frozenset()
    ) -> None:
        self.notebook = notebook
        self.pieces = pieces
        self.left_out = left_out  # the cells left out of the program (they do not parse)
        self.text = "".join(piece.program_text for piece in pieces)
        self.starts = []
        position = 0
        for piece in pieces:
            self.starts.append(position)
            position += len(piece.program_text)
        self.ends = self.starts[1:] + [position]

    @cached_property
    def source(self) -> SourceText:
        return SourceText(self.text)

    def _index(self, offset: int) -> int:
        """The piece holding an offset (one at a piece's start belongs to that piece)."""
        return max(bisect.bisect_right(self.starts, offset) - 1, 0)

    # ---------------------------------------------------------------------------------- syntax
    # errors
    def unparsable(self) -> list[tuple[Piece, SyntaxError]]:
        """The cells CPython cannot compile on their own, with its error."""
        bad = []
        for piece in self.pieces:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    compile(
                        piece.program_text,
                        "<cell>",
                        "exec",
                        ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                        dont_inherit=True,
                    )
                except SyntaxError as error:
                    bad.append((piece, error))
                except (ValueError, RecursionError, MemoryError) as error:
                    bad.append((piece, SyntaxError(str(error))))
        return bad

    def without(self, pieces: Iterable[Piece]) -> Program:
        return self.notebook.program(self.left_out | {piece.cell.number for piece in pieces})

    def error_location(self, piece: Piece, error: SyntaxError) -> tuple[int, int]:
        """The program row and 0-based column of a cell's syntax error."""
        first_row = self.source.location(self.starts[self.pieces.index(piece)]).row
        return first_row + (error.lineno or 1) - 1, max((error.offset or 1) - 1, 0)

    # ---------------------------------------------------------------------------------- fixes
    def keeps(self, edits: Sequence[Edit]) -> bool:
        """Whether each edit stays inside one cell and off its magic lines (else the fix is not
        applied)."""
        for edit in edits:
            index = self._index(edit.start)
            if edit.end > self.ends[index] or self.pieces[index].dedent:
                return False  # across cells, or in a cell whose lines lost their indentation
            start = self.starts[index]
            # Overlapping a magic line, or adding to its end, would change the magic.
            if any(
                edit.start - start <= magic_end and edit.end - start > magic_start
                for magic_start, magic_end in self.pieces[index].magic_spans
            ):
                return False
        return True

    def edited(self, edits: Sequence[Edit]) -> Program:
        """The program of the notebook with the edits applied cell by cell (each edit inside one
        cell: `keeps`).

        Raises NotebookError when the cells' new text would not read back as this program (a bug to
        report).
        """
        by_piece: dict[int, list[Edit]] = {}
        for edit in dict.fromkeys(edits):
            index = self._index(edit.start)
            start = self.starts[index]
            by_piece.setdefault(index, []).append(
                Edit(edit.start - start, edit.end - start, edit.content)
            )
        sources, expected = {}, []
        for index, piece in enumerate(self.pieces):
            if index not in by_piece:
                expected.append(piece.program_text)
                continue
            program_text = apply_edits(piece.program_text, by_piece[index])
            text = _unmagicked(program_text)
            if not piece.cell.source.endswith(("\n", "\r")) and text.endswith("\n"):
                text = text[:-1]  # the newline the program added after the cell's last line
            sources[piece.cell.number] = text
            expected.append(
                program_text if program_text.endswith(("\n", "\r")) else program_text + "\n"
            )
        program = Notebook.parse(self.notebook.with_sources(sources), self.notebook.bom).program(
            self.left_out
        )
        if [piece.program_text for piece in program.pieces] != expected:
            raise NotebookError("the fixed cells do not read back as the fixed program")
        return program

    # ---------------------------------------------------------------------------------- locations
    def cell_location(self, location: Location, within: int | None = None) -> tuple[int, Location]:
        """A program location as (cell number, location in the cell); `within`: counted in that
        piece (the end of a span that ends where the next cell starts)."""
        if not self.pieces:
            return 1, location
        index = (
            self._index(self.source.offset(location.row, location.column - 1))
            if within is None
            else within
        )
        first_row = self.source.location(self.starts[index]).row
        piece = self.pieces[index]
        return piece.cell.number, Location(
            location.row - first_row + 1, location.column + piece.dedent
        )

    def _piece_of(self, location: Location) -> int:
        return self._index(self.source.offset(location.row, location.column - 1))

    def in_program(self, diagnostic: Diagnostic) -> Diagnostic:
        """A placed finding back on the program's rows (what a run of the program reports)."""
        index = next(
            i
            for i, piece in enumerate(self.pieces)
            if piece.cell.number == diagnostic.notebook.cell
        )
        shift = self.source.location(self.starts[index]).row - 1
        return replace(
            diagnostic,
            start=Location(diagnostic.start.row + shift, diagnostic.start.column),
            end=Location(diagnostic.end.row + shift, diagnostic.end.column),
            notebook=None,
        )

    def place(self, diagnostic: Diagnostic) -> Diagnostic:
        """A program finding placed in its cell: rows counted in the cell, its cell and file
        location added."""
        index = self._piece_of(diagnostic.start)
        number, start = self.cell_location(diagnostic.start, index)
        _, end = self.cell_location(diagnostic.end, index)
        edits = []
        for first, last in diagnostic.edit_locations:
            edit_index = self._piece_of(first)
            edits.append(
                (self.cell_location(first, edit_index), self.cell_location(last, edit_index))
            )
        cell = self.notebook.cells[number - 1] if number <= len(self.notebook.cells) else None
        where = SourceText(cell.source if cell is not None else "")
        start, end = _within(start, where), _within(end, where)
        file_start, file_end = (
            self.notebook.file_location(number, where.offset(location.row, location.column - 1))
            if cell is not None
            else location
            for location in (start, end)
        )
        edit_locations = tuple(
            (
                _within(first[1], self._cell_text(first[0])),
                _within(last[1], self._cell_text(first[0])),
            )
            for first, last in edits
        )
        return replace(
            diagnostic,
            start=start,
            end=end,
            edit_locations=edit_locations,
            notebook=CellPlace(number, file_start, file_end, tuple(first[0] for first, _ in edits)),
        )

    def _cell_text(self, number: int) -> SourceText:
        return SourceText(self.notebook.cells[number - 1].source)


def _within(location: Location, cell: SourceText) -> Location:
    """A location in a cell's text: past its last line (the newline the program added) is the end of
    that line."""
    rows = len(cell.lines)
    if location.row <= rows:
        return location
    return Location(rows, len(cell.lines[-1]) + 1)


# ---------------------------------------------------------------------------------------------- the
# JSON text
def _skip(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()


def _members(text: str, position: int) -> Iterable[tuple[str, int, int]]:
    """The (key, value start, value end) of the JSON object starting at `position`."""
    decoder = json.JSONDecoder()
    position = _skip(text, position + 1)
    while text[position] != "}":
        key, position = json.decoder.scanstring(text, position + 1)
        position = _skip(text, _skip(text, position) + 1)  # past the colon
        _, end = decoder.raw_decode(text, position)
        yield key, position, end
        position = _skip(text, end)
        if text[position] == ",":
            position = _skip(text, position + 1)


def _elements(text: str, position: int) -> Iterable[tuple[int, int]]:
    """The (start, end) of each value of the JSON array starting at `position`."""
    decoder = json.JSONDecoder()
    position = _skip(text, position + 1)
    while text[position] != "]":
        _, end = decoder.raw_decode(text, position)
        yield position, end
        position = _skip(text, end)
        if text[position] == ",":
            position = _skip(text, position + 1)


def _source_spans(text: str) -> list[tuple[int, int]]:
    """Where each cell's `source` value lies in a notebook's (valid) JSON text."""
    spans = []
    for key, start, _ in _members(text, _skip(text, 0)):
        if key != "cells":
            continue
        for cell_start, cell_end in _elements(text, start):
            source = (
                [
                    (value_start, value_end)
                    for name, value_start, value_end in _members(text, cell_start)
                    if name == "source"
                ]
                if text[cell_start] == "{"
                else []
            )
            spans.append(source[-1] if source else (cell_end, cell_end))
    return spans


def _list_layout(text: str, span: tuple[int, int], old: str) -> tuple[str, str] | None:
    """The whitespace before each item and before the `]` of a multi-line list of lines, or None
    (inline)."""
    if "\n" in old or "\r" in old:
        items = list(_elements(text, span[0]))
        if items:
            return text[span[0] + 1 : items[0][0]], text[items[-1][1] : span[1] - 1]
    line_start = max(text.rfind("\n", 0, span[0]), text.rfind("\r", 0, span[0])) + 1
    if line_start == 0:
        return None
    key_indent = text[
        line_start : line_start + len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))
    ]
    first_key = _WHITESPACE.match(text, text.index("{") + 1).group(0)
    unit = first_key.lstrip("\r\n")
    newline = "\r\n" if "\r\n" in first_key else "\n"
    return newline + key_indent + unit, newline + key_indent


def _raw_offset(text: str, span: tuple[int, int], offset: int) -> int:
    """The position in the file's text of the character at `offset` of a source value (string or
    list)."""
    start = span[0]
    strings = [span] if text[start] == '"' else list(_elements(text, start))
    for string_start, string_end in strings:
        position = string_start + 1
        while position < string_end - 1:
            if offset == 0:
                return position
            if text[position] == "\\":
                if text[position + 1] == "u":
                    unit = int(text[position + 2 : position + 6], 16)
                    pair = 0xD800 <= unit < 0xDC00 and text.startswith("\\u", position + 6)
                    position += 12 if pair else 6
                else:
                    position += 2
            else:
                position += 1
            offset -= 1
    return strings[-1][1] - 1 if strings else start
