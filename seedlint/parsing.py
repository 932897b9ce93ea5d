"""Parsing a module, and where its nodes are: per top-level statement, so that a re-parse keeps what
an edit did not touch.

libcst's native parser is not given what it cannot take: a file over the size limit or with a line
over the length limit (generated data: libcst needs about 2 GB per MB of a one-line list) is refused
with the reason, and a file that nests deeply (brackets, chains of prefix operators) is first
compiled by CPython, whose parser fails cleanly where libcst's overflows its stack: what CPython
rejects is a syntax error.

A long text is given to libcst in pieces of top-level statements, put together into the module a
full parse gives: libcst's memory while it parses grows with the text it is given (0.8 GB for
torch's largest module, 1.4 MB), and what it frees is given back to the system.

libcst gives positions through a code generator that walks the whole module; a `Layout` runs it once
per top-level piece (header line, statement, footer line) and shifts the piece's positions by the
line it starts on. A `Reparser` (the language server's, which sees the same buffer edit after edit)
parses only the statements around an edit and reuses the others, nodes and positions alike; the
module it builds is the one a full parse gives (tested on random edits), and anything it cannot
vouch for falls back to the full parse.

A text the analysis only reads (another module of the project, or a linted file until a rule
finds something) is built from Python's own parser instead (`lean_parse`, `lean_tree`): five to
ten times faster, without its formatting.
"""

from __future__ import annotations

import bisect
import gc
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate
from pathlib import Path

import libcst as cst
from libcst._nodes.base import CSTNode
from libcst.metadata.position_provider import PositionProvidingCodegenState

from seedlint.lean_tree import lean_module
from seedlint.source import DEFAULT_LIMITS, ParseLimits, SourceText

_REMEMBERED_FILES = 16  # the buffers a reparser keeps the last parse of
# one parse at a time swaps libcst's node check out (the language server has threads)
_PARSING = threading.Lock()


@dataclass(frozen=True)
class _Piece:
    """A top-level node generated on its own: the lines it spans and its nodes' positions from its
    first line."""

    node: cst.CSTNode
    defaults: tuple[str, str]  # the module's indentation and newline it was generated with
    lines: int
    code: str
    ranges: dict  # node -> CodeRange, lines counted from 1 at the piece's first line
    owners: dict  # node -> this piece (merged into the layout's map from node to piece)


class _PositionSink:
    """Stands in for a metadata provider: libcst's codegen state writes into `_computed`."""

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, object] = {}


def _piece(node: cst.CSTNode, defaults: tuple[str, str]) -> _Piece:
    sink = _PositionSink()
    state = PositionProvidingCodegenState(
        default_indent=defaults[0], default_newline=defaults[1], provider=sink
    )
    node._codegen(state)
    piece = _Piece(node, defaults, state.line - 1, "".join(state.tokens), sink._computed, {})
    piece.owners.update(dict.fromkeys(piece.ranges, piece))
    return piece


class Layout:
    """A parsed module with its text, and the character span of any of its nodes (computed on first
    use)."""

    def __init__(
        self, module: cst.Module, source: SourceText, earlier: Layout | None = None
    ) -> None:
        self.module = module
        self.source = source
        self._earlier = earlier  # pieces of its nodes are reused from there

    @cached_property
    def pieces(self) -> list[_Piece]:
        module = self.module
        defaults = (module.default_indent, module.default_newline)
        known = {}
        if self._earlier is not None:
            known = {
                id(piece.node): piece
                for piece in self._earlier.pieces
                if piece.defaults == defaults
            }
            self._earlier = None
        pieces = []
        for node in (*module.header, *module.body, *module.footer):
            piece = known.get(id(node))
            pieces.append(
                piece if piece is not None and piece.node is node else _piece(node, defaults)
            )
        return pieces

    @cached_property
    def first_lines(self) -> dict[int, int]:
        """id(piece) -> the line it starts on."""
        lines, line = {}, 1
        for piece in self.pieces:
            lines[id(piece)] = line
            line += piece.lines
        return lines

    @cached_property
    def _owners(self) -> dict[cst.CSTNode, _Piece]:
        owners: dict[cst.CSTNode, _Piece] = {}
        for piece in self.pieces:
            owners.update(piece.owners)
        return owners

    @cached_property
    def first_indented(self) -> int:
        """The index of the first top-level statement with an indented block (the module's
        indentation is its)."""
        return next(
            (number for number, statement in enumerate(self.module.body) if _indents(statement)),
            len(self.module.body),
        )

    @cached_property
    def faithful(self) -> bool:
        """Whether the module's code is its text (libcst mangles lines that hold only a
        backslash)."""
        code, text = "".join(piece.code for piece in self.pieces), self.source.text
        if self.module.has_trailing_newline:
            return code == text
        return code.startswith(text) and code[len(text) :] in ("\n", "\r\n", "\r")

    def statement_starts(self) -> list[int]:
        """The offset each top-level statement starts at (its leading comment lines included)."""
        first = self.first_lines
        header = len(self.module.header)
        return [
            self.source.offset(first[id(piece)], 0)
            for piece in self.pieces[header : header + len(self.module.body)]
        ]

    def holds(self, node: cst.CSTNode) -> bool:
        """Whether the node is one of this module's."""
        return node is self.module or node in self._owners

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        """(start, end) character offsets of a node."""
        if node is self.module:
            return 0, len(self.source.text)
        piece = self._owners[node]
        code_range, first = piece.ranges[node], self.first_lines[id(piece)] - 1
        offset = self.source.offset
        return (
            offset(first + code_range.start.line, code_range.start.column),
            offset(first + code_range.end.line, code_range.end.column),
        )


# Past these, CPython compiles the file first: bracket depth (its own limit is 200); a line's length
# (a chain of prefix operators lives on one); lines that end in an operator (a chain spread over
# lines inside brackets). CPython refuses chains of a few thousand links; libcst recurses once per
# link and crashes further on.
_NESTING = 100
_LONG_LINE = 2000
_CONTINUED_LINES = 2500
_CONTINUING = (*"-+*/%&|^@.~\\", " not", " else", " and", " or", "lambda:")
_BRACKET_DEPTH = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")


class Unplaced(Exception):
    """A position was asked of a lean module (`LeanLayout`): its text must be parsed in full."""


class LeanLayout(Layout):
    """A lean module (`lean_parse`) with its text: a `Layout` without positions, which it has
    none of (asking for one, or for anything the positions come from, raises `Unplaced`)."""

    @property
    def pieces(self) -> list[_Piece]:  # type: ignore[override]
        raise Unplaced  # what `span`, `holds` and the statements' starts are read from

    @property
    def first_indented(self) -> int:  # type: ignore[override]
        raise Unplaced


class NotParsed(Exception):
    """A text refused before libcst sees it: the reason, where."""

    def __init__(self, message: str, row: int = 1, column: int = 0) -> None:
        super().__init__(message)
        self.message, self.row, self.column = message, row, column


def check_limits(text: str, limits: ParseLimits = DEFAULT_LIMITS) -> None:
    """Raise NotParsed for a text libcst must not be given."""
    # (a cheap bound first: UTF-8 takes at most 4 bytes a character)
    if len(text) * 4 > limits.file_size:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limits.file_size:
            raise NotParsed(
                f"not parsed: the file is {size:,} bytes, over `max-file-size` "
                f"({limits.file_size:,}); exclude it or raise the limit"
            )
    lines = text.split("\n" if "\n" in text or "\r" not in text else "\r")
    longest = max(map(len, lines))
    if longest > limits.line_length:
        row = next(number for number, line in enumerate(lines, 1) if len(line) == longest)
        raise NotParsed(
            f"not parsed: line {row} is {longest:,} characters long, over `max-line-length` "
            f"({limits.line_length:,}): generated data? exclude it or raise the limit",
            row,
        )
    brackets = _NOT_BRACKETS.sub("", text)
    if (
        (brackets and max(accumulate(map(_BRACKET_DEPTH.__getitem__, brackets))) > _NESTING)
        or longest > _LONG_LINE
        or sum(1 for line in lines if line.rstrip().endswith(_CONTINUING)) > _CONTINUED_LINES
    ):
        python_compiles(text)


def python_compiles(text: str) -> None:
    """Let CPython's parser judge a text (a deeply nested one: what it rejects libcst's might crash
    on); raises NotParsed with its message where it rejects it."""
    try:
        compile(text, "<seedlint>", "exec", 1024, dont_inherit=True)  # 1024: ast.PyCF_ONLY_AST
    except SyntaxError as error:
        raise NotParsed(
            f"SyntaxError: {error.msg}", error.lineno or 1, max((error.offset or 1) - 1, 0)
        ) from None
    except (RecursionError, MemoryError) as error:
        raise NotParsed(
            f"SyntaxError: too deeply nested to parse (Python's own parser gives up with "
            f"{type(error).__name__})"
        ) from None
    except ValueError as error:  # null bytes
        raise NotParsed(f"SyntaxError: {error}") from None


def syntax_tree(text: str) -> cst.Module:
    """libcst's parse of a text (a long one in pieces of top-level statements: `_in_pieces`)."""
    with _building():
        try:
            return (len(text) > 2 * _PIECE and _in_pieces(text)) or cst.parse_module(text)
        finally:
            if len(text) > _PIECE:
                _release_freed_memory()


def lean_parse(
    text: str, limits: ParseLimits = DEFAULT_LIMITS
) -> tuple[cst.Module, dict[cst.Call, int]] | None:
    """A module read but never edited or printed (another module of the project, a linted file
    until a rule finds something), built from Python's own parser (`lean_tree`), with the line each
    call starts on; None where libcst must parse it. Raises NotParsed for a text over the limits,
    as `parse` does."""
    check_limits(text, limits)
    with _building():
        return lean_module(text)


@contextmanager
def _building() -> Iterator[None]:
    """While a syntax tree is built: without re-checking its nodes, or collecting garbage.

    Every libcst node checks its fields when it is built (`__post_init__` calls `_validate`),
    which is for nodes a program builds: a parse builds only valid ones, and the check was a sixth
    of the parse's time. Nodes built outside a parse (by fixes) are still checked. A tree holds
    hundreds of thousands of objects and no cycles: the collector would only walk them, again and
    again, as they accumulate (a third of the parse's time on torch's `_inductor/ir.py`).
    """
    with _PARSING:
        checking = CSTNode.__dict__.get("__post_init__")
        if checking is not None:
            CSTNode.__post_init__ = _unchecked
        collecting = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            if collecting:
                gc.enable()
            if checking is not None:
                CSTNode.__post_init__ = checking


# libcst's native parser holds about 0.3 to 1 KB of memory per byte of the text it is given until
# it is done (0.8 GB for torch's largest module, 1.4 MB): a long text is given this much at a time
_PIECE = 64 * 1024
# where a top-level statement may start: a line's first character, not a space, a comment, a closing
# bracket or the clause of a compound statement
_MAY_START = re.compile(r"^(?![\s#)\]}]|else\b|elif\b|except\b|finally\b)", re.MULTILINE)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, where the C library has it (Linux's; not macOS's or Windows')."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # musl has none
        return None


def _release_freed_memory() -> None:
    """Give the memory the parser freed back to the system (glibc keeps it for the next allocation
    of the same kind, which Python's objects do not make: a process would keep the peak of its
    largest parse to its end). 20 ms after a parse of 1.4 MB that freed 0.35 GB."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _in_pieces(text: str) -> cst.Module | None:
    """The module a full parse gives, parsed in pieces of at least `_PIECE` characters that each
    start a top-level statement; None where only a full parse can tell.

    A cut is made before a line that follows a blank one; one that is not between two top-level
    statements (in a string, in brackets, after a decorator or a backslash) leaves a piece that does
    not parse. The comment and blank lines before a piece's first statement (the end of the piece
    before it) are that statement's leading lines, as in a full parse; pieces whose indentation or
    newlines differ are not put together."""
    cuts = [0]
    # the triple quotes of each kind before `counted`, each counted once: both are even at a cut,
    # so their parities are those of the piece since the last cut
    counted = doubles = singles = 0
    for match in _MAY_START.finditer(text, _PIECE):
        start = match.start()
        if (
            start - cuts[-1] >= _PIECE
            and len(text) - start >= _PIECE
            and text[text.rfind("\n", 0, start - 1) + 1 : start].isspace()
        ):
            doubles += text.count('"""', counted, start)
            singles += text.count("'''", counted, start)
            counted = start
            if doubles % 2 == 0 and singles % 2 == 0:
                cuts.append(start)
    if len(cuts) == 1:
        return None
    cuts.append(len(text))
    try:
        pieces = [cst.parse_module(text[start:end]) for start, end in zip(cuts, cuts[1:])]
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None
    newline = pieces[0].default_newline
    indents = {piece.default_indent for piece in pieces if any(map(_indents, piece.body))}
    if len(indents) > 1 or any(piece.default_newline != newline for piece in pieces):
        return None
    body: list[cst.BaseStatement] = []
    leading: list[cst.EmptyLine] = []  # the lines before the next piece's first statement
    for piece in pieces:
        if not piece.body:
            return None
        first = piece.body[0]
        if leading or piece.header and body:
            first = first.with_changes(
                leading_lines=[*leading, *piece.header, *first.leading_lines]
            )
        body += [first, *piece.body[1:]]
        leading = list(piece.footer)
    return pieces[0].with_changes(
        body=body,
        footer=pieces[-1].footer,
        default_indent=indents.pop() if indents else pieces[0].default_indent,
        has_trailing_newline=pieces[-1].has_trailing_newline,
    )


def _unchecked(node: CSTNode) -> None:
    """A node built by the parser: valid by construction."""


def parse(text: str, limits: ParseLimits = DEFAULT_LIMITS) -> Layout:
    """A full parse (raises NotParsed, or libcst's ParserSyntaxError)."""
    check_limits(text, limits)
    return Layout(syntax_tree(text), SourceText(text))


class Reparser:
    """Parses successive texts of the same files, re-parsing only the statements an edit touched."""

    def __init__(self) -> None:
        self._last: OrderedDict[str, Layout] = OrderedDict()

    def parse(self, path: Path, text: str, limits: ParseLimits = DEFAULT_LIMITS) -> Layout:
        check_limits(text, limits)
        key = os.path.abspath(path)
        last = self._last.get(key)
        layout = _reparsed(last, text) if last is not None else None
        if layout is None:
            # a text that does not parse leaves the last one that did to start from
            layout = parse(text, limits)
        self._last[key] = layout
        self._last.move_to_end(key)
        while len(self._last) > _REMEMBERED_FILES:
            self._last.popitem(last=False)
        return layout


def _common_prefix(first: str, second: str) -> int:
    low, high = 0, min(len(first), len(second))
    while low < high:  # slices compare in C: log(n) of them beat a character loop
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(first: str, second: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if first[len(first) - middle :] == second[len(second) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _indents(node: cst.CSTNode) -> bool:
    """Whether a top-level statement has an indented block (its first one sets the module's
    indentation)."""
    for child in node.children:
        if isinstance(child, cst.IndentedBlock):
            return True
        if isinstance(
            child,
            (
                cst.If,
                cst.Else,
                cst.ExceptHandler,
                cst.ExceptStarHandler,
                cst.Finally,
                cst.MatchCase,
            ),
        ) and _indents(child):
            return True
    return False


def _reparsed(last: Layout, text: str) -> Layout | None:
    """`text`'s layout from the last one, re-parsing from the statement before the edit to the
    statement after it (their neighbours decide which comment lines each owns); None where only a
    full parse can tell."""
    old, old_text = last.module, last.source.text
    if text == old_text:
        return Layout(old, SourceText(text), last)
    if not last.faithful:
        return None  # its statements' offsets are not the text's
    body = old.body
    starts = last.statement_starts()
    prefix = _common_prefix(old_text, text)
    suffix = _common_suffix(old_text, text, min(len(old_text), len(text)) - prefix)
    # the statement before the one holding the edit
    first_kept_after = bisect.bisect_right(starts, prefix) - 2
    if first_kept_after < 1:
        return None  # the edit is in the header or the first statements: parse it all
    chunk_start = starts[first_kept_after]
    unchanged_from = len(old_text) - suffix
    # one statement past the first untouched one
    after = bisect.bisect_left(starts, unchanged_from) + 1
    shift = len(text) - len(old_text)
    chunk_end = starts[after] + shift if after < len(body) else len(text)
    try:
        chunk = syntax_tree(text[chunk_start:chunk_end])
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None
    replaced = body[first_kept_after:after]
    if not chunk.body or chunk.default_newline != old.default_newline:
        return None
    if after < len(body) and chunk.footer:
        return None
    kept_indent = last.first_indented < first_kept_after
    new_indent = any(map(_indents, chunk.body))
    if not (
        chunk.default_indent == old.default_indent
        if new_indent
        else kept_indent or not any(map(_indents, replaced))
    ):
        return None
    first = chunk.body[0]
    if chunk.header:
        first = first.with_changes(leading_lines=[*chunk.header, *first.leading_lines])
    new_body = [*body[:first_kept_after], first, *chunk.body[1:], *body[after:]]
    tail = (
        {}
        if after < len(body)
        else {"footer": chunk.footer, "has_trailing_newline": chunk.has_trailing_newline}
    )
    return Layout(old.with_changes(body=new_body, **tail), SourceText(text), last)
