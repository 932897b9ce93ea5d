"""Code that runs over and over: a training loop's iterations, a dataset's items, per-epoch hooks.

A seeding call that runs on every repetition with the same seed resets its generators each time,
so every repetition replays the same random numbers (SL110). `Repetition` is the innermost such
context of a seeding event, found from the event's trail:

- a `for`/`while` loop whose iteration trains (calls `.backward()`, itself or in module functions it
  calls) without starting over (building an optimizer or a model, loading weights: a loop over
  configurations or folds that restarts training each time is left alone);
- `__getitem__` of a class: it runs once per item;
- a Lightning or Hugging Face hook that runs once per step or epoch.

`Dependence` decides whether a seed can differ between repetitions: it follows names through
local bindings and through the arguments of the calls on the trail.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import callee_name
from seedlint.analysis.bindings import bound_in, read_names
from seedlint.analysis.events import Event, Step
from seedlint.analysis.flow import isolated
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    bind_arguments,
    parameter_names,
)
from seedlint.analysis.walk import iter_descendants

_ITEM_METHODS = frozenset({"__getitem__", "__getitems__"})
# Hooks run once per training step or epoch, by the base class of the class defining them.
_LIGHTNING_HOOKS = frozenset(
    {
        "training_step",
        "validation_step",
        "on_train_batch_start",
        "on_train_batch_end",
        "on_before_backward",
        "on_validation_batch_start",
        "on_validation_batch_end",
        "on_train_epoch_start",
        "on_train_epoch_end",
        "on_validation_start",
        "on_validation_end",
        "on_validation_epoch_start",
        "on_validation_epoch_end",
        "training_epoch_end",
        "validation_epoch_end",
        "on_epoch_start",
        "on_epoch_end",
    }
)
_TRANSFORMERS_HOOKS = frozenset(
    {
        "on_epoch_begin",
        "on_epoch_end",
        "on_step_begin",
        "on_step_end",
        "on_substep_end",
        "on_evaluate",
        "on_prediction_step",
    }
)
_SB3_HOOKS = frozenset({"_on_step", "_on_rollout_start", "_on_rollout_end", "_on_event"})
_HOOKS = {
    **dict.fromkeys(catalog.LIGHTNING_MODULES | catalog.LIGHTNING_CALLBACKS, _LIGHTNING_HOOKS),
    **dict.fromkeys(catalog.TRANSFORMERS_CALLBACKS, _TRANSFORMERS_HOOKS),
    **dict.fromkeys(catalog.SB3_CALLBACKS, _SB3_HOOKS),
}
# What starting training over calls: an optimizer's or a model's constructor, a model builder, a
# weight reset. By the callee's last name: the loop that calls one builds a new run (left alone),
# wherever it is defined.
_RESTARTS = frozenset(
    {
        "SGD",
        "Adam",
        "AdamW",
        "Adamax",
        "Adagrad",
        "Adadelta",
        "RMSprop",
        "NAdam",
        "RAdam",
        "LBFGS",
        "Rprop",
        "ASGD",
        "SparseAdam",
        "Adafactor",
        "Lion",
        "LAMB",
        "Lamb",
        "Muon",
        "create_optimizer",
        "build_optimizer",
        "create_optimizer_v2",
        "from_pretrained",
        "from_config",
        "create_model",
        "build_model",
        "get_model",
        "load_state_dict",
        "reset_parameters",
        "deepcopy",
        "load_from_checkpoint",
    }
)
# Calls whose result depends only on their arguments.
_PURE_CALLS = frozenset(
    f"builtins.{name}" for name in ("int", "float", "str", "abs", "hash", "round", "min", "max")
)
# Attributes that count steps, epochs or items (`self.current_epoch`, `trainer.global_step`): they
# change.
_COUNTERS = ("epoch", "step", "iter", "batch", "index", "idx", "count")
# what a hook is given that changes between calls, besides counters
_HOOK_DATA = (
    "output",
    "metric",
    "log",
)
_MAX_DEPTH = 8


@dataclass(frozen=True)
class Repetition:
    """Where a seeding event repeats: `kind` "loop" (its `statement`), "item" or "hook" (its
    `function`); `start`: the trail position of the first step that repeats."""

    kind: str
    start: int
    statement: Statement | None = None
    function: FunctionInfo | None = None


def repetition_of(index: ModuleIndex, event: Event) -> Repetition | None:
    """The innermost repeated context of an event: a training loop that does not restart, an item or
    a hook.

    None when the event runs once, or when the first loop around it that trains starts training
    over.
    """
    trail = event.trail
    for position in range(len(trail) - 1, -1, -1):
        step = trail[position]
        function = index.function_of_scope.get(step.statement.scope)
        if (
            function is not None
            and _function_start(trail, position, step.statement.scope) == position
        ):
            kind = _repeated_function(index, function)
            if kind == "item" and _one_item(trail, position, function):
                return None  # `if index == 0:`: once per pass over the dataset, not per item
            if kind is not None:
                return Repetition(kind, position, function=function)
        if (
            step.call is None
            and isinstance(step.statement.node, (cst.For, cst.While))
            and position + 1 < len(trail)
            and _in_body(index, step.statement, trail[position + 1].statement)
        ):
            iteration = Iteration(index, step.statement)
            if iteration.trains and not guarded(index, trail, position):
                return (
                    None
                    if iteration.restarts
                    else Repetition("loop", position + 1, statement=step.statement)
                )
    return None


def loop_trail(index: ModuleIndex, call: cst.Call) -> tuple[Step, ...] | None:
    """The steps from the innermost loop of its function around a call down to the call (None: no
    loop)."""
    statement = index.statement_of[call]
    steps = [Step(statement, call)]
    outer = index.enclosing(statement)
    while outer is not None and not isinstance(outer.node, (cst.FunctionDef, cst.ClassDef)):
        steps.append(Step(outer, None))
        if isinstance(outer.node, (cst.For, cst.While)) and _in_body(
            index, outer, steps[-2].statement
        ):
            return tuple(reversed(steps))
        outer = index.enclosing(outer)
    return None


def guarded(index: ModuleIndex, trail, position: int) -> bool:
    """Whether the event runs in one iteration of the loop at trail `position`: under an `if` of the
    loop's code whose test picks an iteration by a name the loop binds (`if epoch == 0:`, `if not
    step:`). A test that holds in many (`if epoch % 5 == 0:`, `if step > warmup:`) still repeats the
    event."""
    return any(picks_one for _, picks_one in loop_guards(index, trail, position))


def loop_guards(index: ModuleIndex, trail, position: int) -> list[tuple[cst.BaseExpression, bool]]:
    """The tests of the `if`s of the loop's code (the loop at trail `position`) around the event
    that read a name the loop binds, each with whether it picks one iteration."""
    loop = trail[position].statement
    bound = bound_in(index, [loop])
    return [
        (step.statement.node.test, _picks_one_iteration(step.statement.node.test, bound))
        for step in trail[position + 1 :]
        if step.call is None
        and isinstance(step.statement.node, cst.If)
        and step.statement.scope is loop.scope
        and read_names(step.statement.node.test) & bound
    ]


def _picks_one_iteration(test: cst.BaseExpression, bound: set[str]) -> bool:
    """Whether a test equates a name the loop binds with something (`epoch == start`, `i is 0`, `not
    step`), without a modulo of it (`epoch % 5 == 0` holds every fifth iteration)."""
    nodes = [test, *iter_descendants(test)]
    if any(
        isinstance(node, cst.BinaryOperation)
        and isinstance(node.operator, cst.Modulo)
        and read_names(node) & bound
        for node in nodes
    ):
        return False
    return any(
        read_names(node) & bound
        for node in nodes
        if (
            isinstance(node, cst.Comparison)
            and any(isinstance(target.operator, (cst.Equal, cst.Is)) for target in node.comparisons)
        )
        or (
            isinstance(node, cst.UnaryOperation)
            and isinstance(node.operator, cst.Not)
            and isinstance(node.expression, cst.Name)
        )
    )


def _one_item(trail, position: int, function: FunctionInfo) -> bool:
    """Whether an event in `__getitem__` runs for one item only: under an `if` of the method's
    code whose test picks one value of its index (`if index == 0:`)."""
    parameters = [param.name.value for param in function.node.params.params[1:2]]
    return any(
        step.call is None
        and isinstance(step.statement.node, cst.If)
        and step.statement.scope is function.scope
        and _picks_one_iteration(step.statement.node.test, set(parameters))
        for step in trail[position:]
    )


def _function_start(trail, position: int, scope: Scope) -> int:
    """The trail position of the first step in the function body that holds step `position`."""
    while (
        position > 0
        and trail[position - 1].statement.scope is scope
        and trail[position - 1].call is None
    ):
        position -= 1
    return position


def _repeated_function(index: ModuleIndex, function: FunctionInfo) -> str | None:
    cls = function.owner_class
    if cls is None:
        return None
    name = function.node.name.value
    if name in _ITEM_METHODS:
        return "item"
    if any(
        name in hooks and index.subclasses_of(cls, frozenset({base}))
        for base, hooks in _HOOKS.items()
    ):
        return "hook"
    return None


def _in_body(index: ModuleIndex, loop: Statement, statement: Statement) -> bool:
    """Whether a statement is in the loop's body (its `else:` runs once)."""
    blocks = index.blocks_of(loop.node)
    return bool(blocks) and statement.siblings is blocks[0]


class Iteration:
    """What one iteration of a loop runs: its body and the module functions it calls."""

    def __init__(self, index: ModuleIndex, loop: Statement) -> None:
        self.index = index
        self.loop = loop

    def calls(self) -> Iterator[tuple[cst.Call, Scope]]:
        seen: set[FunctionInfo] = set()
        pending = [self.index.blocks_of(self.loop.node)[0]]
        while pending:
            for statement in pending.pop():
                for call in statement.calls:
                    yield call, statement.scope
                    function = self.index.resolve_local_call(call, statement.scope)
                    if function is not None and function not in seen and len(seen) < 4 * _MAX_DEPTH:
                        seen.add(function)
                        pending.append(self.index.body_of(function))
                if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    pending.extend(self.index.blocks_of(statement.node))

    @cached_property
    def _facts(self) -> tuple[bool, bool, frozenset[str]]:
        """(it trains, it starts training over, the generators whose saved state it puts back), in
        one walk."""
        trains = restarts = False
        restores: set[str] = set()
        for call, scope in self.calls():
            func = call.func
            name = callee_name(func)
            qualified = self.index.qualify(func, scope)
            trains = (
                trains or name in catalog.BACKWARD_METHODS or qualified == catalog.AUTOGRAD_BACKWARD
            )
            restarts = (
                restarts
                or name in _RESTARTS
                or (qualified is not None and qualified.rsplit(".", 1)[-1] in _RESTARTS)
                or self._builds_module(qualified)
                or qualified in catalog.SEEDING_CLASSES
            )
            restores |= catalog.STATE_RESTORERS.get(qualified or "", frozenset())
        return trains, restarts, frozenset(restores)

    def _builds_module(self, qualified: str | None) -> bool:
        """A model built afresh: a project `nn.Module`, or torch's layers with parameters."""
        module, _, name = (qualified or "").rpartition(".")
        if module in ("torch.nn", "torch.nn.modules") and name in catalog.RANDOM_INIT_MODULES:
            return True
        cls = self.index.classes.get(qualified or "")
        return cls is not None and self.index.subclasses_of(
            cls, catalog.NN_MODULES | catalog.LIGHTNING_MODULES
        )

    @property
    def trains(self) -> bool:
        return self._facts[0]

    @property
    def restarts(self) -> bool:
        return self._facts[1]

    @property
    def restores(self) -> frozenset[str]:
        """The generators the iteration puts a saved state back into
        (`torch.set_rng_state(state)`)."""
        return self._facts[2]


class Dependence:
    """Whether an expression on an event's trail can differ from one repetition to the next."""

    def __init__(self, index: ModuleIndex, event: Event, repetition: Repetition) -> None:
        self.index = index
        self.trail = event.trail
        self.repetition = repetition
        loop = repetition.statement
        self._loop_bound = bound_in(index, [loop]) if loop is not None else set()

    def varies(self, expr: cst.CSTNode, position: int, depth: int = 0) -> bool:
        """Whether `expr`, in the code of trail step `position`, can take another value next
        time."""
        if depth > _MAX_DEPTH:
            return True
        if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString, cst.Ellipsis)):
            return False
        if isinstance(expr, cst.Name):
            return self._name_varies(expr.value, position, depth)
        if isinstance(expr, cst.Attribute):
            return (
                _counts(expr.attr.value, _COUNTERS)
                or _stepped(expr, self.trail[position].statement.scope)
                or self._attribute_varies(expr, position, depth)
                or self.varies(expr.value, position, depth)
            )
        if isinstance(expr, cst.Call):
            return self._call_varies(expr, position, depth)
        if isinstance(
            expr, (cst.Lambda, cst.Await, cst.Yield, cst.NamedExpr, cst.ListComp, cst.GeneratorExp)
        ):
            return True
        return any(self.varies(child, position, depth + 1) for child in _value_children(expr))

    def _attribute_varies(self, expr: cst.Attribute, position: int, depth: int) -> bool:
        """Whether `self.<attr>` is rebound in each repetition: assigned in the method that reads
        it from a value that can change (`self.seed = np.random.randint(..)` in `__getitem__`),
        or in another method than `__init__` (what runs it between repetitions is not known)."""
        scope = self.trail[position].statement.scope
        cls = scope.owner_class
        if cls is None or not (isinstance(expr.value, cst.Name) and expr.value.value == "self"):
            return False
        for value, method in cls.attributes.get(expr.attr.value, []):
            if method is scope:
                if self.varies(value, position, depth + 1):
                    return True
            elif (function := self.index.function_of_scope.get(method)) is None or (
                function.node.name.value != "__init__"
            ):
                return True
        return False

    def _call_varies(self, call: cst.Call, position: int, depth: int) -> bool:
        scope = self.trail[position].statement.scope
        qualified = self.index.qualify(call.func, scope)
        values = [arg.value for arg in call.args]
        if qualified in _PURE_CALLS or qualified in ("os.getenv", "os.environ.get"):
            return any(self.varies(value, position, depth + 1) for value in values)
        # `config.get("seed", 0)`
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "get":
            return any(
                self.varies(value, position, depth + 1) for value in (call.func.value, *values)
            )
        return True  # what an unknown call returns may change

    def _name_varies(self, name: str, position: int, depth: int) -> bool:
        if name in ("None", "True", "False"):
            return False
        scope = self.trail[position].statement.scope
        loop = self.repetition.statement
        if loop is not None and scope is loop.scope and name in self._loop_bound:
            return True  # the loop variable, or computed in each iteration
        start = _function_start(self.trail, position, scope)
        if name not in scope.bindings or start < self.repetition.start:
            return False  # a global, or bound once before the repetitions began
        function = self.index.function_of_scope.get(scope)
        if function is not None and name in parameter_names(function.node):
            return self._parameter_varies(function, name, start, depth)
        bound = scope.bindings[name]
        if isinstance(bound, str):
            # an import or a definition is constant; an ambiguous name may not be
            return bound.startswith("<")
        if isinstance(bound, cst.BaseExpression):
            return self.varies(bound, position, depth + 1)
        return True  # bound without a known value (a loop target, an unpacking)

    def _parameter_varies(self, function: FunctionInfo, name: str, start: int, depth: int) -> bool:
        """Whether a parameter of a function run in each repetition can change: the item's index or
        the hook's batch can; a helper's follows what its caller on the trail passes."""
        if name == _self_name(function):
            return False  # the same object every time
        if start == self.repetition.start and self.repetition.kind != "loop":
            # an item's index changes; a hook's batch, outputs and counters do, its `trainer` or
            # `args` do not
            return self.repetition.kind == "item" or _counts(name, _COUNTERS + _HOOK_DATA)
        call = self.trail[start - 1].call
        arguments = dict(bind_arguments(function, call)) if call is not None else {}
        # its default, unless the call passes `*args` or it is variadic itself
        if name not in arguments:
            params = function.node.params
            variadic = {
                param.name.value
                for param in (params.star_arg, params.star_kwarg)
                if isinstance(param, cst.Param)
            }
            return call is None or name in variadic or any(arg.star for arg in call.args)
        return self.varies(arguments[name], start - 1, depth + 1)


def seed_origin(index: ModuleIndex, event: Event) -> int | None:
    """The trail position of the call that passes a seeding helper its seed (`set_seed(42)`, whose
    parameter `seed` goes to `torch.manual_seed(seed)`), through helpers that pass it on; None: the
    seed is the event's own."""
    expr, position, origin = event.effect.seed_arg, len(event.trail) - 1, None
    while isinstance(expr, cst.Name):
        scope = event.trail[position].statement.scope
        function = index.function_of_scope.get(scope)
        start = _function_start(event.trail, position, scope)
        call = event.trail[start - 1].call if start > 0 else None
        if function is None or call is None or expr.value not in parameter_names(function.node):
            break
        position = origin = start - 1
        expr = dict(bind_arguments(function, call)).get(expr.value)
    return origin


def _counts(name: str, words: tuple[str, ...]) -> bool:
    return any(word in name.lower() for word in words)


def _self_name(function: FunctionInfo) -> str | None:
    params = [*function.node.params.posonly_params, *function.node.params.params]
    return params[0].name.value if function.owner_class is not None and params else None


def _value_children(expr: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The sub-expressions whose values make up an expression's value."""
    if isinstance(expr, cst.BinaryOperation):
        yield from (expr.left, expr.right)
    elif isinstance(expr, cst.UnaryOperation):
        yield expr.expression
    elif isinstance(expr, cst.Subscript):
        yield expr.value
        for element in expr.slice:
            if isinstance(element.slice, cst.Index):
                yield element.slice.value
    elif isinstance(expr, cst.IfExp):
        yield from (expr.test, expr.body, expr.orelse)
    elif isinstance(expr, cst.Comparison):
        yield expr.left
        yield from (target.comparator for target in expr.comparisons)
    elif isinstance(expr, cst.BooleanOperation):
        yield from (expr.left, expr.right)
    elif isinstance(expr, (cst.Tuple, cst.List)):
        yield from (element.value for element in expr.elements)
    elif isinstance(expr, cst.FormattedString):
        yield from (
            part.expression
            for part in expr.parts
            if isinstance(part, cst.FormattedStringExpression)
        )
    elif isinstance(expr, cst.ConcatenatedString):
        yield from (expr.left, expr.right)
    else:
        yield cst.Name("<unknown>")  # an expression seedlint does not follow: treated as changing


def restored(index: ModuleIndex, event: Event, repetition: Repetition) -> frozenset[str]:
    """The generators whose state the repeated code restores after seeding: in a `with
    torch.random.fork_rng():` (or Lightning's `isolate_rng()`) block, or with
    `set_rng_state`/`set_state`/`setstate` calls in the same code."""
    found: set[str] = set()
    for step in event.trail[repetition.start :]:
        if step.call is None and isinstance(step.statement.node, cst.With):
            for item in step.statement.node.items:
                found |= isolated(index, item.item, step.statement.scope)
    if repetition.statement is not None:
        return frozenset(found) | Iteration(index, repetition.statement).restores
    scope = repetition.function.scope
    for call in index.calls_by_scope.get(scope, ()):
        found |= catalog.STATE_RESTORERS.get(index.qualify(call.func, scope) or "", frozenset())
    return frozenset(found)


def _stepped(expr: cst.Attribute, scope: Scope) -> bool:
    """Whether `self.<attr>`, read in a method, is stepped by a method of its class
    (`self.seed += 1` before each trial's `torch.manual_seed(self.seed)`)."""
    cls = scope.owner_class
    if cls is None or not (isinstance(expr.value, cst.Name) and expr.value.value == "self"):
        return False
    return any(
        isinstance(node, cst.AugAssign)
        and isinstance(node.target, cst.Attribute)
        and isinstance(node.target.value, cst.Name)
        and node.target.value.value == "self"
        and node.target.attr.value == expr.attr.value
        for node in iter_descendants(cls.node)
    )
