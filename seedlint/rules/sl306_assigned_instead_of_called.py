"""SL306 assigned-instead-of-called: `torch.manual_seed = 0` replaces the function instead of
calling it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

# What the rule can flag: a value assigned to an attribute named as a seeding function or a
# determinism switch is (`torch.manual_seed = 0`, the target in brackets or over lines).
_ASSIGNED = re.compile(
    rb"\.[\s\\]*(?:"
    + b"|".join(
        sorted(
            {
                re.escape(qualified.rsplit(".", 1)[-1].encode())
                for qualified in (*catalog.SEEDERS, *catalog.DETERMINISTIC_SWITCHES)
            }
        )
    )
    + rb")\b[\s\\)]*=(?!=)"
)


def _going_without(qualified: str) -> tuple[str, frozenset[str]] | None:
    """What the program goes without when the function is replaced, and the generators concerned;
    None when it is neither a seeding function nor a determinism switch."""
    if qualified in catalog.DETERMINISTIC_SWITCHES:
        return catalog.DETERMINISTIC_SWITCHES[qualified].without, frozenset()
    seeder = catalog.SEEDERS.get(qualified)
    if seeder is None or "()" in qualified:
        return None
    named = catalog.generators_named(seeder.seeds)
    return f"{named} {'are' if named.endswith('s') else 'is'} not seeded", seeder.seeds


def _a_setting(value: cst.BaseExpression | None) -> bool:
    """Whether a value is a seed or a flag, never a function put in place on purpose (a patch, a
    mock): a number, a string, `True`/`False`/`None`, arithmetic on them, or a name that says seed
    or deterministic."""
    if isinstance(
        value,
        (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString),
    ):
        return True
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
        return True
    name = (
        value.value
        if isinstance(value, cst.Name)
        else value.attr.value
        if isinstance(value, cst.Attribute)
        else None
    )
    return name is not None and (
        name in ("True", "False", "None")
        or any(word in name.lower() for word in ("seed", "deterministic"))
    )


class AssignedInsteadOfCalled(Rule):
    code = "SL306"
    name = "assigned-instead-of-called"
    summary = (
        "A seeding function or determinism switch assigned a value "
        "instead of called, which does nothing"
    )
    fix_availability = "unsafe"
    patterns = (_ASSIGNED,)
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        for statement, target, value in index.assignments():
            node = statement.node
            # a patch defined here
            if (
                not isinstance(node, cst.Assign)
                or not isinstance(target, cst.Attribute)
                or not _a_setting(value)
                or index.qualify(value, statement.scope) in index.functions
            ):
                continue
            qualified = index.qualify(target, statement.scope)
            going_without = _going_without(qualified) if qualified is not None else None
            if going_without is None:
                continue
            what, generators = going_without
            function, argument = context.code(target), context.code(value)
            call = f"{function}({argument})"
            fix = None
            if len(node.targets) == 1 and value is node.value:
                fix = Fix(
                    f"Call it: `{call}`", Applicability.UNSAFE, (context.edits.replace(node, call),)
                )
            yield Finding(
                node,
                f"`{function} = {argument}` replaces the function with `{argument}` instead of "
                f"calling it, so {what} (and a later call of it fails)",
                fix,
                help=f"Call it: `{call}`",
                generators=generators,
            )
