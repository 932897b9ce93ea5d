"""SL301 cudnn-benchmark-enabled: cuDNN autotuning picks algorithms that can differ between runs."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.bindings import read_names
from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import deterministic_switches
from seedlint.analysis.gradients import is_backward
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Statement,
    all_parameters,
    assigned,
    bind_arguments,
    is_main_guard,
)
from seedlint.analysis.programs import never_named
from seedlint.analysis.walk import written
from seedlint.diagnostics import Applicability, Fix
from seedlint.files import display_path
from seedlint.gates import SEEDING, SETS_BENCHMARK, without_comments
from seedlint.rules.base import Finding, Probe, Rule

_MESSAGE = (
    "`torch.backends.cudnn.benchmark = True` lets cuDNN time candidate algorithms and keep the "
    "fastest, which can differ between runs, so results are not bit-for-bit reproducible"
)
# What benchmark mode does, after a message has said where it was turned on.
_CONSEQUENCE = (
    "cuDNN then times candidate algorithms and keeps the fastest, which can differ between runs, "
    "so results are not bit-for-bit reproducible"
)
_HELP = "Set `torch.backends.cudnn.benchmark = False` (the default) for reproducible runs"


_BENCHMARK = f"{catalog.CUDNN_MODULE}.benchmark"
_DEFINITIONS = (cst.FunctionDef, cst.ClassDef)  # their bodies run when called, not where they stand
_DETERMINISTIC = f"{catalog.CUDNN_MODULE}.deterministic"
# What may run a convolution or another cuDNN kernel (a recurrent layer, attention that may take
# cuDNN's backend), spelled in a module's text (`nn.Conv2d`, `F.conv1d`, `self.conv1`, `nn.LSTM`,
# `getattr(nn, "GRU")`, `F.scaled_dot_product_attention`, `nn.MultiheadAttention`; not `convert`,
# `converge`, `convenient`), or load a model whose layers the text does not show.
_CUDNN_KERNEL = re.compile(
    rb"(?i:conv)(?!ert|ers|erg|en|ey|ex|ic|inc)"
    rb"|\b(?:LSTM|GRU|RNN)\s*\(|nn\.(?:LSTM|GRU|RNN)\b"
    rb"|['\"](?:LSTM|GRU|RNN)\b"
    rb"|scaled_dot_product_attention|MultiheadAttention|nn\.Transformer"
    rb"|jit\.load\b|hub\.load\b"
)
_OPAQUE_TORCH = ("torch.hub", "torch.jit", "torch.package", "torch.export", "torch.onnx")


def _reaches_no_convolution(context: FileContext) -> bool:
    """Whether the program (a script or notebook) runs no convolution for benchmark mode to time:
    neither its text nor that of any project module it imports, directly or through others, spells
    a convolution or another kernel cuDNN may serve, and every installed library they import is
    the standard library, torch outside its model loaders, or one known to build no such model."""
    own = context.source.text.encode("utf-8", "surrogateescape")
    if _CUDNN_KERNEL.search(without_comments(own)):
        return False
    names = context.imports
    project = context.settings.project
    found = project.imported_texts(names) if project is not None else ([], set(names))
    if found is None:
        return False
    texts, libraries = found
    return not any(_CUDNN_KERNEL.search(without_comments(data)) for _, data in texts) and all(
        _convolution_free(name) for name in libraries
    )


def _convolution_free(library: str) -> bool:
    root = library.partition(".")[0]
    if root == "torch":
        return not library.startswith(_OPAQUE_TORCH)
    return root in sys.stdlib_module_names or any(
        library == known or library.startswith(f"{known}.")
        for known in catalog.CONVOLUTION_FREE_LIBRARIES
    )


def _in_the_program(context: FileContext, statement: Statement) -> bool:
    """Whether the module is the program that turns benchmark mode on: a notebook, a script with
    a `__main__` block, or a module whose top level turns it on (a helper module's function is
    judged by the programs that import it)."""
    index = context.index
    return (
        context.program is not None
        or index.function_of_scope.get(statement.scope) is None
        or any(is_main_guard(s.node) for s in index.statements.get(index.module, []))
    )


def _only_in_a_spawning_parent(context: FileContext, statement: Statement) -> bool:
    """Whether the assignment runs in a function that starts spawned processes
    (`mp.spawn(worker, ..)`) and trains nothing itself: each child is a fresh interpreter that
    runs the worker, never this function, so its cuDNN keeps the default (facts, "Processes")."""
    index = context.index
    function = index.function_of_scope.get(statement.scope)
    if function is None:
        return False
    calls = [
        call
        for inner in _nested(index, index.body_of(function), _DEFINITIONS)
        for call in inner.calls
    ]
    return any(
        index.qualify(call.func, statement.scope) in catalog.SPAWNERS for call in calls
    ) and not any(is_backward(call) for call in calls)


def _asks_for_determinism(context: FileContext) -> bool:
    """Whether the module turns deterministic algorithms or cuDNN's deterministic mode on."""
    return any(True for _ in deterministic_switches(context)) or any(
        _requests_determinism(context, statement)
        for statement in _assignments_to(context, _DETERMINISTIC)
    )


def _assignments_to(context: FileContext, qualified: str) -> Iterator[Statement]:
    for statement, target, _ in context.index.assignments():
        if context.index.qualify(target, statement.scope) == qualified:
            yield statement


def _requests_determinism(context: FileContext, statement: Statement) -> bool:
    """`cudnn.deterministic = True`, `cudnn.benchmark = False` or
    `torch.use_deterministic_algorithms(True)`."""
    wanted = {_DETERMINISTIC: "True", _BENCHMARK: "False"}
    if any(
        is_literal(value, "True", "False")
        and wanted.get(context.index.qualify(target, statement.scope)) == value.value
        for target, value in assigned(statement.node)
    ):
        return True
    switches = set(deterministic_switches(context))
    return any(call in switches for call in statement.calls)


def _only_when_determinism_is_off(context: FileContext, statement: Statement) -> bool:
    """Whether the assignment sits in a branch of an `if` whose other branch asks for determinism:
    `if args.deterministic: cudnn.deterministic = True else: cudnn.benchmark = True` is a choice."""
    index = context.index
    inner, compound = statement, index.enclosing(statement)
    while compound is not None:
        if isinstance(compound.node, cst.If):
            others = [block for block in index.blocks_of(compound.node) if inner not in block]
            if any(
                _requests_determinism(context, s) for block in others for s in _nested(index, block)
            ):
                return True
        inner, compound = compound, index.enclosing(compound)
    return False


def _turned_off_later(context: FileContext, statement: Statement) -> bool:
    """Whether a statement after it, in its block or an enclosing one, turns benchmark mode off
    again (on some path: `if args.deterministic:` after it is a choice, as before it):
    `cudnn.benchmark = False`, or a call of a function of the project (or a library helper) that
    does so unconditionally (KPGT sets it `True`, then calls its `set_random_seed`, which sets it
    `False`)."""
    index = context.index
    inner: Statement | None = statement
    while inner is not None and not isinstance(inner.node, _DEFINITIONS):
        for later in _nested(index, inner.siblings[inner.position + 1 :], _DEFINITIONS):
            if _turns_off(index, later) or any(
                _helper_turns_off(context, call, later) for call in later.calls
            ):
                return True
        inner = index.enclosing(inner)
    return False


def _turns_off(index: ModuleIndex, statement: Statement) -> bool:
    """Whether a statement is `cudnn.benchmark = False`."""
    return any(
        is_literal(value, "False") and index.qualify(target, statement.scope) == _BENCHMARK
        for target, value in assigned(statement.node)
    )


def _helper_turns_off(context: FileContext, call: cst.Call, statement: Statement) -> bool:
    """Whether a call runs a function whose body sets `cudnn.benchmark = False` outside any
    branch."""
    index, project = context.index, context.settings.project
    qualified = index.qualify(call.func, statement.scope) or ""
    if qualified in catalog.BENCHMARK_OFF:
        return not is_literal(argument(call, "seed", 0), "None")
    local = index.resolve_local_call(call, statement.scope)
    found = (
        (index, local)
        if local is not None
        else project.function(qualified, SETS_BENCHMARK)
        if project is not None and qualified
        else None
    )
    if found is None:
        return False
    helper_index, function = found
    passed = {
        name: value
        for name, value in bind_arguments(function, call)
        if not is_none(value) and not is_literal(value, "False", "0")
    }
    return any(
        _turns_off(helper_index, inner)
        # `if deterministic: cudnn.benchmark = False` with the caller's `args.deterministic`: the
        # caller's choice, as the same `if` written inline is
        or isinstance(inner.node, cst.If)
        and read_names(inner.node.test) & set(passed)
        and any(
            _turns_off(helper_index, s)
            for s in _nested(helper_index, helper_index.blocks_of(inner.node)[0])
        )
        for inner in helper_index.body_of(function)
    )


def _may_pass_off(function: FunctionInfo, call: cst.Call, parameter: str) -> bool:
    """Whether a call may pass the parameter a value other than `True` (`*args` may)."""
    if any(arg.star for arg in call.args):
        return True
    passed = dict(bind_arguments(function, call)).get(parameter)
    return passed is not None and not is_literal(passed, "True")


def _nested(
    index: ModuleIndex, block: list[Statement], skipped: tuple[type, ...] = ()
) -> Iterator[Statement]:
    """The statements of a block and of the blocks inside them (not inside `skipped` compounds)."""
    for statement in block:
        yield statement
        if not isinstance(statement.node, skipped):
            for inner in index.blocks_of(statement.node):
                yield from _nested(index, inner, skipped)


class CudnnBenchmarkEnabled(Rule):
    code = "SL301"
    name = "cudnn-benchmark-enabled"
    summary = "cuDNN benchmark mode is on, so convolution algorithms can change between runs"
    fix_availability = "unsafe"
    # Only programs that ask for reproducibility: they seed, or turn a determinism flag on.
    patterns = ((b"cudnn", b"benchmark", SEEDING), (b"cudnn", b"benchmark", b"deterministic"))
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not (context.seeding_flows or _asks_for_determinism(context)):
            # a benchmark, export or inference script that never seeds turns benchmark mode on on
            # purpose
            return
        index = context.index
        quiet = None  # whether the program runs no convolution (found once, when needed)
        for statement, target, value in context.index.assignments():
            if (
                isinstance(statement.node, cst.Assign)
                and is_literal(value, "True")
                and index.qualify(target, statement.scope) == _BENCHMARK
                and not _only_when_determinism_is_off(context, statement)
                and not _turned_off_later(context, statement)
                and not _only_in_a_spawning_parent(context, statement)
                and not never_named(context, statement.scope)
            ):
                if _in_the_program(context, statement):
                    quiet = _reaches_no_convolution(context) if quiet is None else quiet
                    if quiet:
                        continue  # benchmark mode only times cuDNN's convolution algorithms
                yield Finding(
                    statement.node,
                    _MESSAGE,
                    self._assignment_fix(context, statement, target, value),
                    help=_HELP,
                )
        yield from self._defaults_on(context)
        yield from self._config_defaults_on(context)
        for call, _ in context.calls_to("builtins.setattr"):
            args = [arg.value for arg in call.args]
            if (
                len(args) == 3
                and index.qualify(args[0], index.statement_of[call].scope) == catalog.CUDNN_MODULE
                and isinstance(args[1], cst.SimpleString)
                and args[1].evaluated_value == "benchmark"
                and is_literal(args[2], "True")
            ):
                yield self._finding(context, call, args[2])
        # flags(enabled=False, benchmark=False, ...) and set_flags(_enabled=None, _benchmark=None,
        # ...): benchmark mode only matters where cuDNN is enabled.
        for qualified, prefix in (
            (f"{catalog.CUDNN_MODULE}.flags", ""),
            (f"{catalog.CUDNN_MODULE}.set_flags", "_"),
        ):
            for call, _ in context.calls_to(qualified):
                enabled = argument(call, f"{prefix}enabled", 0)
                benchmark = argument(call, f"{prefix}benchmark", 1)
                if is_literal(benchmark, "True") and (prefix or is_literal(enabled, "True")):
                    yield self._finding(context, call, benchmark)

    @staticmethod
    def _defaults_on(context: FileContext) -> Iterator[Finding]:
        """`cudnn.benchmark = cudnn_benchmark` where `cudnn_benchmark` is a parameter of the
        enclosing function that defaults to `True` and no call in the module passes otherwise: on
        unless a caller asks for it off (a `--benchmark` flag a user must pass stays a choice)."""
        index = context.index
        for statement, target, value in index.assignments():
            if not (
                isinstance(statement.node, cst.Assign)
                and isinstance(value, cst.Name)
                and index.qualify(target, statement.scope) == _BENCHMARK
            ):
                continue
            function = index.function_of_scope.get(statement.scope)
            if function is None:
                continue
            parameter = next(
                (
                    p
                    for p in all_parameters(function.node)
                    if p.name.value == value.value and is_literal(p.default, "True")
                ),
                None,
            )
            if parameter is None or any(
                _may_pass_off(function, call, value.value)
                for call, _ in context.calls_by_name(function.node.name.value)
            ):
                continue  # a call that may turn it off: a choice
            row = context.source.location(context.layout.span(parameter)[0]).row
            yield Finding(
                statement.node,
                f"`{context.code(target)}` is set from `{value.value}`, which defaults to `True` "
                f"({context.line_name(row)}): {_CONSEQUENCE}",
                help=f"Make `{value.value}` default to `False`, so a run asks for benchmark mode",
            )

    @staticmethod
    def _config_defaults_on(context: FileContext) -> Iterator[Finding]:
        """`cudnn.benchmark = cfg.CUDNN.BENCHMARK` where the project config module `cfg` comes from
        (or one it imports) sets its default: `_C.CUDNN.BENCHMARK = True` (a yacs config)."""
        index, project = context.index, context.settings.project
        if project is None:
            return
        for statement, target, value in index.assignments():
            if not (
                isinstance(statement.node, cst.Assign)
                and isinstance(value, cst.Attribute)
                and isinstance(value.value, cst.Attribute)
                and index.qualify(target, statement.scope) == _BENCHMARK
            ):
                continue
            root = value
            while isinstance(root, cst.Attribute):
                root = root.value
            origin = index.qualify(root, statement.scope) if isinstance(root, cst.Name) else None
            if origin is None or "." not in origin:
                continue  # a parameter or a local: whose config it is, is not known
            suffix = written(value)[len(root.value) :]
            default = re.compile(rb"^\w+" + re.escape(suffix.encode()) + rb"\s*=\s*True\b", re.M)
            for path, data in project.texts_around(origin.rpartition(".")[0]):
                found = default.search(data)
                if found is None:
                    continue
                row = data.count(b"\n", 0, found.start()) + 1
                yield Finding(
                    statement.node,
                    f"`{context.code(target)}` is set from `{context.code(value)}`, which the "
                    f"project's configuration defaults to `True` ({display_path(path)}, line "
                    f"{row}): {_CONSEQUENCE}",
                    help="Make the configuration's default `False`, so a run asks for benchmark "
                    "mode",
                )
                break

    @staticmethod
    def _finding(context: FileContext, node: cst.CSTNode, true: cst.BaseExpression) -> Finding:
        fix = Fix(
            "Set it to `False`", Applicability.UNSAFE, (context.edits.replace(true, "False"),)
        )
        return Finding(node, _MESSAGE, fix, help=_HELP)

    def _assignment_fix(
        self,
        context: FileContext,
        statement: Statement,
        target: cst.BaseExpression,
        value: cst.BaseExpression,
    ) -> Fix:
        """`x = True` becomes `x = False` (so does `x, y = True, z`'s element); in `x = y = True`,
        `x` leaves the chain and is set on its own."""
        assign = statement.node
        if len(assign.targets) == 1 or value is not assign.value:
            return Fix(
                "Set it to `False`", Applicability.UNSAFE, (context.edits.replace(value, "False"),)
            )
        link = next(t for t in assign.targets if t.target is target)
        edits = (
            context.edits.replace(link, ""),
            context.edits.insert_after(statement, f"{context.code(target)} = False"),
        )
        return Fix("Set it to `False`", Applicability.UNSAFE, edits)
