"""SL113 unused-seed-option: a command-line seed option that nothing in the program reads."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from seedlint.analysis.arguments import seed_argument
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import FunctionInfo, Scope, all_parameters
from seedlint.analysis.programs import importers, seed_options
from seedlint.analysis.walk import iter_children
from seedlint.files import display_path
from seedlint.rules.base import Finding, Rule

# Calls a namespace may be handed to without its seed being read: printing, logging and saving it.
_SHOWN = frozenset({"print", "pprint", "info", "debug", "warning", "log", "str", "repr"})
_RECORDED = frozenset(
    {"torch.save", "json.dump", "json.dumps", "pickle.dump", "yaml.dump", "yaml.safe_dump"}
)
_DEPTH = 3  # local functions followed where the namespace is handed on


class UnusedSeedOption(Rule):
    code = "SL113"
    name = "unused-seed-option"
    summary = "A `--seed` option that nothing in the program reads, so changing it changes nothing"
    patterns = ((b"seed", b"add_argument"), (b"seed", b"option("))

    def check(self, context: FileContext) -> Iterator[Finding]:
        options = list(seed_options(context))
        if not options:
            return
        importing = [path for path, _ in importers(context)]
        if not importing:
            unread = _unread(context, options)
        elif _parsed_on_import(context):
            unread = _unread_on_import(context, options, importing)
        else:
            return  # a library module's `__main__` demo or self-test, not the program
        for call, dest, message in unread:
            yield Finding(
                call,
                message,
                help=f"Seed from the option (`torch.manual_seed(args.{dest})`), or remove it",
            )


def _unread(
    context: FileContext, options: list[tuple[cst.Call, str, str]]
) -> Iterator[tuple[cst.Call, str, str]]:
    """(option, destination, message) of each seed option the program never reads."""
    for call, flag, dest in options:
        if not (_mentioned(context, call, dest) or _escapes(context, dest)):
            yield (
                call,
                dest,
                f"`{flag}` is parsed but nothing in the program reads it, so `{flag} 3` changes "
                f"nothing: {_what_seeds(context)}",
            )


def _parsed_on_import(context: FileContext) -> bool:
    """Whether the module parses its options at its top level (`args = parser.parse_args()`
    outside any function and `__main__` block): importing it parses them, so it is the option
    module of the programs that import it."""
    index = context.index
    calls = context.calls_by_name("parse_args") + context.calls_by_name("parse_known_args")
    return bool(calls) and all(
        scope is index.module_scope and index.enclosing(index.statement_of[call]) is None
        for call, scope in calls
    )


def _unread_on_import(
    context: FileContext, options: list[tuple[cst.Call, str, str]], importing: list[Path]
) -> Iterator[tuple[cst.Call, str, str]]:
    """The seed options of an option module that no project file reads (`args.seed`, a `"seed"`
    key, a parameter named for it; a script of another folder may import it through `sys.path`):
    the programs importing it parse `--seed` and ignore it."""
    project = context.settings.project
    assert project is not None  # there are importers
    here = os.path.abspath(context.path)
    names = ", ".join(f"`{display_path(path)}`" for path in importing[:2]) + (
        f" and {len(importing) - 2} more" if len(importing) > 2 else ""
    )
    for call, flag, dest in options:
        if _mentioned(context, call, dest):
            continue
        if any(
            os.path.abspath(path) != here
            for path in project.files_matching(dest, re.compile(_mention(dest)))
        ):
            continue
        yield (
            call,
            dest,
            f"`{flag}` is parsed when this module is imported (by {names}), but no file of the "
            f"project reads it, so `{flag} 3` changes nothing",
        )


def _mention(dest: str) -> str:
    """A mention of an option's destination that is not a call of a function of that name."""
    return rf"(?<!\.)\b{re.escape(dest)}\b(?!\s*\()|\.{re.escape(dest)}\b(?!\s*\()"


def _mentioned(context: FileContext, option: cst.Call, dest: str) -> bool:
    """Whether the module names the destination anywhere but in the option itself: an attribute
    (`args.seed`, `cfg.seed`), a key or a `getattr` string (`"seed"`), a click command's parameter,
    even a comment; not a call of a function of that name (`np.random.seed(0)`)."""
    text = context.source.text
    start, end = context.layout.span(option)
    return re.search(_mention(dest), text[:start] + text[end:]) is not None


def _escapes(context: FileContext, dest: str) -> bool:
    """Whether a parsed namespace goes where the analysis cannot follow: `vars(args)`,
    `args.__dict__`, returned, stored, or handed to a call other than printing and the module's own
    functions (followed a few deep)."""
    index = context.index
    namespaces = []
    for call, scope in context.calls_by_name("parse_args") + context.calls_by_name(
        "parse_known_args"
    ):
        statement = index.statement_of[call]
        node = statement.node
        if not (isinstance(node, cst.Assign) and node.value is call and len(node.targets) == 1):
            return True  # used in place: `main(parser.parse_args())`, returned, unpacked
        target = node.targets[0].target
        if isinstance(target, cst.Tuple) and call.func.attr.value == "parse_known_args":
            target = target.elements[0].value
        if not isinstance(target, cst.Name):
            return True
        namespaces.append((target.value, scope))
    if not namespaces and context.calls_by_name("option"):
        return True  # click hands the option to the command's parameter, read by name
    return any(_handed_on(context, name, scope, 0) for name, scope in namespaces)


def _handed_on(context: FileContext, name: str, scope: Scope, depth: int) -> bool:
    """Whether the namespace bound to `name` in `scope` escapes from it."""
    for node, parent, grandparent in _uses(scope.node, name):
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value == "__dict__":
                return True
            continue  # `args.lr`: a read of another option
        if isinstance(parent, cst.AssignTarget) or (
            isinstance(parent, cst.Assign) and node is not parent.value
        ):
            continue  # bound here
        if isinstance(parent, cst.Arg) and isinstance(grandparent, cst.Call):
            func = grandparent.func
            callee = (
                func.attr.value
                if isinstance(func, cst.Attribute)
                else func.value
                if isinstance(func, cst.Name)
                else None
            )
            if callee in _SHOWN or context.index.qualify(func, scope) in _RECORDED:
                continue
            function = _local_function(context, grandparent, scope)
            if function is None or depth >= _DEPTH:
                return True
            parameter = _parameter_for(function, grandparent, parent)
            if parameter is None or _handed_on(context, parameter, function.scope, depth + 1):
                return True
            continue
        return True  # stored, returned, iterated, compared: not followed
    return False


def _uses(
    root: cst.CSTNode, name: str
) -> Iterator[tuple[cst.Name, cst.CSTNode, cst.CSTNode | None]]:
    """(name, parent, grandparent) of each use of a name under `root`, nested functions and
    classes included (a parameter of the same name shadows it there: not followed)."""
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(root, None, None)]
    while stack:
        node, parent, grandparent = stack.pop()
        if isinstance(node, cst.Name) and node.value == name and parent is not None:
            yield node, parent, grandparent
            continue
        if node is not root and isinstance(node, (cst.FunctionDef, cst.Lambda)):
            if any(p.name.value == name for p in all_parameters(node)):
                continue
        if isinstance(node, cst.Param):  # a definition, not a use
            continue
        if isinstance(node, cst.Attribute):  # `self.args` is not a use of `args`
            stack.append((node.value, node, parent))
            continue
        if isinstance(node, cst.Arg):  # `f(args=..)`: the keyword is not a use
            stack.append((node.value, node, parent))
            continue
        stack.extend((child, node, parent) for child in reversed(list(iter_children(node))))


def _local_function(context: FileContext, call: cst.Call, scope: Scope) -> FunctionInfo | None:
    qualified = context.index.qualify(call.func, scope)
    return context.index.functions.get(qualified) if qualified else None


def _parameter_for(function: FunctionInfo, call: cst.Call, arg: cst.Arg) -> str | None:
    """The parameter of a local function that an argument of a call to it binds."""
    if arg.star:
        return None
    if arg.keyword is not None:
        return arg.keyword.value
    position = [a for a in call.args if a.keyword is None and not a.star].index(arg)
    parameters = [p.name.value for p in all_parameters(function.node)]
    if function.owner_class is not None:
        position += 1  # `self`
    return parameters[position] if position < len(parameters) else None


def _what_seeds(context: FileContext) -> str:
    """What seeds the program instead, as far as the analysis sees."""
    for flow in context.seeding_flows:
        for event in flow.seeds():
            seed = seed_argument(event.call)
            row = context.layout.source.location(context.layout.span(event.call)[0]).row
            if seed is not None and isinstance(seed, (cst.Integer, cst.Name)):
                return (
                    f"the program seeds with `{context.shown(seed)}` instead "
                    f"({context.line_name(row)})"
                )
            return f"the program's seeding ({context.line_name(row)}) does not use it"
    return "the program seeds nothing"
