"""SL303 nondeterministic-cuda-op: seeded CUDA code calls an op whose CUDA kernel is
nondeterministic.

The table follows the `torch.use_deterministic_algorithms` docstring of torch 2.13 (both of its
lists: the ops it switches to a deterministic kernel and the ops it makes raise). Left out on
purpose: convolutions (cuDNN's choice, governed by `torch.backends.cudnn.deterministic`), ops whose
nondeterminism is not statically visible or that are everywhere (`gather`, `index_select`,
indexing, `index_copy`, `scatter`), `cumsum` (only floating-point cumsum is nondeterministic and
integer cumsums over masks are common), `NLLLoss`/`CrossEntropyLoss` (only N-d input is), and
`index_put(accumulate=True)` (CUDA always runs it through a deterministic sort-based kernel).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.bindings import value_unused
from seedlint.analysis.branches import (
    enclosing_tests,
    kept_attributes,
    test_value,
    values_passed,
)
from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import deterministic_mode_on
from seedlint.analysis.gradients import Gradients, differentiates, is_backward
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Scope,
)
from seedlint.analysis.programs import (
    constructor_arguments,
    never_named,
    programs_running,
)
from seedlint.diagnostics import Applicability, Fix
from seedlint.files import display_path
from seedlint.gates import SEEDING, TRAINED
from seedlint.rules.base import Finding, Probe, Rule

_ATOMIC = "accumulates with atomic adds in a nondeterministic order"
_ATOMIC_BACKWARD = "accumulates its gradients with atomic adds in a nondeterministic order"
_INTERPOLATION_MODES = frozenset({"linear", "bilinear", "bicubic", "trilinear"})


class _Requirement:
    """A condition on a call's arguments; `shift` is 1 for a tensor method (no `input` argument)."""

    def __init__(self, keyword: str, position: int) -> None:
        self.keyword, self.position = keyword, position

    def value(self, call: cst.Call, shift: int) -> cst.BaseExpression | None:
        return argument(call, self.keyword, self.position - shift)

    def holds(self, call: cst.Call, shift: int) -> bool:
        raise NotImplementedError


class _StringIn(_Requirement):
    """The argument is a string literal among `values` (the defaults never are)."""

    def __init__(self, keyword: str, position: int, values: frozenset[str]) -> None:
        super().__init__(keyword, position)
        self.values = values

    def holds(self, call: cst.Call, shift: int) -> bool:
        value = self.value(call, shift)
        return (
            isinstance(value, (cst.SimpleString, cst.ConcatenatedString))
            and value.evaluated_value in self.values
        )


class _Given(_Requirement):
    """The argument is passed and is not None."""

    def holds(self, call: cst.Call, shift: int) -> bool:
        return not is_none(self.value(call, shift))


class _IsTrue(_Requirement):
    def holds(self, call: cst.Call, shift: int) -> bool:
        return is_literal(self.value(call, shift), "True")


class _NotAllOnes(_Requirement):
    """A literal output size other than 1, (1, 1), ...: adaptive pooling to size 1 is a plain mean
    or max."""

    def holds(self, call: cst.Call, shift: int) -> bool:
        value = self.value(call, shift)
        sizes = (
            [e.value for e in value.elements]
            if isinstance(value, (cst.Tuple, cst.List))
            else [value]
        )
        return all(isinstance(s, cst.Integer) for s in sizes) and any(
            s.evaluated_value != 1 for s in sizes
        )


class _Overlapping(_Requirement):
    """Pooling windows that can overlap: a `stride` given and written differently from
    `kernel_size`.

    Without a stride (it defaults to the kernel size) each input gets at most one gradient.
    """

    def holds(self, call: cst.Call, shift: int) -> bool:
        stride = self.value(call, shift)
        kernel = argument(call, "kernel_size", self.position - 1 - shift)
        return not is_none(stride) and (kernel is None or not stride.deep_equals(kernel))


class _AddsFractions(_Requirement):
    """The values added may have fractions: not ones (`torch.ones_like(index)`) nor a comparison
    cast to a float (`(o > 0).float()`). Sums of whole numbers are exact in floating point in any
    order (up to 2**24 per position in float32), as `histc`'s counts are."""

    def holds(self, call: cst.Call, shift: int) -> bool:
        return not _whole_numbers(self.value(call, shift))


def _whole_numbers(value: cst.BaseExpression | None) -> bool:
    """`torch.ones(..)`, `x.new_ones(..)`, `torch.ones_like(..)`, or ones or a comparison cast:
    `(o > 0).float()`, `mask.eq(1).to(x.dtype)`."""
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
    if name in _ONES:
        return True
    if name in _CASTS and isinstance(func, cst.Attribute):
        inner = func.value
        return isinstance(inner, cst.Comparison) or _whole_numbers(inner)
    return False


_ONES = frozenset({"ones", "ones_like", "new_ones"})
_CASTS = frozenset({"float", "half", "double", "to", "type"})


@dataclass(frozen=True)
class _Op:
    reason: str  # what its CUDA kernel does, completing "`op` on CUDA ..."
    deterministic_kernel: (
        bool  # deterministic mode switches it to a deterministic kernel (else it raises)
    )
    backward_only: bool = False
    requirement: _Requirement | None = None

    def applies(self, call: cst.Call, shift: int) -> bool:
        return self.requirement is None or self.requirement.holds(call, shift)


def _backward(raises: bool = True, requirement: _Requirement | None = None) -> _Op:
    return _Op(_ATOMIC_BACKWARD, not raises, True, requirement)


_SCATTER_REDUCE = (
    _Op(_ATOMIC, True, requirement=_StringIn("reduce", 4, frozenset({"sum", "mean"}))),
    _Op(_ATOMIC, False, requirement=_StringIn("reduce", 4, frozenset({"prod"}))),
)
# Tensor operations, by name: callable as `torch.<name>(input, ...)`, `torch.Tensor.<name>(input,
# ...)` and `tensor.<name>(...)`. Requirement positions count `input`.
_TENSOR_OPS: dict[str, tuple[_Op, ...]] = {
    "index_add": (_Op(_ATOMIC, True, requirement=_AddsFractions("source", 3)),),
    "index_add_": (_Op(_ATOMIC, True, requirement=_AddsFractions("source", 3)),),
    "scatter_add": (_Op(_ATOMIC, True, requirement=_AddsFractions("src", 3)),),
    "scatter_add_": (_Op(_ATOMIC, True, requirement=_AddsFractions("src", 3)),),
    "scatter_reduce": _SCATTER_REDUCE,
    "scatter_reduce_": _SCATTER_REDUCE,
    "put": (_Op(_ATOMIC, False, requirement=_IsTrue("accumulate", 3)),),
    "put_": (_Op(_ATOMIC, False, requirement=_IsTrue("accumulate", 3)),),
    "bincount": (_Op(_ATOMIC, False, requirement=_Given("weights", 1)),),
    "median": (
        _Op("can return a different index among equal values", False, requirement=_Given("dim", 1)),
    ),
}
# Names distinctive enough to match as a method of a receiver of unknown type.
_DISTINCTIVE_METHODS = frozenset(_TENSOR_OPS) - {"median", "put"}

_ALL_ONES_POOLS = {
    "AdaptiveAvgPool2d": 0,
    "AdaptiveAvgPool3d": 0,
    "AdaptiveMaxPool2d": 0,
    "adaptive_avg_pool2d": 1,
    "adaptive_avg_pool3d": 1,
    "adaptive_max_pool2d": 1,
}
_MODULES_AND_FUNCTIONS: dict[str, tuple[_Op, ...]] = {
    **{
        f"torch.nn.{name}": (_backward(requirement=_NotAllOnes("output_size", position)),)
        for name, position in _ALL_ONES_POOLS.items()
        if name[0].isupper()
    },
    **{
        f"torch.nn.functional.{name}": (
            _backward(requirement=_NotAllOnes("output_size", position)),
        )
        for name, position in _ALL_ONES_POOLS.items()
        if name[0].islower()
    },
    "torch.nn.AvgPool3d": (_backward(requirement=_Overlapping("stride", 1)),),
    "torch.nn.functional.avg_pool3d": (_backward(requirement=_Overlapping("stride", 2)),),
    "torch.nn.MaxPool3d": (_backward(raises=False, requirement=_Overlapping("stride", 1)),),
    "torch.nn.functional.max_pool3d": (
        _backward(raises=False, requirement=_Overlapping("stride", 2)),
    ),
    **{
        f"torch.nn.{name}": (_backward(),)
        for name in (
            "FractionalMaxPool2d",
            "FractionalMaxPool3d",
            "ReflectionPad1d",
            "ReflectionPad2d",
            "ReflectionPad3d",
            "CTCLoss",
            "UpsamplingBilinear2d",
        )
    },
    **{
        f"torch.nn.{name}": (_backward(raises=False),)
        for name in ("ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d")
    },
    **{
        f"torch.nn.functional.{name}": (_backward(),)
        for name in (
            "fractional_max_pool2d",
            "fractional_max_pool3d",
            "ctc_loss",
            "grid_sample",
            "upsample_bilinear",
        )
    },
    **{
        f"torch.nn.{name}": (_Op("writes repeated indices in a nondeterministic order", False),)
        for name in ("MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d")
    },
    **{
        f"torch.nn.functional.{name}": (
            _Op("writes repeated indices in a nondeterministic order", False),
        )
        for name in ("max_unpool1d", "max_unpool2d", "max_unpool3d")
    },
    "torch.nn.functional.interpolate": (
        _backward(requirement=_StringIn("mode", 3, _INTERPOLATION_MODES)),
    ),
    "torch.nn.functional.upsample": (
        _backward(requirement=_StringIn("mode", 3, _INTERPOLATION_MODES)),
    ),
    "torch.nn.Upsample": (_backward(requirement=_StringIn("mode", 2, _INTERPOLATION_MODES)),),
    "torch.nn.functional.pad": (
        _backward(requirement=_StringIn("mode", 2, frozenset({"reflect"}))),
        _backward(raises=False, requirement=_StringIn("mode", 2, frozenset({"replicate"}))),
    ),
    "torch.nn.EmbeddingBag": (_backward(requirement=_StringIn("mode", 5, frozenset({"max"}))),),
    "torch.nn.EmbeddingBag.from_pretrained": (
        _backward(requirement=_StringIn("mode", 5, frozenset({"max"}))),
    ),
    "torch.nn.functional.embedding_bag": (
        _backward(requirement=_StringIn("mode", 6, frozenset({"max"}))),
    ),
    **{
        f"{prefix}.{name}": ops
        for name, ops in _TENSOR_OPS.items()
        for prefix in ("torch", "torch.Tensor")
    },
}

_FIX = Fix(
    "Call `torch.use_deterministic_algorithms(True)` at start-up", Applicability.DISPLAY_ONLY
)


def _no_gradient_through(
    context: FileContext, gradients: Gradients, call: cst.Call, scope: Scope
) -> bool:
    """Whether no gradient can flow through a functional op: it runs without grad, or its input
    cannot require grad. (A module such as `nn.Upsample(..)` runs where it is called, which this
    cannot see.)"""
    qualified = context.index.qualify(call.func, scope)
    if qualified is not None and qualified.rsplit(".", 1)[-1][:1].isupper():
        return False
    statement = context.index.statement_of[call]
    if gradients.without_grad(statement):
        return True
    tensor = argument(call, "input", 0)
    if tensor is not None and gradients.cannot_require_grad(tensor, scope, at=statement):
        return True
    # `img = F.interpolate(img, ..)`, then only `writer.add_image(..)` of it: no backward runs
    return (
        isinstance(statement.node, cst.Assign)
        and statement.node.value is call
        and value_unused(context.index, statement, context.program is not None, never_seeded=True)
    )


def _in_an_unused_helper(context: FileContext, scope: Scope) -> bool:
    """Whether the op is in a module-level function this module never mentions again while its
    backward passes run in its other functions (yolov5's `scale_img`, a helper for test-time
    augmentation elsewhere, beside a `profile()` that differentiates): whether gradients flow
    through it is up to callers this cannot see."""
    index = context.index
    function = index.function_of_scope.get(scope)
    if (
        function is None
        or function.owner_class is not None
        or scope.parent is not index.module_scope
    ):
        return False
    name = function.node.name.value
    return len(re.findall(rf"\b{re.escape(name)}\b", context.source.text)) == 1 and not any(
        is_backward(call)
        for owner in (scope, index.module_scope)
        for call in index.calls_by_scope.get(owner, ())
    )


def _op_patterns() -> tuple[tuple[bytes, bytes, bytes] | tuple[bytes, bytes], ...]:
    """The file must mention one of the ops, and either CUDA (or DataParallel) and seeding, or be
    trained by a seeded CUDA program of the project."""
    names = set()
    for qualified in _MODULES_AND_FUNCTIONS:
        for prefix in ("torch.nn.functional.", "torch.nn.", "torch.Tensor.", "torch."):
            if qualified.startswith(prefix):
                names.add(qualified[len(prefix) :].split(".")[0])
                break
    return tuple(
        (device, name.encode(), SEEDING)
        for device in (b"cuda", b"DataParallel")
        for name in sorted(names)
    ) + tuple((name.encode(), TRAINED) for name in sorted(names))


class NondeterministicCudaOp(Rule):
    code = "SL303"
    name = "nondeterministic-cuda-op"
    summary = (
        "Seeded CUDA code calls an op whose CUDA kernel gives different results from run to run"
    )
    fix_availability = "display-only"
    patterns = _op_patterns()
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        seeded_here = context.uses_cuda and bool(context.seeding_flows)
        trained = {} if seeded_here else context.trainers
        if not (seeded_here or trained) or deterministic_mode_on(context):
            return
        # code a program trains runs backward passes: the program's
        runs_backward: bool | None = None if seeded_here else True
        gradients = Gradients(context)
        for call, scope in context.index.all_calls:
            programs = () if seeded_here else programs_running(context, trained, scope)
            if not (seeded_here or programs) or _branch_never_trained(context, call, programs):
                continue
            op = self._op(context, call, scope)
            if (
                op is None
                or _adds_at_unique_indices(context, call, scope)
                or never_named(context, scope)
            ):
                continue
            if op.backward_only:
                if runs_backward is None:
                    runs_backward = differentiates(context)
                function = context.index.function_of_scope.get(scope)
                if (
                    not runs_backward
                    or _no_gradient_through(context, gradients, call, scope)
                    or _in_an_unused_helper(context, scope)
                    or (seeded_here and function and gradients.runs_no_backward(function))
                ):
                    continue
            yield self._finding(context, call, op, programs)

    @staticmethod
    def _op(context: FileContext, call: cst.Call, scope: Scope) -> _Op | None:
        """The table entry a call matches: a torch function or module, or a method of a tensor."""
        qualified = context.index.qualify(call.func, scope)
        name = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
        if qualified is None:  # a method of a receiver of unknown type
            ops, shift = (_TENSOR_OPS[name], 1) if name in _DISTINCTIVE_METHODS else ((), 0)
        elif qualified.startswith("torch.nn.modules."):
            ops, shift = (
                _MODULES_AND_FUNCTIONS.get("torch.nn." + qualified.rsplit(".", 1)[-1], ()),
                0,
            )
        elif qualified in _MODULES_AND_FUNCTIONS:
            ops, shift = _MODULES_AND_FUNCTIONS[qualified], 0
        elif (
            name in _TENSOR_OPS
            and qualified.startswith("torch.")
            and qualified.endswith(f"().{name}")
        ):
            ops, shift = _TENSOR_OPS[name], 1  # a method of a tensor a torch call made
        else:
            ops, shift = (), 0
        return next((op for op in ops if op.applies(call, shift)), None)

    @staticmethod
    def _finding(context: FileContext, call: cst.Call, op: _Op, programs: Sequence[str]) -> Finding:
        effect = (
            "use a deterministic kernel" if op.deterministic_kernel else "raise an error instead"
        )
        outcome = "the gradients" if op.backward_only else "its results"
        return Finding(
            call,
            f"`{context.code(call.func)}` on CUDA {op.reason}, so {outcome} can differ from run "
            f"to run despite the seeding{_program_clause(programs)}; "
            f"`torch.use_deterministic_algorithms(True)` makes it {effect}",
            _FIX,
            help="Call `torch.use_deterministic_algorithms(True)` at start-up, or silence the line "
            "if the variation is acceptable",
        )


def _branch_never_trained(context: FileContext, call: cst.Call, programs: Sequence[str]) -> bool:
    """Whether the op sits on a side of an `if` that every program training the class rules out
    by what it passes the constructor, the defaults included: `if self.flag:` kept from a
    constructor parameter (`Net(upsample_output=False)`), or a test of a parameter of the
    constructor or of a method it calls on `self` (`elif padding_type == "replicate":` in the
    `build_conv_block(dim, padding_type)` of a block built with `padding_type="reflect"`)."""
    project = context.settings.project
    index = context.index
    statement = index.statement_of[call]
    function = index.function_of_scope.get(statement.scope)
    owner = function.owner_class if function is not None else None
    tests = list(enclosing_tests(index, statement))
    if project is None or owner is None or not programs or not tests:
        return False
    init = index.find_method(owner, "__init__")
    if init is None:
        return False
    for program in programs:
        built = constructor_arguments(project, Path(program), Path(context.path), owner)
        if built is None:
            return False
        for values in built:
            kept = kept_attributes(owner, init, values)
            # a method called from elsewhere too: its parameters unknown, `self.flag` still read
            for method_values in _method_values(index, init, function, values) or [{}]:
                known = {init.scope: values, function.scope: {**method_values, **kept}}
                if not any(
                    test_value(test, statement.scope, known) == (not side) for test, side in tests
                ):
                    return False  # this construction may run the op
    return True


def _method_values(
    index: ModuleIndex,
    init: FunctionInfo,
    function: FunctionInfo,
    values: dict[str, object],
) -> list[dict[str, object]] | None:
    """The known literal parameters of `function`, a method of `owner`, for a construction whose
    constructor parameters are `values`: the constructor's own; for a method only the
    constructor calls on `self` (`self.build_conv_block(dim, padding_type)`), those each call
    passes (None: called elsewhere too)."""
    if function is init:
        return [values]
    name = function.node.name.value
    calls = [
        (call, scope)
        for call, scope in index.all_calls
        if isinstance(call.func, cst.Attribute)
        and call.func.attr.value == name
        and isinstance(call.func.value, cst.Name)
        and call.func.value.value == "self"
    ]
    if not calls or any(scope is not init.scope for _, scope in calls):
        return None
    return [values_passed(index, function, call, init.scope, values) for call, _ in calls]


def _program_clause(programs: Sequence[str]) -> str:
    """How a message names the programs that train the code (none: the module seeds itself)."""
    if not programs:
        return ""
    shown = display_path(Path(programs[0]))
    others = f" and {len(programs) - 1} more" if len(programs) > 1 else ""
    return f" in `{shown}`{others}, which trains this code on CUDA"


# Ways to turn a tensor of positions into another shape or type: they keep the positions unique.
_RESHAPING = frozenset({"squeeze", "view", "flatten", "reshape", "to", "long", "int", "cuda"})
_INDEXED_ADDS = frozenset({"index_add", "index_add_"})


def _adds_at_unique_indices(context: FileContext, call: cst.Call, scope: Scope) -> bool:
    """`out.index_add_(0, idx, src)` with `idx = mask.nonzero().squeeze(-1)`: positions from
    `nonzero()` (or `argwhere`) are distinct, so each row gets one add and no order between adds
    exists (the MoE layers that gather each expert's tokens)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _INDEXED_ADDS):
        return False
    # a method of a tensor (`out.index_add_(dim, index, ..)`), or `torch.index_add(input, ...)`
    function = (context.index.qualify(func, scope) or "").startswith("torch.index_add")
    positions = argument(call, "index", 2 if function else 1)
    if isinstance(positions, cst.Name):
        values = context.index.bound_values(positions.value, scope)
        positions = values[0] if len(values) == 1 else None
    while isinstance(positions, (cst.Call, cst.Subscript)):
        inner = positions.func if isinstance(positions, cst.Call) else None
        if isinstance(positions, cst.Subscript):
            positions = positions.value
        elif isinstance(inner, cst.Attribute) and inner.attr.value in ("nonzero", "argwhere"):
            return True
        elif isinstance(inner, cst.Attribute) and inner.attr.value in _RESHAPING:
            positions = inner.value
        else:
            return context.index.qualify(inner, scope) in ("torch.nonzero", "torch.argwhere")
    return False
