"""SL401 functional-dropout-training: functional dropout in an `nn.Module` ignores
`train()`/`eval()`."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.branches import literal
from seedlint.analysis.context import FileContext
from seedlint.analysis.gradients import Gradients
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Scope,
    all_parameters,
    bind_arguments,
    parameter_names,
)
from seedlint.analysis.instances import instance_name
from seedlint.analysis.walk import iter_descendants
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.rules.base import Finding, Probe, Rule

# Classes whose instances carry the `training` flag that `train()` and `eval()` set.
_MODULE_BASES = catalog.NN_MODULES | catalog.LIGHTNING_MODULES
# Functional dropout and the default of its `training` parameter (the third one in each).
# `torch.dropout(input, p, train)` and friends are not listed: their `train` is required.
_DROPOUT_TRAINING_DEFAULT = {
    "torch.nn.functional.dropout": True,
    "torch.nn.functional.dropout1d": True,
    "torch.nn.functional.dropout2d": True,
    "torch.nn.functional.dropout3d": True,
    "torch.nn.functional.alpha_dropout": False,
    "torch.nn.functional.feature_alpha_dropout": False,
}
_TRAINING_POSITION = 2
_NO_INSTANCE_DECORATORS = frozenset({"builtins.staticmethod", "builtins.classmethod"})


class FunctionalDropoutTraining(Rule):
    code = "SL401"
    name = "functional-dropout-training"
    summary = (
        "Functional dropout in an `nn.Module` method without `training=` ignores `train()`/`eval()`"
    )
    fix_availability = "safe"
    patterns = ((b"dropout", b"Module"),)
    probe = Probe.EVAL_MODE_DRAW

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        gradients = Gradients(context)
        for call, scope in context.calls_to(*_DROPOUT_TRAINING_DEFAULT):
            method = index.function_of_scope.get(scope)
            if (
                method is None
                or method.owner_class is None
                or not index.subclasses_of(method.owner_class, _MODULE_BASES)
                or any(arg.star for arg in call.args)
                or argument(call, "training", _TRAINING_POSITION) is not None
            ):
                continue
            default = _DROPOUT_TRAINING_DEFAULT[index.qualify(call.func, scope)]
            if default and _follows_training_mode(context, call, method):
                continue  # in eval mode it does not run, or drops nothing
            if _zero_unless_given(context, call, method):
                continue  # `p=self.p`, 0 by default and as built here: it returns its input
            if default and gradients.without_grad(index.statement_of[call]):
                continue  # sampling code run without grad: its dropout is meant to draw there
            yield self._finding(context, call, method, default)

    def _finding(
        self, context: FileContext, call: cst.Call, method: FunctionInfo, default: bool
    ) -> Finding:
        callee = context.code(call.func)
        if default:
            message = (
                f"`{callee}` without `training=` defaults to `training=True`, so it keeps dropping "
                "activations at random after `model.eval()` and evaluation results change from "
                "call to call"
            )
        else:
            message = (
                f"`{callee}` without `training=` defaults to `training=False`, so it never drops "
                "anything, not even while the module trains"
            )
        instance = None if _is_static_or_class_method(context, method) else instance_name(method)
        if instance is None or not call.args:
            help = "Pass the module's `training` flag as `training=`"
            return Finding(call, message, Fix(help, Applicability.DISPLAY_ONLY), help=help)
        keyword = f"training={instance}.training"
        help = f"Pass `{keyword}`"
        # With a `False` default the fix turns dropout on while training: results of training
        # change.
        applicability = Applicability.SAFE if default else Applicability.UNSAFE
        return Finding(
            call,
            message,
            Fix(help, applicability, (_add_keyword(context, call, keyword),)),
            help=help,
        )


def _follows_training_mode(context: FileContext, call: cst.Call, method: FunctionInfo) -> bool:
    """Whether the method already makes the dropout follow `self.training`: its probability reads it
    (`p=self.p if self.training else 0.0`), or the call sits under a test of it (`if
    self.training:`, `F.dropout(x) if self.training else x`), or an earlier `if not self.training:
    return` leaves first."""
    probability = argument(call, "p", 1)
    if probability is not None and _reads_training(probability):
        return True
    if _given_by_callers(context, method, probability):
        return True
    statement = context.index.statement_of.get(call)
    if statement is not None and any(
        _reads_training(choice.test, context.index, method.scope)
        and (_holds(choice.body, call) or _holds(choice.orelse, call))
        for choice in (statement.node, *iter_descendants(statement.node))
        if isinstance(choice, cst.IfExp)
    ):
        return True
    while statement is not None and statement.node is not method.node:
        if any(
            isinstance(before.node, cst.If)
            and _reads_training(before.node.test, context.index, method.scope)
            and _leaves(before.node)
            for before in statement.siblings[: statement.position]
        ):
            return True
        statement = context.index.enclosing(statement)
        if (
            statement is not None
            and isinstance(statement.node, cst.If)
            and _reads_training(statement.node.test, context.index, method.scope)
        ):
            return True
    return False


def _zero_unless_given(context: FileContext, call: cst.Call, method: FunctionInfo) -> bool:
    """Whether the probability is an attribute set only from a constructor parameter whose
    default is 0 (`self.dropout_prob = do_prob`, `do_prob=0.`), which no construction in the
    module gives a value: dropout with `p=0` returns its input and draws nothing."""
    probability, owner = argument(call, "p", 1), method.owner_class
    if not (
        owner is not None
        and isinstance(probability, cst.Attribute)
        and isinstance(probability.value, cst.Name)
        and probability.value.value == instance_name(method)
    ):
        return False
    index = context.index
    init = index.find_method(owner, "__init__")
    assigned = owner.attributes.get(probability.attr.value, [])
    if init is None or not assigned:
        return False
    defaults = {param.name.value: param.default for param in all_parameters(init.node)}
    constructions = [
        call for call, scope in index.all_calls if index.resolve_local_call(call, scope) is init
    ]
    for value, scope in assigned:
        if not (
            scope is init.scope
            and isinstance(value, cst.Name)
            and value.value in defaults
            and literal(defaults[value.value]) == 0
        ):
            return False
        for construction in constructions:
            given = dict(bind_arguments(init, construction)).get(value.value)
            if any(arg.star for arg in construction.args) or (
                given is not None and literal(given) != 0
            ):
                return False
    return True


def _given_by_callers(
    context: FileContext, method: FunctionInfo, probability: cst.BaseExpression | None
) -> bool:
    """Whether the probability is a parameter of the method that its callers fill: with a value
    that reads the `training` flag (`self._attn(x, self.p if self.training else 0.0)`) at every
    call in the module, or at calls the module does not show (none here: the value is theirs)."""
    if not isinstance(probability, cst.Name) or probability.value not in parameter_names(
        method.node
    ):
        return False
    index = context.index
    given = [
        dict(bind_arguments(method, call)).get(probability.value)
        for call, scope in index.all_calls
        if index.resolve_local_call(call, scope) is method
    ]
    return all(value is not None and _reads_training(value) for value in given)


def _reads_training(
    node: cst.CSTNode, index: ModuleIndex | None = None, scope: Scope | None = None
) -> bool:
    """Whether an expression reads some module's `training` flag (`self.training`), directly or,
    given the scope, through a local name every binding of which reads it (`training =
    self.training`, then `if self.dropout > 0 and training:`)."""
    for inner in (node, *iter_descendants(node)):
        if isinstance(inner, cst.Attribute) and inner.attr.value == "training":
            return True
        if index is not None and scope is not None and isinstance(inner, cst.Name):
            values = index.bound_values(inner.value, scope)
            if values and all(
                isinstance(value, cst.BaseExpression) and _reads_training(value) for value in values
            ):
                return True
    return False


def _holds(node: cst.CSTNode, call: cst.Call) -> bool:
    """Whether `call` is `node` or inside it."""
    return any(inner is call for inner in (node, *iter_descendants(node)))


def _leaves(statement: cst.If) -> bool:
    """Whether an `if`'s body ends by leaving the function (`return` or `raise`)."""
    last = statement.body.body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1]
    return isinstance(last, (cst.Return, cst.Raise))


def _is_static_or_class_method(context: FileContext, method: FunctionInfo) -> bool:
    """Whether a method has no instance (`@staticmethod`, `@classmethod`)."""
    return any(
        context.index.qualify(d.decorator, method.scope.parent) in _NO_INSTANCE_DECORATORS
        for d in method.node.decorators
    )


def _add_keyword(context: FileContext, call: cst.Call, keyword: str) -> Edit:
    """Append a keyword argument after the last argument, keeping a trailing comma and the
    layout."""
    last = call.args[-1]
    _, end = context.layout.span(last)
    comma = last.comma
    if not isinstance(comma, cst.Comma):
        return Edit(end, end, f", {keyword}")
    comma_end = end + len(context.module.code_for_node(comma.whitespace_before)) + 1
    if not isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        return Edit(comma_end, comma_end, f" {keyword},")
    # `x,  # comment` then a line break: the keyword gets a line of its own, indented like the last
    # argument.
    source = context.source
    next_line = source.offset(source.location(comma_end).row + 1, 0)
    last_line = source.lines[source.location(end).row - 1]
    indentation = last_line[: len(last_line) - len(last_line.lstrip())]
    return Edit(next_line, next_line, f"{indentation}{keyword},{source.newline}")
