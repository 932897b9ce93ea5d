"""SL201 missing-set-epoch: a shuffling DistributedSampler reused every epoch without
`set_epoch`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.branches import parameter_values, test_value
from seedlint.analysis.context import FileContext
from seedlint.analysis.gradients import Gradients
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Statement, bind_arguments
from seedlint.analysis.instances import (
    instance_name,
    is_kept,
    kept_attributes,
    kept_from,
    methods_in_view,
)
from seedlint.analysis.samplers import LOADER_SAMPLER_POSITION, SHUFFLE_POSITION, Handed
from seedlint.analysis.walk import iter_descendants
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import DISTRIBUTED, ITERATES
from seedlint.rules.base import Finding, Probe, Rule

_MAX_DEPTH = 6
_NOT_ITERATING = frozenset(
    {"len", "range", "str", "repr", "print", "id", "type", "isinstance", "hasattr", "getattr"}
)


class _Handles:
    """The expressions (as written) that hold a shuffling DistributedSampler or a loader over
    one."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.samplers: set[str] = set()
        self.loaders: dict[str, str] = {}  # loader -> the sampler to call set_epoch on
        # the samplers (as `held` names them) made on every path of their scope
        self.always: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self.samplers or self.loaders)

    def held(self, node: cst.CSTNode) -> str | None:
        """The sampler expression to call `set_epoch` on, when `node` holds one."""
        code = self.context.written(node)
        if code in self.samplers:
            return code
        return self.loaders.get(code)

    def sampler_of(self, receiver: cst.BaseExpression) -> str | None:
        """The sampler a `set_epoch` receiver is known to be: a sampler, or `loader.sampler`."""
        if isinstance(receiver, cst.Attribute) and receiver.attr.value == "sampler":
            return self.loaders.get(self.context.written(receiver.value)) or self.held(receiver)
        return self.held(receiver)


class MissingSetEpoch(Rule):
    code = "SL201"
    name = "missing-set-epoch"
    summary = "A shuffling DistributedSampler is iterated every epoch without `set_epoch`"
    fix_availability = "safe"
    patterns = (b"DistributedSampler", DISTRIBUTED)
    probe = Probe.EPOCH_ORDER

    def check(self, context: FileContext) -> Iterator[Finding]:
        handles = self._handles(context)
        if not handles:
            return
        yield from self._kept_by_objects(context, handles)
        index = context.index
        loops = [
            s
            for block in index.statements.values()
            for s in block
            if isinstance(s.node, (cst.For, cst.While))
        ]
        epoch_loops = {}
        gradients = Gradients(context)
        for loop in loops:
            if self._iteration(context, loop, handles) is None:
                held = self._iterates(context, index.blocks_of(loop.node), handles, set(), 0)
                if held is not None and not _samples_batches(gradients, loop):
                    epoch_loops[loop] = held
        for loop, held in epoch_loops.items():
            enclosing = [
                other
                for other in epoch_loops
                if other is loop or loop in self._inside(index, other)
            ]
            if any(
                other is not loop and other in self._inside(index, loop) for other in epoch_loops
            ):
                continue  # report the innermost epoch loop only
            guards = [
                guard
                for other in enclosing
                for guard in self._set_epoch_guards(
                    context, index.blocks_of(other.node), handles, held, None, set(), 0
                )
            ]
            if None in guards or (guards and held not in handles.always):
                continue
            node = loop.node
            reachable = _reachable(handles, held, loop.scope)
            # `if args.distributed: sampler.set_epoch(epoch)`, with a sampler distributed on every
            # path
            if guards:
                message = (
                    "this epoch loop calls `set_epoch` only when "
                    f"`{context.shown(guards[0])}`, but "
                    "its shuffling `DistributedSampler` is used on every path, so when that is "
                    "false every epoch visits the data in the same order (a training-quality bug: "
                    "no reshuffling between epochs)"
                )
            else:
                message = (
                    "this epoch loop never calls `set_epoch` on its shuffling "
                    "`DistributedSampler`, so every epoch visits the data in the same order (a "
                    "training-quality bug: no reshuffling between epochs, not run-to-run "
                    "nondeterminism)"
                )
            yield Finding(
                node,
                message,
                self._fix(context, loop, reachable or held, held in handles.always, reachable),
                help=f"Call `{reachable or held}.set_epoch(epoch)` at the start of every epoch",
                end_node=node.iter if isinstance(node, cst.For) else node.test,
            )

    # --------------------------------------------------------------- objects
    @staticmethod
    def _kept_by_objects(context: FileContext, handles: _Handles) -> Iterator[Finding]:
        """Constructor calls that hand the loader to a project class keeping it (`Trainer(model,
        loader)` whose `__init__` stores `self.loader = loader`) whose method, called here, loops
        over epochs iterating it, with `set_epoch` neither in the class nor in this module."""
        project, index = context.settings.project, context.index
        if project is None or any(
            _set_epoch_receiver(call) is not None for call, _ in index.all_calls
        ):
            return
        for call, scope in index.all_calls:
            handed = any(handles.held(arg.value) is not None for arg in call.args)
            qualified = index.qualify(call.func, scope) if handed else None
            found = project.function(qualified, ITERATES) if qualified else None
            object_keeps = (
                kept_from(*found, call, lambda arg: handles.held(arg) is not None)
                if found
                else None
            )
            if object_keeps is None or project.mentions(found[0], b"set_epoch"):  # type: ignore[index]
                continue
            kept, methods = object_keeps
            looping = _epoch_methods(methods, kept)
            called = next(
                (method for method in _called_on(context, call) if method in looping), None
            )
            if called is not None:
                yield Finding(
                    call,
                    f"`{context.code(call.func)}(..)` keeps the loader over a shuffling "
                    f"`DistributedSampler`, and its `{called}()` loops over epochs without "
                    "calling `set_epoch`, so every epoch visits the data in the same order (a "
                    "training-quality bug: no reshuffling between epochs)",
                    None,
                    help=(
                        "Call `set_epoch(epoch)` on the sampler at the start of "
                        f"every epoch in `{called}()`"
                    ),
                )

    # ------------------------------------------------------------------ handles
    def _handles(self, context: FileContext) -> _Handles:
        index = context.index
        samplers = set(catalog.DISTRIBUTED_SAMPLERS) | {
            cls.qualified
            for cls in index.classes.values()
            if index.subclasses_of(cls, catalog.DISTRIBUTED_SAMPLERS)
        }
        handles = _Handles(context)
        created = set()
        for call, scope in index.all_calls:
            qualified = index.qualify(call.func, scope)
            if (
                qualified in samplers
                and not is_literal(argument(call, "shuffle", SHUFFLE_POSITION), "False")
                and not _ruled_out_by_callers(context, call)
            ):
                created.add(call)
                targets = self._targets(context, call)
                handles.samplers.update(targets)
                if _on_every_path(context, call):
                    handles.always.update(targets)
        self._handed_from_elsewhere(context, handles)
        if not created:
            return handles
        factories = _factories(context, created)
        for call, scope in index.all_calls:
            if index.qualify(call.func, scope) in catalog.DATA_LOADERS:
                sampler = argument(call, "sampler", LOADER_SAMPLER_POSITION)
                if sampler is None or is_none(sampler):
                    continue
                factory = (
                    factories.get(index.qualify(sampler.func, scope) or "")
                    if isinstance(sampler, cst.Call)
                    else None
                )
                if factory is not None:  # `sampler=data_sampler(ds, shuffle=True, distributed=..)`
                    if _shuffles(factory, sampler):
                        handles.loaders.update(
                            {target: f"{target}.sampler" for target in self._targets(context, call)}
                        )
                    continue
                returned = isinstance(index.statement_of[call].node, cst.Return)
                by_name = context.written(sampler) in handles.samplers and not returned
                if sampler in created or context.written(sampler) in handles.samplers:
                    made_always = (
                        _on_every_path(context, sampler)
                        if sampler in created
                        else context.written(sampler) in handles.always
                    )
                    always = made_always and _on_every_path(context, call)
                    for target in self._targets(context, call):
                        handles.loaders[target] = held = (
                            context.written(sampler) if by_name else f"{target}.sampler"
                        )
                        if always:
                            handles.always.add(held)
        return handles

    def _handed_from_elsewhere(self, context: FileContext, handles: _Handles) -> None:
        """Samplers and loaders a function of another project module hands out (`loader =
        build_loader(args)`), and loaders built from the keyword arguments one returns
        (`DataLoader(ds, **loader_kwargs(ds))`). Whether they are distributed on every path is
        not followed: a guarded `set_epoch` is taken to be right."""
        project, index = context.settings.project, context.index
        if project is None:
            return
        kwargs_given: list[tuple[cst.Call, set[str]]] = []
        for call, scope in index.all_calls:
            qualified = index.qualify(call.func, scope)
            if qualified is None or index.defines(qualified):
                continue
            handed = project.handed_out(qualified)
            if handed is Handed.SAMPLER:
                handles.samplers.update(self._targets(context, call))
            elif handed is Handed.LOADER:
                for target in self._targets(context, call):
                    handles.loaders[target] = f"{target}.sampler"
            elif handed is Handed.KWARGS:
                kwargs_given.append((call, self._targets(context, call)))
        for call, scope in index.all_calls:
            if kwargs_given and index.qualify(call.func, scope) in catalog.DATA_LOADERS:
                unpacked = [arg.value for arg in call.args if arg.star == "**"]
                if any(
                    value is made or context.written(value) in names
                    for value in unpacked
                    for made, names in kwargs_given
                ):
                    for target in self._targets(context, call):
                        handles.loaders[target] = f"{target}.sampler"

    @staticmethod
    def _targets(context: FileContext, call: cst.Call) -> set[str]:
        """Where a call's result is stored: `x = call`, or the names `f()` returns it into."""
        statement = context.index.statement_of[call]
        node = statement.node
        if isinstance(node, cst.Assign) and _gives(node.value, call):
            return {context.written(target.target) for target in node.targets}
        if isinstance(node, cst.Return) and node.value is not None and _gives(node.value, call):
            function = context.index.function_of_scope.get(statement.scope)
            if function is not None:
                return {
                    context.written(assign.targets[0].target)
                    for other, scope in context.index.all_calls
                    if context.index.qualify(other.func, scope) == function.qualified
                    and isinstance(assign := context.index.statement_of[other].node, cst.Assign)
                    and assign.value is other
                }
        return set()

    # ---------------------------------------------------------------- iteration
    def _iteration(
        self, context: FileContext, statement: Statement, handles: _Handles
    ) -> str | None:
        """The sampler a `for` statement iterates (directly, or as `enumerate(loader)`,
        `tqdm(loader)`...) to train."""
        node = statement.node
        if not isinstance(node, cst.For):
            return None
        held = next(
            (held for c in _iterated(node.iter) if (held := handles.held(c)) is not None), None
        )
        if held is None:  # `epoch_iterator = tqdm(loader)`, then `for batch in epoch_iterator:`
            held = next(
                (
                    held
                    for c in _iterated(node.iter)
                    if isinstance(c, cst.Name)
                    for value in _single_value(context.index, c.value, statement.scope)
                    for wrapped in _iterated(value)
                    if (held := handles.held(wrapped)) is not None
                ),
                None,
            )
        if held is not None and Gradients(context).evaluates(statement):
            return None  # an evaluation pass: its order changes no result
        return held

    def _iterates(
        self,
        context: FileContext,
        blocks: Iterable[list[Statement]],
        handles: _Handles,
        active: set[FunctionInfo],
        depth: int,
    ) -> str | None:
        """The sampler that code iterates, looking into the module's functions it calls."""
        index = context.index
        for block in blocks:
            for statement in block:
                if isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    continue
                held = self._iteration(context, statement, handles)
                if held is not None:
                    return held
                for call in statement.calls:
                    held = self._iterates_in_call(context, call, statement, handles, active, depth)
                    if held is not None:
                        return held
                held = self._iterates(
                    context, index.blocks_of(statement.node), handles, active, depth
                )
                if held is not None:
                    return held
        return None

    def _iterates_in_call(
        self,
        context: FileContext,
        call: cst.Call,
        statement: Statement,
        handles: _Handles,
        active: set[FunctionInfo],
        depth: int,
    ) -> str | None:
        index = context.index
        if isinstance(call.func, cst.Name) and call.func.value == "iter" and call.args:
            held = handles.held(call.args[0].value)
            if held is not None:
                return held
        target = index.resolve_local_call(call, statement.scope)
        if target is None:
            return self._iterates_elsewhere(context, call, statement, handles)
        if target in active or depth >= _MAX_DEPTH:
            return None
        inner = _Handles(context)
        inner.samplers, inner.loaders = set(handles.samplers), dict(handles.loaders)
        passed = {}
        for parameter, arg in bind_arguments(target, call):
            held = handles.held(arg)
            if held is not None:
                inner.samplers.add(parameter)
                passed[parameter] = held
        held = self._iterates(
            context, index.blocks_of(target.node), inner, active | {target}, depth + 1
        )
        return passed.get(held, held) if held is not None else None

    @staticmethod
    def _iterates_elsewhere(
        context: FileContext,
        call: cst.Call,
        statement: Statement,
        handles: _Handles,
    ) -> str | None:
        """The sampler a call into another project module iterates: `train_one_epoch(model, loader,
        ..)` whose function loops over the parameter the loader is passed as (and never calls
        `set_epoch` itself)."""
        project = context.settings.project
        qualified = context.index.qualify(call.func, statement.scope)
        found = (
            project.function(qualified, ITERATES)
            if project is not None and qualified is not None
            else None
        )
        if found is None:
            return None
        function = found[1]
        inside = list(iter_descendants(function.node))
        if _mentions_set_epoch([function]):
            return None  # it reshuffles (or may): its own `set_epoch` is not followed here
        looped = {
            expression.value
            for node in inside
            if isinstance(node, cst.For)
            for expression in _iterated(node.iter)
            if isinstance(expression, cst.Name)
        }
        return next(
            (
                held
                for parameter, arg in bind_arguments(function, call)
                if parameter in looped and (held := handles.held(arg)) is not None
            ),
            None,
        ) or _iterated_by_object(context, call, statement, handles, *found)

    # --------------------------------------------------------------- set_epoch
    def _set_epoch_guards(
        self,
        context: FileContext,
        blocks: Iterable[list[Statement]],
        handles: _Handles,
        held: str,
        guard: cst.BaseExpression | None,
        active: set[FunctionInfo],
        depth: int,
    ) -> Iterator[cst.BaseExpression | None]:
        """For each `set_epoch` code calls on the sampler `held` (or on a receiver not known to be
        another), the test of an `if` unrelated to the sampler it runs under (`args.distributed`),
        or None."""
        index = context.index
        for block in blocks:
            for statement in block:
                if isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    continue
                for call in statement.calls:
                    receiver = _set_epoch_receiver(call)
                    if receiver is not None and handles.sampler_of(receiver) in (None, held):
                        yield guard
                    target = index.resolve_local_call(call, statement.scope)
                    if target is not None and target not in active and depth < _MAX_DEPTH:
                        yield from self._set_epoch_guards(
                            context,
                            index.blocks_of(target.node),
                            handles,
                            held,
                            guard,
                            active | {target},
                            depth + 1,
                        )
                inner = guard
                if (
                    inner is None
                    and isinstance(statement.node, cst.If)
                    and not _about(context, statement.node.test, held, handles)
                ):
                    inner = statement.node.test
                yield from self._set_epoch_guards(
                    context, index.blocks_of(statement.node), handles, held, inner, active, depth
                )

    @staticmethod
    def _inside(index: ModuleIndex, loop: Statement) -> set[Statement]:
        found: set[Statement] = set()
        pending = list(index.blocks_of(loop.node))
        while pending:
            for statement in pending.pop():
                found.add(statement)
                if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    pending.extend(index.blocks_of(statement.node))
        return found

    # --------------------------------------------------------------------- fix
    @staticmethod
    def _fix(
        context: FileContext, loop: Statement, held: str, always: bool, visible: str | None
    ) -> Fix:
        """Insert the call at the top of the epoch loop; a sampler that is a `DistributedSampler`
        only on some paths (`... if args.distributed else None`) gets it only where it has
        `set_epoch`. None of the names the sampler goes by bound there (`visible`): shown only."""
        node = loop.node
        body = context.index.statements.get(node.body, [])
        if (
            visible is None
            or not isinstance(node, cst.For)
            or not isinstance(node.target, cst.Name)
            or not body
            or not isinstance(node.body, cst.IndentedBlock)
        ):
            return Fix(
                f"Call `{held}.set_epoch(epoch)` at the start of every epoch",
                Applicability.DISPLAY_ONLY,
            )
        call = f"{held}.set_epoch({node.target.value})"
        code = (
            call
            if always
            else f'if hasattr({held}, "set_epoch"):\n{context.module.default_indent}{call}'
        )
        edit = context.edits.insert_before(body[0], code)
        if edit is None:
            return Fix(f"Call `{call}` at the start of every epoch", Applicability.DISPLAY_ONLY)
        return Fix(
            f"Insert `{call}`" if always else f"Insert `{call}` where the sampler has it",
            Applicability.SAFE,
            (edit,),
        )


def _iterated_by_object(
    context: FileContext,
    call: cst.Call,
    statement: Statement,
    handles: _Handles,
    index: ModuleIndex,
    method: FunctionInfo,
) -> str | None:
    """The sampler a method call iterates through what its object keeps: `trainer.train_epoch()` on
    `trainer = Trainer(model, loader)`, whose `__init__` keeps `self.loader = loader` for the method
    to iterate (not when the class's module, or one it imports, mentions `set_epoch`: a hook may
    call it)."""
    func, cls = call.func, method.owner_class
    if cls is None or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return None
    values = context.index.bound_values(func.value.value, statement.scope)
    init = index.find_method(cls, "__init__")
    methods = methods_in_view(index, cls)
    # type: ignore[union-attr]
    if (
        len(values) != 1
        or not isinstance(values[0], cst.Call)
        or init is None
        or not methods
        or context.settings.project.mentions(index, b"set_epoch")
    ):
        return None
    for parameter, arg in bind_arguments(init, values[0]):
        held = handles.held(arg)
        kept = kept_attributes(init, {parameter}) if held is not None else set()
        if kept and method.node.name.value in _iterating_methods(methods, kept):
            return held
    return None


def _mentions_set_epoch(functions: Iterable[FunctionInfo]) -> bool:
    """Whether functions call `set_epoch`, or may (its name in a string: `getattr(sampler,
    "set_epoch")`)."""
    return any(
        isinstance(node, cst.Name)
        and node.value == "set_epoch"
        or isinstance(node, cst.SimpleString)
        and "set_epoch" in node.value
        for function in functions
        for node in iter_descendants(function.node)
    )


def _iterating_methods(methods: list[FunctionInfo], kept: set[str]) -> set[str]:
    """The names of the methods that iterate one of the `kept` attributes, or call one that does."""
    return _with_callers(
        {
            method.node.name.value
            for method in methods
            if any(_iterates_kept(node, method, kept) for node in iter_descendants(method.node))
        },
        methods,
    )


def _epoch_methods(methods: list[FunctionInfo], kept: set[str]) -> set[str]:
    """The names of the methods that loop over epochs iterating one of the `kept` attributes (a loop
    around a `for` over `self.loader`, or around a call of a method that iterates it), or call one
    that does."""
    iterating = _iterating_methods(methods, kept)
    return _with_callers(
        {
            method.node.name.value
            for method in methods
            for loop in iter_descendants(method.node)
            if isinstance(loop, (cst.For, cst.While))
            and not _iterates_kept(loop, method, kept)
            and any(
                _iterates_kept(node, method, kept) or _self_call(node, method) in iterating
                for node in iter_descendants(loop.body)
            )
        },
        methods,
    )


def _with_callers(names: set[str], methods: list[FunctionInfo]) -> set[str]:
    """`names` and the methods that call one of them on their instance, at any depth."""
    calls = {method.node.name.value: _self_calls(method) for method in methods}
    while True:
        grown = names | {name for name, called in calls.items() if called & names}
        if grown == names:
            return names
        names = grown


def _iterates_kept(node: cst.CSTNode, method: FunctionInfo, kept: set[str]) -> bool:
    """Whether a node is a `for` over `self.<kept>` (or `enumerate(self.loader)`,
    `tqdm(self.loader)`...)."""
    owner = instance_name(method)
    return (
        isinstance(node, cst.For)
        and owner is not None
        and any(is_kept(expression, owner, kept) for expression in _iterated(node.iter))
    )


def _self_call(node: cst.CSTNode, method: FunctionInfo) -> str | None:
    """`m` of a call `self.m(..)` in a method."""
    owner = instance_name(method)
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and isinstance(node.func.value, cst.Name)
        and node.func.value.value == owner
    ):
        return node.func.attr.value
    return None


def _self_calls(method: FunctionInfo) -> set[str]:
    return {
        name
        for node in iter_descendants(method.node)
        if (name := _self_call(node, method)) is not None
    }


def _called_on(context: FileContext, made: cst.Call) -> Iterator[str]:
    """The methods called on the object a constructor call makes: `trainer = Trainer(..)` then
    `trainer.fit()`, or `Trainer(..).fit()`."""
    statement = context.index.statement_of.get(made)
    node = statement.node if statement is not None else None
    names = (
        {context.written(target.target) for target in node.targets}
        if isinstance(node, cst.Assign) and node.value is made
        else set()
    )
    for call, _ in context.index.all_calls:
        func = call.func
        if isinstance(func, cst.Attribute) and (
            func.value is made or context.written(func.value) in names
        ):
            yield func.attr.value
        elif func is made or isinstance(func, cst.Name) and func.value in names:  # `trainer()`
            yield "__call__"


def _factories(
    context: FileContext, created: set[cst.Call]
) -> dict[str, tuple[FunctionInfo, cst.Call]]:
    """The module's functions that return one of the `created` samplers on some path, with it
    (rosinality's `data_sampler(dataset, shuffle, distributed)`: a DistributedSampler when
    distributed, else a RandomSampler)."""
    index = context.index
    found = {}
    for call in created:
        statement = index.statement_of[call]
        function = index.function_of_scope.get(statement.scope)
        if (
            function is not None
            and isinstance(statement.node, cst.Return)
            and statement.node.value is not None
            and _gives(statement.node.value, call)
        ):
            found[function.qualified] = (function, call)
    return found


def _shuffles(factory: tuple[FunctionInfo, cst.Call], call: cst.Call) -> bool:
    """Whether a factory call gets a shuffling sampler: not when the sampler's `shuffle` is a
    parameter of the factory that the call (or the parameter's default) sets to a literal False."""
    function, made = factory
    shuffle = argument(made, "shuffle", SHUFFLE_POSITION)
    if not isinstance(shuffle, cst.Name):
        return True
    given = dict(bind_arguments(function, call)).get(shuffle.value)
    if given is None:
        params = function.node.params
        given = next(
            (
                param.default
                for param in (*params.params, *params.kwonly_params)
                if param.name.value == shuffle.value
            ),
            None,
        )
    return not is_literal(given, "False")


def _gives(value: cst.BaseExpression, call: cst.Call) -> bool:
    """Whether `value` is the call's result on some path: the call, or a branch of `x if c else y`,
    `c and x`."""
    if value is call:
        return True
    if isinstance(value, cst.IfExp):
        return _gives(value.body, call) or _gives(value.orelse, call)
    if isinstance(value, cst.BooleanOperation):
        return _gives(value.left, call) or _gives(value.right, call)
    return False


def _reachable(handles: _Handles, held: str, scope) -> str | None:
    """How code in `scope` names the sampler `held`: itself when its name is bound there (or
    around), else `<loader>.sampler` of a loader over it whose name is (`train_sampler` made in
    `prepare_dataloaders()`, `train_loader` returned from it)."""
    for candidate in (
        held,
        *(f"{loader}.sampler" for loader, sampler in handles.loaders.items() if sampler == held),
    ):
        root = candidate.split(".", 1)[0].split("[", 1)[0]
        outer = scope
        while outer is not None:
            if root in outer.bindings:
                return candidate
            outer = outer.parent
    return None


def _single_value(index: ModuleIndex, name: str, scope) -> list[cst.BaseExpression]:
    """The call a name is bound to, when bound once in its scope to a call (else nothing)."""
    values = index.bound_values(name, scope)
    return [values[0]] if len(values) == 1 and isinstance(values[0], cst.Call) else []


def _iterated(expression: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """What a `for` over `expression` iterates: the expression, and what the calls it is made of are
    handed (`enumerate(loader)`, `tqdm(loader)`, `logger.log_every(loader, 10)`), but not
    `len(loader)`."""
    yield expression
    if isinstance(expression, cst.Call) and not (
        isinstance(expression.func, cst.Name) and expression.func.value in _NOT_ITERATING
    ):
        for arg in expression.args:
            yield from _iterated(arg.value)


def _on_every_path(context: FileContext, call: cst.Call) -> bool:
    """Whether a call runs whenever its function (or module body) does: not in a branch, a
    conditional expression or an exception handler (`if True:` is no branch)."""
    index = context.index
    statement = index.statement_of[call]
    if _in_conditional_expression(statement.node, call):
        return False
    compound = index.enclosing(statement)
    while compound is not None and not isinstance(compound.node, (cst.FunctionDef, cst.ClassDef)):
        node = compound.node
        if isinstance(node, (cst.If, cst.Try, cst.Match, cst.While)) and not (
            isinstance(node, cst.If) and is_literal(node.test, "True", "1")
        ):
            return False
        compound = index.enclosing(compound)
    return True


def _samples_batches(gradients: Gradients, loop: Statement) -> bool:
    """Whether a loop only takes one batch at a time to show or check it (`b =
    next(iter(loader))`, then decoding) and trains nothing: not an epoch over the data."""
    takes_one = any(
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "next"
        and node.args
        and isinstance(node.args[0].value, cst.Call)
        and isinstance(node.args[0].value.func, cst.Name)
        and node.args[0].value.func.value == "iter"
        for node in iter_descendants(loop.node)
    )
    return takes_one and not gradients.trains(loop)


def _ruled_out_by_callers(context: FileContext, call: cst.Call) -> bool:
    """Whether the sampler is made on a side of `x if flag else y` that every call of its
    function in the module rules out by the value it passes (`create_dataloaders(..,
    is_distributed=False)`, or the default)."""
    index = context.index
    statement = index.statement_of[call]
    function = index.function_of_scope.get(statement.scope)
    if function is None:
        return False
    callers = [
        other
        for other, scope in index.all_calls
        if index.resolve_local_call(other, scope) is function
    ]
    if not callers:
        return False
    for inner in iter_descendants(statement.node):
        if not isinstance(inner, cst.IfExp):
            continue
        side = _side_of(inner, call)
        if side is None:
            continue
        known = [{function.scope: parameter_values(index, function, other)} for other in callers]
        if all(test_value(inner.test, statement.scope, values) == (not side) for values in known):
            return True
    return False


def _side_of(expression: cst.IfExp, call: cst.Call) -> bool | None:
    """True when `call` is in the body of `x if c else y`, False in its `else`, else None."""
    for side, branch in ((True, expression.body), (False, expression.orelse)):
        if any(call is part for part in (branch, *iter_descendants(branch))):
            return side
    return None


def _in_conditional_expression(node: cst.CSTNode, call: cst.Call) -> bool:
    """Whether `call` is inside a branch of an `x if c else y` (or after an `and`/`or`) within
    `node`."""
    for inner in iter_descendants(node):
        if isinstance(inner, cst.IfExp):
            branches = (inner.body, inner.orelse)
        elif isinstance(inner, cst.BooleanOperation):
            branches = (inner.right,)
        else:
            continue
        if any(call is part for branch in branches for part in (branch, *iter_descendants(branch))):
            return True
    return False


def _about(context: FileContext, test: cst.BaseExpression, held: str, handles: _Handles) -> bool:
    """Whether an `if` test is about the sampler (`sampler is not None`, `hasattr(loader.sampler,
    ..)`, `isinstance(train_sampler, DistributedSampler)`): it is true exactly where the sampler is
    distributed."""
    names = {held, held.rsplit(".sampler", 1)[0]}
    names |= {loader for loader, sampler in handles.loaders.items() if sampler == held}
    for node in (test, *iter_descendants(test)):
        if isinstance(node, (cst.Name, cst.Attribute)) and context.written(node) in names:
            return True
    return False


def _set_epoch_receiver(call: cst.Call) -> cst.BaseExpression | None:
    """`x` in `x.set_epoch(..)` or `getattr(x, "set_epoch")` (the hasattr-guarded form)."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "set_epoch":
        return call.func.value
    if (
        isinstance(call.func, cst.Name)
        and call.func.value == "getattr"
        and len(call.args) >= 2
        and isinstance(call.args[1].value, cst.SimpleString)
        and call.args[1].value.evaluated_value == "set_epoch"
    ):
        return call.args[0].value
    return None
