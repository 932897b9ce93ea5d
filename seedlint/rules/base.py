"""The rule interface: a code, a name, byte patterns that gate parsing, and a check."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from seedlint.diagnostics import Fix

if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.context import FileContext

# A file that contains none of these bytes cannot call a seeding function (`seed(` covers
# `manual_seed(`, `random.seed(`, `set_seed(`, `random_seed(`...; `seed as` an aliased import;
# `Trainer(` a transformers Trainer, which seeds when constructed).
SEEDING_PATTERNS = (
    b"seed(", b"seed_all", b"seed_everything", b"seed_all_rng", b"seed as ", b"enable_full_determinism",
    b"enable_reproducibility", b"set_determinism", b"Trainer(",
)
# In a rule's patterns, stands for "any seeding spelling": SEEDING_PATTERNS, the configured
# `seed-functions` and the project's own seeding helpers (`init_seeds(`, `Trainer(`).
SEEDING = b"\x00seeding"


def calls_a_gate(data: bytes, gates: Iterable[bytes]) -> bool:
    """Whether the bytes call one of the project's seeding helpers (`init_seeds(`): its name as a whole
    word, not the tail of another (the gate `init(` is not in `__init__(`)."""
    for gate in gates:
        start = data.find(gate)
        while start != -1:
            before = data[start - 1:start]
            if not (before.isalnum() or before == b"_"):
                return True
            start = data.find(gate, start + 1)
    return False


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
    # The file must contain one of these (a tuple entry: all of its parts) for the rule to fire.
    patterns: ClassVar[tuple[bytes | tuple[bytes, ...], ...]] = (SEEDING,)

    def check(self, context: FileContext) -> Iterator[Finding]:
        raise NotImplementedError
