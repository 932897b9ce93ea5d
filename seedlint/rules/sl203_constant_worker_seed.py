"""SL203 constant-worker-seed: a `worker_init_fn` seeds every worker with the same value."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import seed_argument
from seedlint.analysis.context import FileContext
from seedlint.analysis.flow import EffectClassifier
from seedlint.analysis.index import ModuleIndex
from seedlint.analysis.modules import shown_name
from seedlint.analysis.walk import iter_children, written
from seedlint.analysis.workers import (
    WorkerCode,
    WorkerInitFn,
    on_instance,
)
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

# RNG object methods that take a seed: `rng.seed(s)` (RandomState, random.Random),
# `g.manual_seed(s)`.
_SEEDING_METHODS = frozenset({"seed", "manual_seed"})
# Values that differ from worker to worker: the worker's torch seed and its `get_worker_info()` seed
# and id.
_WORKER_SEEDS = frozenset({"torch.initial_seed", "torch.random.initial_seed"})
_WORKER_INFO = (
    "torch.utils.data.get_worker_info",
    "torch.utils.data._utils.worker.get_worker_info",
)
_WORKER_INFO_FIELDS = frozenset(
    f"{info}().{field}" for info in _WORKER_INFO for field in ("seed", "id")
)
# Calls whose result depends only on their arguments (NumPy's seed wrappers take entropy when given
# none).
_NUMPY_SEED_WRAPPERS = frozenset(
    f"numpy.random.{name}"
    for name in ("SeedSequence", "PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
)
# A fresh torch.Generator starts from a fixed constant, the same in every worker.
_MAX_HOPS = 10

_GLOBAL_HELP = (
    "Derive the seed from the worker (`torch.initial_seed()` is the worker's own seed; take it `% "
    "2**32` for NumPy), or drop the call: since torch 1.9 every worker already seeds `random`, "
    "`torch` and `np.random` with distinct values"
)
_OBJECT_HELP = "Seed the worker's RNG from `torch.utils.data.get_worker_info().seed`"


class ConstantWorkerSeed(Rule):
    code = "SL203"
    name = "constant-worker-seed"
    summary = "A `worker_init_fn` seeds every DataLoader worker with the same value"
    fix_availability = "display-only"
    patterns = (b"worker_init_fn",)
    probe = Probe.WORKER_DUPLICATION

    def check(self, context: FileContext) -> Iterator[Finding]:
        code = WorkerCode(context.index)
        project = context.settings.project
        judged: set[cst.CSTNode] = set()
        for expr, scope in code.loader_worker_init_fns():
            where, classifier, init_fn = code, context.classifier, code.worker_init_fn(expr, scope)
            if init_fn is None and project is not None:  # `from utils import worker_init_fn`
                imported = code.imported_worker_init_fn(expr, scope, project)
                if imported is not None:
                    (where, init_fn), classifier = (
                        imported,
                        project.builder(imported[0].index).classifier,
                    )
            if init_fn is None or init_fn.node in judged:
                continue
            judged.add(init_fn.node)
            dependence = _WorkerDependence(where.index, classifier, init_fn)
            for node, seed, global_seeding in self._seedings(where, classifier, init_fn):
                if seed is None or not dependence.of(seed):
                    if where is code:
                        yield self._finding(context, init_fn, node, global_seeding)
                        continue
                    yield self._imported_finding(
                        context, expr, where.index, init_fn, node, global_seeding
                    )
                    break  # one finding at the argument

    @staticmethod
    def _seedings(
        code: WorkerCode, classifier: EffectClassifier, init_fn: WorkerInitFn
    ) -> Iterator[tuple[cst.Call, cst.BaseExpression | None, bool]]:
        """(call, seed, seeds a global generator) for each seeding the `worker_init_fn` makes
        itself.

        The seed is None for a fresh `torch.Generator()`, which starts from a fixed constant.
        """
        index, scope = code.index, init_fn.scope
        for call in code.calls(init_fn):
            effect = classifier.seeding_effect(call, scope)
            if effect is not None and effect.kind in ("seed", "reseed"):
                if (
                    effect.kind == "seed"
                    and effect.deterministic
                    and effect.seed_arg is not None
                    and not effect.assumed
                    # a loader's workers do not draw from CUDA (a forked child cannot use it)
                    and not effect.generators <= catalog.CUDA_GENERATORS
                ):
                    yield call, effect.seed_arg, True
            elif (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value in _SEEDING_METHODS
                and on_instance(index, call.func.value, scope)
                and index.resolve_local_call(call, scope)
                is None  # a method of the module's own: not judged
                and (seed := seed_argument(call)) is not None
            ):
                yield call, seed, False
        for _, value in code.attribute_assignments(init_fn):
            made = index.qualify(value, scope) if value is not None else None
            if made not in catalog.RNG_INSTANCES:
                continue
            # `rng = np.random.default_rng(0)`, then `info.dataset.rng = rng`
            if isinstance(value, cst.Name):
                bound = index.lookup(value.value, scope)
                value = bound if isinstance(bound, cst.Call) else None
            if isinstance(value, cst.Call):
                seed = seed_argument(value)
                if seed is not None or made in catalog.TORCH_GENERATOR_OBJECTS:
                    yield value, seed, False

    @staticmethod
    def _finding(
        context: FileContext, init_fn: WorkerInitFn, call: cst.Call, global_seeding: bool
    ) -> Finding:
        return _constant_seed(
            call, f"`{context.code(call.func)}` in the {init_fn.label}", global_seeding
        )

    @staticmethod
    def _imported_finding(
        context: FileContext,
        argument: cst.BaseExpression,
        index: ModuleIndex,
        init_fn: WorkerInitFn,
        call: cst.Call,
        global_seeding: bool,
    ) -> Finding:
        """At the `worker_init_fn=` argument: the seeding is in another module, which this file's
        findings cannot point into."""
        row = context.settings.project.row_of(index, call)
        where = (
            f"line {row} of `{shown_name(index.module_name)}`"
            if row is not None
            else f"`{shown_name(index.module_name)}`"
        )
        seeding = written(call.func)
        return _constant_seed(
            argument, f"`{seeding}` in the {init_fn.label} ({where})", global_seeding
        )


def _constant_seed(node: cst.CSTNode, seeding: str, global_seeding: bool) -> Finding:
    seeded = "every worker" if global_seeding else "every worker's copy of the RNG"
    help_text = _GLOBAL_HELP if global_seeding else _OBJECT_HELP
    return Finding(
        node,
        f"{seeding} gives {seeded} the same seed, not derived from the worker id, "
        "`torch.initial_seed()` or `get_worker_info().seed`, so all workers draw the same random "
        "numbers",
        Fix(help_text, Applicability.DISPLAY_ONLY),
        help=help_text,
    )


class _WorkerDependence:
    """Whether a seed expression in a `worker_init_fn` can differ from one worker to another."""

    def __init__(
        self, index: ModuleIndex, classifier: EffectClassifier, init_fn: WorkerInitFn
    ) -> None:
        self.index = index
        self.classifier = classifier
        self.init_fn = init_fn
        self.locals = init_fn.function.scope.bindings if init_fn.function is not None else {}

    def of(self, expr: cst.CSTNode, hops: int = 0) -> bool:
        scope = self.init_fn.scope
        if isinstance(expr, cst.Name):
            return self._name(expr.value, hops)
        if isinstance(expr, cst.Attribute):
            return self.index.qualify(expr, scope) in _WORKER_INFO_FIELDS or self.of(
                expr.value, hops
            )
        if isinstance(expr, cst.Call):
            callee = self.index.qualify(expr.func, scope)
            if callee in _WORKER_SEEDS:
                return True
            if callee in _WORKER_INFO:
                return False  # only its `.seed` and `.id` differ between workers
            effect = self.classifier.effect(expr, scope)
            if (
                effect is not None and effect.kind not in ("save", "restore")
            ) or self.classifier.is_nondeterministic(expr, scope):
                return True  # a draw from generators torch seeds per worker, or fresh entropy
            transparent = callee is not None and (
                callee.startswith("builtins.")
                or (callee in _NUMPY_SEED_WRAPPERS and bool(expr.args))
            )
            if not transparent:
                return True  # code seedlint cannot see may read the worker
            return any(self.of(arg.value, hops) for arg in expr.args)
        if isinstance(expr, cst.Lambda):
            return True
        return any(self.of(child, hops) for child in iter_children(expr))

    def _name(self, name: str, hops: int) -> bool:
        if name in self.init_fn.worker_parameters:
            return True
        if name in self.init_fn.other_parameters or name not in self.locals:
            return (
                False  # fixed when the loader is built, or bound outside: the same in every worker
            )
        bound = self.locals[name]
        if isinstance(bound, cst.BaseExpression) and hops < _MAX_HOPS:
            return self.of(bound, hops + 1)
        # a local import is constant
        return not (isinstance(bound, str) and not bound.startswith("<"))
