"""SL114 resume-without-rng-state: a seeded run resumed from a checkpoint that restores no
generator state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, callee_name, is_literal
from seedlint.analysis.bindings import reaching_bindings, read_names
from seedlint.analysis.context import FileContext
from seedlint.analysis.edits import Editor
from seedlint.analysis.environment import string_value
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope, Statement
from seedlint.analysis.programs import never_named, programs_running
from seedlint.analysis.walk import written
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.files import display_path
from seedlint.gates import RUN_SEEDED, SEEDING
from seedlint.rules.base import Finding, Probe, Rule

# `range` and tqdm's `trange` (a `range` with a progress bar).
_RANGES = ("builtins.range", "tqdm.trange", "tqdm.tqdm.trange", "tqdm.auto.trange")
# A checkpoint's key for where training stopped.
_PROGRESS_KEY = re.compile(r"epoch|step|iter", re.IGNORECASE)
_CHECKPOINT_LOADERS = frozenset(
    {"torch.load", "torch.serialization.load", "torch.hub.load_state_dict_from_url"}
)
# A project's own loader of checkpoints, by name (`load_checkpoint(path, device)`).
_LOADER_NAME = re.compile(r"^_?load_?(checkpoint|ckpt|state)", re.IGNORECASE)
# Methods that restore a generator's state, on any receiver (a project's own generator objects,
# `torch.Generator().set_state`), and framework calls that restore them all.
_STATE_METHODS = frozenset({"set_rng_state", "set_rng_state_all", "setstate", "set_state"})
_RESTORING_CALLS = frozenset({"load_state"})  # accelerate's `Accelerator.load_state`
_RESTORE_SPELLINGS = tuple(f"{name}(".encode() for name in _STATE_METHODS | _RESTORING_CALLS)
_FIX_TITLE = "Save the generators' states in the checkpoint and restore them when resuming"
_CHECKPOINT_SAVERS = ("torch.save", "torch.serialization.save")
# After a dict's last entry: its comma, then only a comment to the end of the line.
_REST_OF_LINE = re.compile(r"[ \t]*(,?)[ \t]*(?:#[^\r\n]*)?(?=[\r\n])")
# (checkpoint key, what saves the state, what restores it): torch's CPU generator always; CUDA's,
# `random`'s and NumPy's when the module uses them. NumPy's state holds an array, which
# `torch.load` refuses by default from torch 2.6 (`weights_only=True`): it is saved only when the
# load passes `weights_only=False`.
_STATES = {
    "torch": ("torch_rng", "torch.get_rng_state", "torch.set_rng_state"),
    "cuda": ("cuda_rng", "torch.cuda.get_rng_state_all", "torch.cuda.set_rng_state_all"),
    "random": ("python_rng", "random.getstate", "random.setstate"),
    "numpy": ("numpy_rng", "numpy.random.get_state", "numpy.random.set_state"),
}


class ResumeWithoutRngState(Rule):
    code = "SL114"
    name = "resume-without-rng-state"
    summary = (
        "A seeded run resumes from a checkpoint but restores no generator state, so it diverges "
        "from the uninterrupted run"
    )
    fix_availability = "unsafe"
    probe = Probe.RESUME
    # `trange(` too; a trainer class of another module that a seeded program runs
    patterns = tuple(
        (b"load", loop, seeded)
        for seeded in (SEEDING, RUN_SEEDED)
        for loop in (b"range(", b"while")
    )

    def check(self, context: FileContext) -> Iterator[Finding]:
        runners = {} if context.seeding_flows else context.seeded_runners
        if not (context.seeding_flows or runners) or _restores_a_generator(context):
            return
        for loads, progress, key in _resumes(context):
            scope = context.index.statement_of[loads[0]].scope
            if never_named(context, scope):
                continue  # a method of a class nothing builds
            programs = []
            if runners:  # seeded by the programs that run the resume, which restore no state
                programs = programs_running(context, runners, scope)
                if not programs or _programs_restore(context, programs):
                    continue
            yield Finding(
                loads[0],
                f"This run{_seeded_in(programs)} resumes from a checkpoint (training restarts at "
                f"`{progress}`) but restores no generator state: after resuming, the data order, "
                "dropout and random augmentations differ from those of the run that was never "
                "interrupted",
                _fix(context, loads, key),
                help="Save `torch.get_rng_state()`, `torch.cuda.get_rng_state_all()`, "
                "`np.random.get_state()` and `random.getstate()` in the checkpoint, and restore "
                "them with the matching `set_*` calls when resuming",
                generators=catalog.EVERYTHING,
            )


def _seeded_in(programs: list[str]) -> str:
    """ ", seeded in `train.py`," for a resume judged in the context of the programs running it."""
    if not programs:
        return ""
    shown = ", ".join(f"`{display_path(Path(program))}`" for program in programs[:2])
    return f", seeded in {shown}{' and others' if len(programs) > 2 else ''},"


def _programs_restore(context: FileContext, programs: list[str]) -> bool:
    """Whether one of the programs may restore a generator state itself (its text spells a
    restoring call: it is not followed, so the resume is left alone)."""
    project = context.settings.project
    for program in programs:
        try:
            data = project.finder.read_bytes(Path(program)) if project is not None else b""
        except OSError:
            return True
        if any(spelling in data for spelling in _RESTORE_SPELLINGS):
            return True
    return False


def _restores_a_generator(context: FileContext) -> bool:
    """Whether the module restores any generator state (a `set_rng_state`, `random.setstate`,
    `np.random.set_state`, a generator's `set_state`, accelerate's `load_state`)."""
    index = context.index
    return any(_restores(index, call, scope) for call, scope in index.all_calls)


def _restores(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """Whether a call restores a generator state."""
    return index.qualify(call.func, scope) in catalog.STATE_RESTORERS or (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value in _STATE_METHODS | _RESTORING_CALLS
    )


def _resumes(context: FileContext) -> Iterator[tuple[list[cst.Call], str, str]]:
    """(its checkpoint loads in source order, where training restarts, the checkpoint's key for
    it) for each resume: a checkpoint loaded with `torch.load` whose saved epoch or step a
    training loop starts from (`start_epoch = checkpoint["epoch"]`, then `for epoch in
    range(start_epoch, ..)`). Only the loads whose value reaches that read are the resume's (not
    weights loaded for fine-tuning or a teacher into the same name); one resume loaded two ways
    (from a URL or a file) is one."""
    index = context.index
    loaders = [
        (call, scope)
        for call, scope in index.all_calls
        if index.qualify(call.func, scope) in _CHECKPOINT_LOADERS
        or _LOADER_NAME.match(callee_name(call.func) or "")
        or (_progress_assigned(index, call) and _returns_saved_progress(context, call, scope))
    ]
    if not loaders:
        return
    # what each loop starts from, as written (not sliced from the source: a lean tree has no
    # positions to slice by)
    starts = [
        (written(call.args[0].value), index.statement_of[call])
        for call, _ in context.calls_to(*_RANGES)
        if len(call.args) >= 2 and not call.args[0].keyword
    ]
    # `range(args.epochs - start_epoch)`: the loop's count shortened by what was done
    starts += [
        (written(call.args[0].value.right), index.statement_of[call])
        for call, _ in context.calls_to(*_RANGES)
        if len(call.args) == 1
        and isinstance(call.args[0].value, cst.BinaryOperation)
        and isinstance(call.args[0].value.operator, cst.Subtract)
    ]
    # `i = start_iter`, then `while i <= train_iters:`: the loop's test reads the counter
    starts += [
        (written(statement.node.test), statement)
        for block in index.statements.values()
        for statement in block
        if isinstance(statement.node, cst.While)
    ]
    loads: dict[Statement, cst.Call] = {}
    shown: set[cst.Call] = set()
    for call, scope in loaders:
        statement = index.statement_of[call]
        node = statement.node
        if not (isinstance(node, cst.Assign) and node.value is call and len(node.targets) == 1):
            continue
        target = node.targets[0].target
        if isinstance(target, cst.Name):
            loads[statement] = call
            if (
                # `start_epoch = load_ckpt(model, optimizer)`: a project helper returning it
                _PROGRESS_KEY.search(target.value)
                and _starts_from(index, statement, target.value, starts)
                and _project_loader_restores(context, call, scope) is False
                and call not in shown
            ):
                shown.add(call)
                yield [call], target.value, target.value
        elif isinstance(target, cst.Tuple):
            # `model, optimizer, iteration = load_checkpoint(path, model, optimizer)`
            for element in target.elements:
                name = element.value
                if (
                    isinstance(name, cst.Name)
                    and _PROGRESS_KEY.search(name.value)
                    and _starts_from(index, statement, name.value, starts)
                    and call not in shown
                ):
                    shown.add(call)
                    yield [call], name.value, name.value
    names_by_scope: dict[Scope, set[str]] = {}
    for statement in loads:
        names_by_scope.setdefault(statement.scope, set()).add(
            written(statement.node.targets[0].target)
        )
    order = {call: position for position, (call, _) in enumerate(index.all_calls)}
    for scope, names in names_by_scope.items():
        for statement in index.statements_in(scope):
            for checkpoint in names:
                read = _progress_read(statement.node, checkpoint)
                if read is None or not _starts_from(index, statement, read[0], starts):
                    continue
                resumed = [
                    loads[binding]
                    for binding in reaching_bindings(index, statement, checkpoint)
                    if binding in loads
                ]
                resumed.sort(key=order.__getitem__)
                if resumed and resumed[0] not in shown:
                    shown.add(resumed[0])
                    yield resumed, *read


def _progress_assigned(index: ModuleIndex, call: cst.Call) -> bool:
    """Whether a call is assigned to a name for progress (`start_epoch = load_model(..)`)."""
    node = index.statement_of[call].node
    return (
        isinstance(node, cst.Assign)
        and node.value is call
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Name)
        and _PROGRESS_KEY.search(node.targets[0].target.value) is not None
    )


def _returns_saved_progress(context: FileContext, call: cst.Call, scope: Scope) -> bool:
    """Whether a call runs a function of the project that returns the progress a checkpoint it
    loads saved (`checkpoint = torch.load(path)`, then `return checkpoint["epoch"]`)."""
    found = _project_function(context, call, scope)
    if found is None:
        return False
    module, function = found
    for statement in module.statements_in(function.scope):
        value = statement.node.value if isinstance(statement.node, cst.Return) else None
        if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name)):
            continue
        subscript = value.slice[0].slice if len(value.slice) == 1 else None
        key = string_value(subscript.value) if isinstance(subscript, cst.Index) else None
        loaded = module.bound_values(value.value.value, function.scope)
        if (
            key is not None
            and _PROGRESS_KEY.search(key)
            and any(
                isinstance(each, cst.Call)
                and module.qualify(each.func, function.scope) in _CHECKPOINT_LOADERS
                for each in loaded
            )
        ):
            return True
    return False


def _project_function(
    context: FileContext, call: cst.Call, scope: Scope
) -> tuple[ModuleIndex, FunctionInfo] | None:
    """The project function a call runs, with its module (None: not one the analysis reads)."""
    project = context.settings.project
    qualified = context.index.qualify(call.func, scope)
    found = project.definition(qualified) if project is not None and qualified else None
    if found is None or found[2] not in found[1].functions:
        return None
    return found[1], found[1].functions[found[2]]


def _project_loader_restores(context: FileContext, call: cst.Call, scope: Scope) -> bool | None:
    """Whether the project function a load calls restores a generator state (None: not a project
    function the analysis can read)."""
    found = _project_function(context, call, scope)
    if found is None:
        return None
    module, function = found
    return any(
        _restores(module, inner, where)
        for inner, where in module.all_calls
        if where is function.scope
    )


def _starts_from(
    index: ModuleIndex,
    statement: Statement,
    progress: str,
    starts: list[tuple[str, Statement]],
) -> bool:
    """Whether a training loop starts from the progress `statement` restores: `range(start_epoch,
    ..)`, or from a name its scope computes from it (`epoch_offset = max(0, int(iteration /
    len(loader)))`, then `range(epoch_offset, ..)`), with that value reaching the loop (not
    `start_epoch = 1` bound after the load)."""
    names = {progress: statement}
    # an attribute (`self.cur_epoch`) is read in the class's other methods too
    attribute = re.compile(rf"(?<![\w.]){re.escape(progress)}(?!\w)") if "." in progress else None
    others = (
        [other for block in index.statements.values() for other in block]
        if attribute
        else index.statements_in(statement.scope)
    )
    for other in others:
        if not (isinstance(other.node, cst.Assign) and len(other.node.targets) == 1):
            continue
        value = other.node.value
        if (
            attribute.search(written(value))
            if attribute
            else progress.split(".")[0] in read_names(value)
        ):
            names.setdefault(written(other.node.targets[0].target), other)
    for name, bound in names.items():
        for start, loop in starts:
            if not re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", start):
                continue
            if isinstance(loop.node, cst.While) and loop.scope is not statement.scope:
                continue  # a `while` counter is followed by binding only, in one scope
            if "." in name or loop.scope is not statement.scope:
                return True  # `args.start_epoch`: not followed by binding
            if bound in reaching_bindings(index, loop, name):
                return True
    return False


def _progress_read(node: cst.CSTNode, checkpoint: str) -> tuple[str, str] | None:
    """The target of `target = checkpoint["epoch"]` (also `checkpoint["epoch"] + 1`,
    `checkpoint.get("step")`), as written, and the key."""
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
    return written(target), key


def _fix(context: FileContext, loads: list[cst.Call], key: str) -> Fix:
    """Add the generators' states to the one dict saved with `torch.save` that holds the
    checkpoint's progress `key`, and restore them just after the load (when the checkpoint has
    them); the recipe alone when that dict is not in view or the resume loads in several places."""
    index = context.index
    load = loads[0]
    statement = index.statement_of[load]
    saved = _saved_dicts(context, key)
    target = statement.node.targets[0].target if isinstance(statement.node, cst.Assign) else None
    if (
        len(saved) != 1
        or len(loads) > 1
        or not isinstance(target, cst.Name)  # `model, optimizer, step = load_checkpoint(..)`
        or not (
            isinstance(statement.line, cst.SimpleStatementLine) and len(statement.line.body) == 1
        )
    ):
        return Fix(_FIX_TITLE, Applicability.DISPLAY_ONLY)
    bindings = set(index.module_scope.bindings.values())
    kinds = ["torch"] + ["cuda"] * context.uses_cuda + ["random"] * ("random" in bindings)
    if "numpy" in bindings and _passes_false(load, "weights_only"):
        kinds.append("numpy")
    editor = Editor(context.source, context.layout, lambda: index)
    checkpoint = context.code(statement.node.targets[0].target)
    keys = [context.code(e.key) for e in saved[0].elements if isinstance(e, cst.DictElement)]
    quote = "'" if keys[0].startswith("'") else '"'  # as the dict's keys are written
    edits, saving, restoring = [], [], []
    for kind in kinds:
        name, getter, setter = _STATES[kind]
        (get, get_import), (put, _) = editor.reference(getter), editor.reference(setter)
        saving.append(f"{quote}{name}{quote}: {get}()")
        restoring.append(f"{put}({checkpoint}[{quote}{name}{quote}])")
        if get_import is not None and get_import not in edits:
            edits.append(get_import)
    indentation = "\t" if editor.indentation(statement).startswith("\t") else "    "
    restore = f"if {quote}torch_rng{quote} in {checkpoint}:\n" + "\n".join(
        indentation + line for line in restoring
    )
    edits += [*_added_entries(context, saved[0], saving), editor.insert_after(statement, restore)]
    return Fix(_FIX_TITLE, Applicability.UNSAFE, tuple(sorted(edits, key=lambda edit: edit.start)))


def _saved_dicts(context: FileContext, key: str) -> list[cst.Dict]:
    """The dict literals saved with `torch.save` (directly, or through a name assigned one in the
    same scope) that hold `key` and no generator state yet."""
    index = context.index
    found = []
    for call, scope in context.calls_to(*_CHECKPOINT_SAVERS):
        if not call.args:
            continue
        value = call.args[0].value
        candidates = [value] if isinstance(value, cst.Dict) else []
        if isinstance(value, cst.Name):
            candidates = [
                other.node.value
                for other in index.statements_in(scope)
                if isinstance(other.node, cst.Assign)
                and len(other.node.targets) == 1
                and isinstance(other.node.targets[0].target, cst.Name)
                and other.node.targets[0].target.value == value.value
                and isinstance(other.node.value, cst.Dict)
            ]
        for saved in candidates:
            keys = {
                string_value(element.key)
                for element in saved.elements
                if isinstance(element, cst.DictElement)
            }
            if key in keys and not keys & {name for name, _, _ in _STATES.values()}:
                found.append(saved)
    return list(dict.fromkeys(found))


def _added_entries(context: FileContext, saved: cst.Dict, entries: list[str]) -> list[Edit]:
    """Add entries after a dict literal's last one: on lines of their own, with its indentation,
    when it starts a line (after its comment, when the line ends there), else on its line."""
    last = saved.elements[-1]
    start, _ = context.layout.span(last)
    _, end = context.layout.span(last.value)
    text, newline = context.source.text, context.source.newline
    indentation = text[max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1 : start]
    if indentation.strip():
        return [Edit(end, end, "".join(f", {entry}" for entry in entries))]
    rest = _REST_OF_LINE.match(text, end)
    if rest is None:  # the dict closes on the entry's line: the new entries before its brace
        return [Edit(end, end, "".join(f",{newline}{indentation}{entry}" for entry in entries))]
    lines = [f"{newline}{indentation}{entry}," for entry in entries]
    if not rest.group(1):  # no trailing comma: the last entry gets none either
        lines[-1] = lines[-1][:-1]
        return [Edit(end, end, ","), Edit(rest.end(), rest.end(), "".join(lines))]
    return [Edit(rest.end(), rest.end(), "".join(lines))]


def _passes_false(call: cst.Call, keyword: str) -> bool:
    return is_literal(argument(call, keyword, None), "False")
