"""The rule interface: a code, a name, byte patterns that gate parsing, and a check."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from seedlint.diagnostics import Fix
from seedlint.gates import SEEDING

if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.context import FileContext

@dataclass
class Finding:
    """What a rule reports: the node to point at, the message, and an optional fix."""

    node: cst.CSTNode | None
    message: str
    fix: Fix | None = None
    help: str | None = None
    end_node: cst.CSTNode | None = None  # point from `node`'s start to this node's end
    span: tuple[int, int] | None = None  # character offsets, for findings that are not nodes (comments)
    generators: frozenset[str] = frozenset()  # the catalog generators it concerns (what verify compares)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and implement `check`."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    default_enabled: ClassVar[bool] = True
    fix_availability: ClassVar[str] = "none"  # "safe" | "unsafe" | "display-only" | "none"
    libraries: ClassVar[tuple[str, ...]] = ()  # what its page's example imports besides torch (for verify)
    # The first torch release without the problem (the rule is off when the target is that or newer).
    fixed_in_torch: ClassVar[tuple[int, int] | None] = None
    # The file must contain one of these (a tuple entry: all of its parts) for the rule to fire (`gates`).
    patterns: ClassVar[tuple[bytes | tuple[bytes, ...], ...]] = (SEEDING,)

    def check(self, context: FileContext) -> Iterator[Finding]:
        raise NotImplementedError
