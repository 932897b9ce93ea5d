"""The rule interface: a code, a name, byte patterns that gate parsing, and a check."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from seedlint.diagnostics import Fix
from seedlint.gates import SEEDING, Part

if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.context import FileContext


class Probe(str, Enum):
    """The run-time evidence `seedlint verify` looks for to confirm a rule's finding
    (`verify.probe`)."""

    RUN_TO_RUN = "run-to-run"  # a draw of the finding's generators differs between two fresh runs
    OUTPUT_RUN_TO_RUN = (
        "output-run-to-run"  # the draws or what the program prints differ between two runs
    )
    EPOCH_ORDER = "epoch-order"  # a DistributedSampler yields the same order in consecutive epochs
    WORKER_DUPLICATION = "worker-duplication"  # two batches of a multi-worker loader are identical
    SEED_SENSITIVITY = (
        "seed-sensitivity"  # with every seed shifted, a generator's draws do not change
    )
    HASH_ORDER = "hash-order"  # the output differs between two `PYTHONHASHSEED` values
    CHILD_PROCESSES = "child-processes"  # a spawned process's draws differ between two runs
    EVAL_MODE_DRAW = "eval-mode-draw"  # dropout draws while its module is in eval mode
    REPLAY = "replay"  # the draws after a seeding call repeat those after the one before it
    # run again after being stopped at its first checkpoint, the program draws differently from
    # the run never stopped
    RESUME = "resume"


@dataclass
class Finding:
    """What a rule reports: the node to point at, the message, and an optional fix."""

    node: cst.CSTNode | None
    message: str
    fix: Fix | None = None
    help: str | None = None
    end_node: cst.CSTNode | None = None  # point from `node`'s start to this node's end
    span: tuple[int, int] | None = (
        None  # character offsets, for findings that are not nodes (comments)
    )
    # the catalog generators it concerns (what verify compares)
    generators: frozenset[str] = frozenset()


class Rule:
    """Base class of every rule. Subclasses set the class attributes and implement `check`."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    default_enabled: ClassVar[bool] = True
    fix_availability: ClassVar[str] = "none"  # "safe" | "unsafe" | "display-only" | "none"
    libraries: ClassVar[
        tuple[str, ...]
    ] = ()  # what its page's example imports besides torch (for verify)
    # How `seedlint verify` confirms a finding at run time (None: it cannot, the finding stays
    # static), and whether that takes a CUDA device.
    probe: ClassVar[Probe | None] = None
    needs_cuda: ClassVar[bool] = False
    # The first torch release without the problem (the rule is off when the target is that or
    # newer).
    fixed_in_torch: ClassVar[tuple[int, int] | None] = None
    # The file must contain one of these (a tuple entry: all of its parts; a regular expression:
    # a match) for the rule to fire (`gates`).
    patterns: ClassVar[tuple[Part | tuple[Part, ...], ...]] = (SEEDING,)

    def check(self, context: FileContext) -> Iterator[Finding]:
        raise NotImplementedError
