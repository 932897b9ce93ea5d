"""Where no gradient can flow: code that runs without autograd, and tensors that cannot require
grad.

A backward-only nondeterministic op (SL303) cannot make gradients differ when none flow through it:

- code under `with torch.no_grad():` / `torch.inference_mode()` / `torch.set_grad_enabled(False)`,
  in a function decorated with one of them, in a Lightning `validation_step`/`test_step`/
  `predict_step` (Lightning runs them without grad), or in a function only called from such code;
- a tensor that cannot require grad: a batch from a `DataLoader` and what plain conversions make of
  it (`batch.to(device).float() / 255`, `images, labels = batch`), a `.detach()`ed tensor, what is
  computed under no-grad, and the output of a module frozen with `requires_grad_(False)` applied to
  one.
"""

from __future__ import annotations

from functools import cached_property

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.bindings import reaching_bindings
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import (
    FunctionInfo,
    Scope,
    Statement,
    _target_names,
    all_parameters,
    dotted_name,
)
from seedlint.analysis.walk import iter_descendants

_NO_GRAD_CONTEXTS = frozenset(
    {
        "torch.no_grad",
        "torch.autograd.no_grad",
        "torch.autograd.grad_mode.no_grad",
        "torch.inference_mode",
        "torch.autograd.inference_mode",
        "torch.autograd.grad_mode.inference_mode",
    }
)
_GRAD_SWITCHES = frozenset(
    {
        "torch.set_grad_enabled",
        "torch.autograd.set_grad_enabled",
        "torch.autograd.grad_mode.set_grad_enabled",
    }
)
_NO_GRAD_STEPS = frozenset({"validation_step", "test_step", "predict_step"})
# Calls that train: a backward pass, an optimizer (or scheduler) step.
_TRAINING_METHODS = frozenset({"backward", "manual_backward", "step", "zero_grad"})
_DATA_LOADERS = frozenset(
    {"torch.utils.data.DataLoader()", "torch.utils.data.dataloader.DataLoader()"}
)
_ITERATION_WRAPPERS = frozenset(
    {
        "builtins.enumerate",
        "builtins.iter",
        "tqdm.tqdm",
        "tqdm.auto.tqdm",
        "tqdm.notebook.tqdm",
    }
)
# Tensor methods whose result requires grad only if the tensor they are called on does.
_CONVERSIONS = frozenset(
    {
        "to",
        "float",
        "half",
        "double",
        "bfloat16",
        "long",
        "int",
        "cuda",
        "cpu",
        "contiguous",
        "permute",
        "unsqueeze",
        "squeeze",
        "view",
        "reshape",
        "flatten",
        "transpose",
        "clone",
        "type",
        "div",
        "mul",
        "add",
        "sub",
        "clamp",
        "expand",
        "repeat",
        "narrow",
    }
)
_MAX_DEPTH = 8
# What a project decorator's module must spell to be read for turning grad off.
_GRAD_SPELLINGS = (b"no_grad", b"inference_mode")
_GRAD_ON = frozenset({"torch.enable_grad", "torch.autograd.enable_grad"})


class Gradients:
    """What one module shows about where gradients flow."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.index = context.index
        self._sources_of: dict[
            Scope, dict[str, list[tuple[Statement, cst.BaseExpression | None]]]
        ] = {}
        # names being judged: a cycle adds no source of grad
        self._visiting: set[tuple[str, Scope]] = set()

    # ------------------------------------------------------------------ evaluation
    def evaluates(self, loop: Statement) -> bool:
        """Whether a loop over a loader only evaluates: nothing it runs (in the module's code it
        calls too) takes a backward pass or an optimizer step, and it shows that it evaluates: it
        runs with autograd off, turns it off inside, or follows `model.eval()`. Its order then
        changes only how its sums round."""
        if self._trains(loop.node, loop.scope, 0):
            return False
        if self.without_grad(loop):
            return True
        for node in iter_descendants(loop.node):
            if isinstance(node, cst.With) and any(
                self._turns_grad_off(item.item, loop.scope) for item in node.items
            ):
                return True
        earlier = [
            call for statement in loop.siblings[: loop.position + 1] for call in statement.calls
        ]
        inside = [node for node in iter_descendants(loop.node) if isinstance(node, cst.Call)]
        return any(_is_method_call(call, "eval") for call in (*earlier, *inside))

    def trains(self, statement: Statement) -> bool:
        """Whether running a statement takes a backward pass or an optimizer step (itself, or in
        a function of the module it calls)."""
        return self._trains(statement.node, statement.scope, 0)

    def _trains(self, node: cst.CSTNode, scope: Scope, depth: int) -> bool:
        """Whether running a node takes a backward pass or an optimizer step (itself, or in a
        function of the module it calls)."""
        for inner in iter_descendants(node):
            if not isinstance(inner, cst.Call):
                continue
            func = inner.func
            if isinstance(func, cst.Attribute) and func.attr.value in _TRAINING_METHODS:
                return True
            if self.index.qualify(func, scope) in catalog.GRADIENT_CALLS:
                return True
            target = self.index.resolve_local_call(inner, scope)
            if (
                target is not None
                and depth < _MAX_DEPTH
                and target.node is not node
                and self._trains(target.node.body, target.scope, depth + 1)
            ):
                return True
        return False

    def runs_no_backward(self, function: FunctionInfo) -> bool:
        """Whether no backward pass can run through what a module-level function computes: it
        takes none itself (nor in what it calls), and neither do the module's functions that call
        it, up its callers to the module's top level (`validate()`, called beside `train()`, never
        by it). False when a function on the way has no caller in the module: what runs it is not
        seen."""
        if function.owner_class is not None or self._trains(function.node.body, function.scope, 0):
            return False
        seen: set[FunctionInfo] = set()
        pending = [function]
        while pending:
            current = pending.pop()
            callers = self._callers.get(current, [])
            if not callers:
                return False  # run from elsewhere: what its callers do is not seen
            for call in callers:
                scope = self.index.statement_of[call].scope
                caller = self.index.function_of_scope.get(scope)
                if caller is None:  # the module's top level
                    if self._trains_directly(self.index.module_scope):
                        return False
                    continue
                if caller not in seen:
                    seen.add(caller)
                    if self._trains_directly(caller.scope):
                        return False
                    pending.append(caller)
        return True

    def _trains_directly(self, scope: Scope) -> bool:
        """Whether a scope's own code takes a backward pass or steps an optimizer."""
        return any(
            (isinstance(call.func, cst.Attribute) and call.func.attr.value in _TRAINING_METHODS)
            or self.index.qualify(call.func, scope) in catalog.GRADIENT_CALLS
            for call in self.index.calls_by_scope.get(scope, ())
        )

    # ------------------------------------------------------------------ no-grad code
    def without_grad(self, statement: Statement, depth: int = 0) -> bool:
        """Whether a statement only ever runs with autograd off."""
        index = self.index
        compound = index.enclosing(statement)
        while compound is not None and not isinstance(
            compound.node, (cst.FunctionDef, cst.ClassDef)
        ):
            if isinstance(compound.node, cst.With) and any(
                self._turns_grad_off(item.item, compound.scope) for item in compound.node.items
            ):
                return True
            compound = index.enclosing(compound)
        function = index.function_of_scope.get(statement.scope)
        if function is None:
            return False
        if any(
            self._turns_grad_off(d.decorator, function.scope.parent)
            for d in function.node.decorators
        ):
            return True
        owner = function.owner_class
        if (
            owner is not None
            and function.node.name.value in _NO_GRAD_STEPS
            and index.subclasses_of(owner, catalog.LIGHTNING_MODULES)
        ):
            return True
        callers = self._callers.get(function, [])
        return (
            bool(callers)
            and depth < _MAX_DEPTH
            and all(self.without_grad(index.statement_of[call], depth + 1) for call in callers)
        )

    def _turns_grad_off(self, expr: cst.BaseExpression, scope: Scope | None) -> bool:
        """`torch.no_grad()`, `torch.no_grad` (as a decorator), `torch.inference_mode()`,
        `set_grad_enabled(False)`."""
        scope = scope or self.index.module_scope
        func = expr.func if isinstance(expr, cst.Call) else expr
        qualified = self.index.qualify(func, scope)
        if qualified in _NO_GRAD_CONTEXTS:
            return not (
                isinstance(expr, cst.Call) and is_literal(argument(expr, "mode", 0), "False")
            )
        return (
            qualified in _GRAD_SWITCHES
            and isinstance(expr, cst.Call)
            and is_literal(argument(expr, "mode", 0), "False")
        ) or self._decorates_without_grad(expr, qualified)

    def _decorates_without_grad(self, expr: cst.BaseExpression, qualified: str | None) -> bool:
        """A project decorator (or the factory of one: `@smart_inference_mode()`) whose code turns
        grad off and nowhere on: `(torch.inference_mode if new else torch.no_grad)()(fn)`."""
        project = self.context.settings.project
        if project is None or qualified is None:
            return False
        found = project.function(qualified, _GRAD_SPELLINGS)
        if found is None:
            return False
        index, function = found
        scope = function.scope
        named = [
            index.qualify(node, scope)
            for node in iter_descendants(function.node.body)
            if isinstance(node, (cst.Name, cst.Attribute))
        ]
        return any(name in _NO_GRAD_CONTEXTS for name in named) and not any(
            name in _GRAD_SWITCHES or name in _GRAD_ON for name in named
        )

    @cached_property
    def _callers(self) -> dict[FunctionInfo, list[cst.Call]]:
        callers: dict[FunctionInfo, list[cst.Call]] = {}
        for call, scope in self.index.all_calls:
            function = self.index.resolve_local_call(call, scope)
            if function is not None:
                callers.setdefault(function, []).append(call)
        return callers

    # ------------------------------------------------------------------ tensors
    def cannot_require_grad(
        self,
        expr: cst.BaseExpression,
        scope: Scope,
        depth: int = 0,
        at: Statement | None = None,
    ) -> bool:
        """Whether the tensor an expression gives cannot require grad (`at`: the statement that
        reads it, whose names are the values bound last before it)."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(expr, cst.Name):
            return self._name_without_grad(expr.value, scope, depth, at)
        if isinstance(expr, cst.Subscript):
            return self.cannot_require_grad(expr.value, scope, depth + 1, at)
        if isinstance(expr, cst.UnaryOperation):
            return self.cannot_require_grad(expr.expression, scope, depth + 1, at)
        if isinstance(expr, cst.BinaryOperation):
            operands = [
                side
                for side in (expr.left, expr.right)
                if not isinstance(side, (cst.Integer, cst.Float))
            ]
            return bool(operands) and all(
                self.cannot_require_grad(side, scope, depth + 1, at) for side in operands
            )
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            method = expr.func.attr.value
            if method == "detach":
                return True
            if method in _CONVERSIONS:
                return self.cannot_require_grad(expr.func.value, scope, depth + 1, at)
        if isinstance(expr, cst.Call):
            return self._frozen_output(expr, scope, depth)
        return False

    def _name_without_grad(
        self, name: str, scope: Scope, depth: int, at: Statement | None = None
    ) -> bool:
        """A local name every binding of which gives a tensor that cannot require grad (not a
        parameter): the bindings that reach `at`, else every binding in the scope."""
        function = self.index.function_of_scope.get(scope)
        if function is not None and any(
            param.name.value == name for param in all_parameters(function.node)
        ):
            return False
        key = (name, scope)
        if key in self._visiting:
            return True  # `x = x.to(device)`: the other bindings decide
        sources = self._sources(scope).get(name)
        if sources and at is not None and at.scope is scope:
            reaching = reaching_bindings(self.index, at, name)
            sources = [source for source in sources if source[0] in reaching] or sources
        if not sources:
            return False
        self._visiting.add(key)
        try:
            return all(
                self._source_without_grad(statement, value, depth) for statement, value in sources
            )
        finally:
            self._visiting.discard(key)

    def _source_without_grad(
        self, statement: Statement, value: cst.BaseExpression | None, depth: int
    ) -> bool:
        if self.without_grad(statement):
            return True
        if isinstance(statement.node, cst.For):
            return self._iterates_a_loader(statement.node.iter, statement.scope)
        return value is not None and self.cannot_require_grad(
            value, statement.scope, depth + 1, statement
        )

    def _sources(
        self, scope: Scope
    ) -> dict[str, list[tuple[Statement, cst.BaseExpression | None]]]:
        """name -> (binding statement, value) for the assignments and `for` targets of a scope."""
        if scope not in self._sources_of:
            sources: dict[str, list[tuple[Statement, cst.BaseExpression | None]]] = {}
            for statement in self.index.statements_in(scope):
                node = statement.node
                if isinstance(node, cst.Assign):
                    for target in node.targets:
                        for name in _target_names(target.target):
                            sources.setdefault(name, []).append((statement, node.value))
                elif isinstance(node, cst.For):
                    for name in _target_names(node.target):
                        sources.setdefault(name, []).append((statement, None))
            self._sources_of[scope] = sources
        return self._sources_of[scope]

    def _iterates_a_loader(self, iterable: cst.BaseExpression, scope: Scope) -> bool:
        """`for batch in loader`, `enumerate(loader)`, `tqdm(train_loader)`: batches of a
        DataLoader."""
        while (
            isinstance(iterable, cst.Call)
            and iterable.args
            and self.index.qualify(iterable.func, scope) in _ITERATION_WRAPPERS
        ):
            iterable = iterable.args[0].value
        if self.index.qualify(iterable, scope) in _DATA_LOADERS:
            return True
        dotted = dotted_name(iterable)  # a loader handed in (`def train(model, train_loader)`)
        return dotted is not None and dotted.rsplit(".", 1)[-1].lower().endswith("loader")

    def _frozen_output(self, call: cst.Call, scope: Scope, depth: int) -> bool:
        """`depth_model(images)`: a module frozen with `requires_grad_(False)` applied to tensors
        without grad."""
        callee = dotted_name(call.func)
        if callee is None or callee not in self._frozen:
            return False
        inputs = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        return bool(inputs) and all(
            self.cannot_require_grad(value, scope, depth + 1) for value in inputs
        )

    @cached_property
    def _frozen(self) -> set[str]:
        """Dotted names of modules frozen: `m.requires_grad_(False)`, `m =
        Net().requires_grad_(False)`, or `for p in m.parameters(): p.requires_grad = False`."""
        frozen: set[str] = set()
        for call, _ in self.index.all_calls:
            func = call.func
            if not (
                isinstance(func, cst.Attribute)
                and func.attr.value == "requires_grad_"
                and is_literal(argument(call, "requires_grad", 0), "False")
            ):
                continue
            receiver = func.value
            while isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute):
                receiver = receiver.func.value  # `Net().eval().requires_grad_(False)`
            statement = self.index.statement_of[call]
            if isinstance(receiver, (cst.Name, cst.Attribute)):
                frozen.add(dotted_name(receiver))
            if isinstance(statement.node, cst.Assign) and statement.node.value is call:
                frozen.update(dotted_name(target.target) for target in statement.node.targets)
        for statements in self.index.statements.values():
            for statement in statements:
                node = statement.node
                if (
                    isinstance(node, cst.For)
                    and isinstance(node.target, cst.Name)
                    and _freezes(node)
                ):
                    iterable = node.iter
                    if (
                        isinstance(iterable, cst.Call)
                        and isinstance(iterable.func, cst.Attribute)
                        and iterable.func.attr.value == "parameters"
                    ):
                        frozen.add(dotted_name(iterable.func.value))
        frozen.discard(None)
        return frozen


def _freezes(loop: cst.For) -> bool:
    """`for p in m.parameters(): p.requires_grad = False` (or `p.requires_grad_(False)`)."""
    target = loop.target.value
    for node in iter_descendants(loop.body):
        if (
            isinstance(node, cst.Assign)
            and is_literal(node.value, "False")
            and any(dotted_name(t.target) == f"{target}.requires_grad" for t in node.targets)
        ):
            return True
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "requires_grad_"
            and dotted_name(node.func.value) == target
            and is_literal(argument(node, "requires_grad", 0), "False")
        ):
            return True
    return False


def _is_method_call(call: cst.Call, method: str) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == method and not call.args


def differentiates(context: FileContext) -> bool:
    """Whether the module runs backward passes: `.backward()`, `torch.autograd.grad`, a Lightning
    `training_step`. In a notebook (nothing imports it) only the calls its cells run count: a
    `train_epoch` whose only call is commented out runs none."""
    calls = [call for call, _ in context.index.all_calls if is_backward(call)]
    calls += [call for call, _ in context.calls_to(*catalog.GRADIENT_CALLS)]
    if context.program is not None:
        calls = [call for call in calls if call in context.calls_run]
    if calls:
        return True
    return any(
        function.node.name.value == "training_step" for function in context.index.functions.values()
    )


def is_backward(call: cst.Call) -> bool:
    """`loss.backward()`, `accelerator.backward(loss)`, `self.manual_backward(loss)`."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value in catalog.BACKWARD_METHODS
