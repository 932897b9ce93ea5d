"""A source file as text: decoding, line endings, rows and columns of offsets (nodes' offsets:
`parsing`), and the limits on what may be parsed."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import cached_property

_CODING_RE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")


class SourceDecodeError(Exception):
    """The file's bytes cannot be decoded as Python source."""


def detect_encoding(data: bytes) -> str:
    """The encoding Python would use for these bytes (PEP 263, BOM)."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    for line in data.splitlines()[:2]:
        match = _CODING_RE.match(line)
        if match:
            name = match.group(1).decode("ascii")
            try:
                return codecs.lookup(name).name
            except LookupError as error:
                raise SourceDecodeError(f"unknown encoding {name!r} in coding cookie") from error
        if line.strip() and not line.lstrip().startswith(b"#"):
            break
    return "utf-8"


def decode_source(data: bytes) -> tuple[str, str]:
    """Decode file bytes to text, keeping line endings. Returns (text, encoding)."""
    encoding = detect_encoding(data)
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as error:
        raise SourceDecodeError(
            f"cannot decode byte {error.object[error.start]:#04x} at offset {error.start} as "
            f"{encoding}"
        ) from error


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based row and a 1-based column counted in code points."""

    row: int
    column: int


@dataclass(frozen=True)
class ParseLimits:
    """What a file may hold to be parsed (`max-file-size`, `max-line-length`)."""

    # bytes; libcst takes 0.42 GB for torch's largest module, 1.4 MB (its largest statement: 0.8 MB)
    file_size: int = 2 * 1024 * 1024
    line_length: int = 100_000  # characters


DEFAULT_LIMITS = ParseLimits()


def detect_newline(text: str) -> str:
    match = _NEWLINE_RE.search(text)
    return match.group(0) if match else "\n"


@dataclass
class SourceText:
    """Text of one file and the bookkeeping that maps nodes to rows, columns and offsets."""

    text: str
    encoding: str = "utf-8"

    @cached_property
    def newline(self) -> str:
        return detect_newline(self.text)

    @cached_property
    def line_starts(self) -> list[int]:
        starts = [0]
        starts.extend(match.end() for match in _NEWLINE_RE.finditer(self.text))
        return starts

    @cached_property
    def lines(self) -> list[str]:
        return _NEWLINE_RE.split(self.text)

    def offset(self, row: int, column: int) -> int:
        """Character offset of a 1-based row and 0-based column."""
        starts = self.line_starts
        if row > len(starts):
            return len(self.text)
        return starts[row - 1] + column

    def location(self, offset: int) -> Location:
        """1-based row and column of a character offset."""
        starts = self.line_starts
        low, high = 0, len(starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return Location(low + 1, offset - starts[low] + 1)

    def line_text(self, row: int) -> str:
        lines = self.lines
        return lines[row - 1] if 0 < row <= len(lines) else ""
