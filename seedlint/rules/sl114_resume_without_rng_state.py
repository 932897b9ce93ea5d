"""SL114 resume-without-rng-state: a seeded run resumed from a checkpoint that restores no
generator state."""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import callee_name
from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import string_value
from seedlint.analysis.walk import written
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import SEEDING
from seedlint.rules.base import Finding, Rule

# A checkpoint's key for where training stopped.
_PROGRESS_KEY = re.compile(r"epoch|step|iter", re.IGNORECASE)
_CHECKPOINT_LOADERS = frozenset({"torch.load", "torch.serialization.load"})
# A project's own loader of checkpoints, by name (`load_checkpoint(path, device)`).
_LOADER_NAME = re.compile(r"^_?load_?(checkpoint|ckpt|state)", re.IGNORECASE)
# Methods that restore a generator's state, on any receiver (a project's own generator objects,
# `torch.Generator().set_state`), and framework calls that restore them all.
_STATE_METHODS = frozenset({"set_rng_state", "set_rng_state_all", "setstate", "set_state"})
_RESTORING_CALLS = frozenset({"load_state"})  # accelerate's `Accelerator.load_state`
_FIX = Fix(
    "Save the generators' states in the checkpoint and restore them when resuming",
    Applicability.DISPLAY_ONLY,
)


class ResumeWithoutRngState(Rule):
    code = "SL114"
    name = "resume-without-rng-state"
    summary = (
        "A seeded run resumes from a checkpoint but restores no generator state, so it diverges "
        "from the uninterrupted run"
    )
    fix_availability = "display-only"
    patterns = ((b"load", b"range(", SEEDING),)

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows or _restores_a_generator(context):
            return
        for load, progress in _resumes(context):
            yield Finding(
                load,
                f"This run resumes from a checkpoint (training restarts at `{progress}`) but "
                "restores no generator state: after resuming, the data order, dropout and random "
                "augmentations differ from those of the run that was never interrupted",
                _FIX,
                help="Save `torch.get_rng_state()`, `torch.cuda.get_rng_state_all()`, "
                "`np.random.get_state()` and `random.getstate()` in the checkpoint, and restore "
                "them with the matching `set_*` calls when resuming",
                generators=catalog.EVERYTHING,
            )


def _restores_a_generator(context: FileContext) -> bool:
    """Whether the module restores any generator state (a `set_rng_state`, `random.setstate`,
    `np.random.set_state`, a generator's `set_state`, accelerate's `load_state`)."""
    if context.calls_to(*catalog.STATE_RESTORERS):
        return True
    return any(
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value in _STATE_METHODS | _RESTORING_CALLS
        for call, _ in context.index.all_calls
    )


def _resumes(context: FileContext) -> Iterator[tuple[cst.Call, str]]:
    """(the checkpoint load, where training restarts) for each checkpoint loaded with `torch.load`
    whose saved epoch or step a training loop starts from: `start_epoch = checkpoint["epoch"]`,
    then `for epoch in range(start_epoch, ..)`."""
    index = context.index
    starts = [
        context.code(call.args[0].value)
        for call, _ in context.calls_to("builtins.range")
        if len(call.args) >= 2 and not call.args[0].keyword
    ]
    loads = [
        (call, scope)
        for call, scope in index.all_calls
        if index.qualify(call.func, scope) in _CHECKPOINT_LOADERS
        or _LOADER_NAME.match(callee_name(call.func) or "")
    ]
    for load, scope in loads:
        statement = index.statement_of[load]
        node = statement.node
        if not (isinstance(node, cst.Assign) and node.value is load and len(node.targets) == 1):
            continue
        checkpoint = node.targets[0].target
        if not isinstance(checkpoint, cst.Name):
            continue
        for other in index.statements_in(scope):
            progress = _progress_read(other.node, checkpoint.value)
            if progress is not None and any(
                re.search(rf"(?<![\w.]){re.escape(progress)}(?!\w)", start) for start in starts
            ):
                yield load, progress
                break


def _progress_read(node: cst.CSTNode, checkpoint: str) -> str | None:
    """The target of `target = checkpoint["epoch"]` (also `checkpoint["epoch"] + 1`,
    `checkpoint.get("step")`), as written."""
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1):
        return None
    value = node.value
    if isinstance(value, cst.BinaryOperation):
        value = value.left
    key = None
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):
        if value.value.value == checkpoint and len(value.slice) == 1:
            element = value.slice[0].slice
            key = string_value(element.value) if isinstance(element, cst.Index) else None
    elif (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "get"
        and isinstance(value.func.value, cst.Name)
        and value.func.value.value == checkpoint
        and value.args
    ):
        key = string_value(value.args[0].value)
    if key is None or not _PROGRESS_KEY.search(key):
        return None
    target = node.targets[0].target
    return written(target)
