"""Which names a statement reads, which are already bound at a point of a flow, and whether the
value bound to a name can reach a result.

Used to decide whether a statement can move earlier (it may only when every name it reads is
already defined at its new place), and whether a draw before the seed matters (only through its
value, which may be bound over or only printed).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

import libcst as cst

from seedlint.analysis.access_paths import read_paths
from seedlint.analysis.events import Project, Step
from seedlint.analysis.index import (
    BUILTIN_NAMES,
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    _target_names,
    all_parameters,
    bind_arguments,
    parameter_names,
)
from seedlint.analysis.walk import iter_children, iter_descendants


def read_names(node: cst.CSTNode) -> set[str]:
    """Names a statement reads (not attribute names, keyword names or names it assigns)."""
    return {path.split(".", 1)[0] for path in read_paths(node)}


def names_needed(index: ModuleIndex, statement: Statement) -> set[str]:
    """Names a statement reads, with the globals read by the module's functions it calls."""
    names = read_names(statement.node)
    seen: set[FunctionInfo] = set()
    pending = [(call, inner.scope) for inner in _within(index, statement) for call in inner.calls]
    while pending:
        call, scope = pending.pop()
        function = index.resolve_local_call(call, scope)
        if function is None or function in seen:
            continue
        seen.add(function)
        names |= read_names(function.node.body) - set(function.scope.bindings)
        pending.extend(
            (inner, function.scope) for inner in index.calls_by_scope.get(function.scope, ())
        )
    return names


def _within(index: ModuleIndex, statement: Statement) -> Iterator[Statement]:
    """A statement and, for a compound one, the statements of its blocks (not of the functions
    and classes it defines): a loop's body calls functions too."""
    yield statement
    if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
        for block in index.blocks_of(statement.node):
            for inner in block:
                yield from _within(index, inner)


def bound_by(statement: Statement) -> Iterator[str]:
    """Names a statement binds in its scope."""
    node = statement.node
    if isinstance(node, cst.Assign):
        for target in node.targets:
            yield from _target_names(target.target)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        yield from _target_names(node.target)
    elif isinstance(node, cst.Import):
        for alias in node.names:
            yield alias.asname.name.value if alias.asname else _root(alias.name)
    elif isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
        for alias in node.names:
            yield alias.asname.name.value if alias.asname else _root(alias.name)
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        yield node.name.value
    elif isinstance(node, cst.For):
        yield from _target_names(node.target)
    elif isinstance(node, cst.With):
        for item in node.items:
            if item.asname is not None:
                yield from _target_names(item.asname.name)


def _holder(node: cst.BaseExpression) -> str:
    """The name an attribute or item chain starts from (`ax` in `ax[0].imshow`)."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


def _root(node: cst.BaseExpression) -> str:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


def bound_in(index: ModuleIndex, statements: list[Statement]) -> set[str]:
    """Names the statements bind, in their blocks too (not in the functions and classes they
    define)."""
    names: set[str] = set()
    for statement in statements:
        names.update(bound_by(statement))
        if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
            for block in index.blocks_of(statement.node):
                names |= bound_in(index, block)
    return names


def reaching_bindings(index: ModuleIndex, statement: Statement, name: str) -> list[Statement]:
    """The statements of its scope's code whose binding of `name` may be the value `statement`
    reads: each path back from it stops at the first statement that certainly binds the name. Two
    assignments to one name are two values (`checkpoint = torch.load(..)` for the teacher, again
    for the resume), and only those that reach the read are its value. Empty when the value comes
    from outside the scope (a parameter, a global)."""
    found: list[Statement] = []
    current = statement
    while not _last_bindings(index, current.siblings[: current.position], name, found):
        compound = index.enclosing(current)
        if compound is None or isinstance(compound.node, (cst.FunctionDef, cst.ClassDef)):
            break
        if isinstance(compound.node, cst.For) and name in bound_by(compound):
            found.append(compound)  # the loop's target, bound again before every iteration
            break
        if isinstance(compound.node, (cst.For, cst.While)):
            # what the rest of the body bound in the iteration before
            _last_bindings(index, current.siblings[current.position + 1 :], name, found)
        current = compound
    return found


def _last_bindings(
    index: ModuleIndex, statements: list[Statement], name: str, found: list[Statement]
) -> bool:
    """Add the bindings of `name` that can be the last ones made by the statements, in reverse
    order; whether one of them certainly binds it."""
    for statement in reversed(statements):
        node = statement.node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) or not index.blocks_of(node):
            if name in bound_by(statement):
                found.append(statement)
                if not isinstance(node, cst.AugAssign):  # `x += 1` changes the value before
                    return True
            continue
        blocks = index.blocks_of(node)
        kills = [_last_bindings(index, block, name, found) for block in reversed(blocks)]
        if isinstance(node, cst.With) and kills[0]:
            return True
        if isinstance(node, (cst.For, cst.With)) and name in bound_by(statement):
            found.append(statement)  # the loop's target, `with .. as name`
            if isinstance(node, cst.With):
                return True
        # both sides of an `if`/`else` (an `elif` is an `if` alone in the `else` block)
        if isinstance(node, cst.If) and node.orelse is not None and all(kills):
            return True
    return False


def defined_at(index: ModuleIndex, trail: tuple[Step, ...], statement: Statement) -> set[str]:
    """Names certainly or possibly bound just before `statement`, which `trail` leads into."""
    names = set(BUILTIN_NAMES)
    scope = statement.scope
    for step in (*trail, Step(statement, None)):
        if step.statement.scope is scope:
            names |= bound_in(index, step.statement.siblings[: step.statement.position])
    if scope.kind == "function":
        parameters = parameter_names(scope.node)
        names |= {
            name for name, value in scope.bindings.items() if value is None and name in parameters
        }
        names |= set(index.module_scope.bindings)
    return names


# What reading a value for does not shape a result: its metadata, printing or displaying it.
_METADATA = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad"})
_METADATA_METHODS = frozenset({"size", "numel", "dim", "element_size"})
# Methods that move, convert or change a value in place: harmless as a statement of their own
# (`model.to(device)`, `b.mul_(2)`), not where their result is used.
_MOVING_METHODS = frozenset(
    {"to", "cuda", "cpu", "eval", "half", "float", "requires_grad_"}
    # in-place arithmetic: the value stays under the name, whose later reads are judged
    | {"add_", "sub_", "mul_", "div_", "clamp_", "pow_", "abs_", "neg_", "fill_", "zero_"}
    # conversions whose result a notebook cell only displays
    | {"numpy", "tolist", "item", "detach", "clone"}
)
# Methods that put their argument into the object they are called on (`model.add_module("fc",
# nn.Linear(..))`, `layers.append(block)`): where that object goes decides.
_ADDING_METHODS = frozenset({"add_module", "register_module", "append", "extend", "insert"})
_MAX_DEPTH = 6  # how many names bound from the value are followed
# Calls whose argument only sets how long the program waits.
_DELAYS = frozenset({"time.sleep", "asyncio.sleep"})
_DISPLAYING = frozenset({"print", "len", "type", "isinstance", "display", "id", "repr", "str"})
# Calls that only show what they are given: whatever is computed in their arguments is shown.
_SHOWING = frozenset({"print", "display"})
_PLOTTING = (
    "matplotlib.",
    "seaborn.",
    "plotly.",
    "IPython.display.",
    # images written for a person to look at, and logs: `save_image(grid, "preview.png")`,
    # `writer.add_image(..)` after `writer = SummaryWriter()`, `logger.info(..)`, `wandb.log(..)`
    "torchvision.utils.save_image",
    "cv2.imshow",
    "cv2.imwrite",
    "imageio.",
    "torch.utils.tensorboard.",
    "tensorboardX.",
    "wandb.",
    "logging.",
    "loguru.",
    # a model's summary table: `summary(model, input_size=(1, 3, 64, 64))`
    "torchinfo.",
    "torchsummary.",
)
# What the text of another module must hold for its functions to be read as showing helpers.
_SHOWING_GATE = (b"matplotlib", b"seaborn", b"plotly", b"print(", b"display(")
# What a function that draws aside may call besides methods of what it made: libraries that read,
# compute, draw and plot, and the builtins (less those that run or write code and files).
_ASIDE_READERS = frozenset(
    {"builtins", "random", "numpy", "pandas", "math", "torch", "matplotlib", "seaborn", "plotly"}
)
_CONTAINERS = (cst.List, cst.ListComp, cst.Dict, cst.DictComp)
_UNSAFE_BUILTINS = frozenset(
    {"builtins.open", "builtins.exec", "builtins.eval", "builtins.setattr"}
)
_WRITING_WORDS = ("save", "write", "dump", "to_", "copy", "move", "remove", "mkdir", "rename")
# Libraries whose functions compute from what they are given and keep nothing of it.
_COMPUTING_LIBRARIES = frozenset({"torch", "numpy", "math", "builtins", "torchvision", "PIL"})
# Libraries whose functions, called as a statement of their own, leave nothing but their result.
_ASIDE_LIBRARIES = frozenset({"torch", "numpy", "math"})
# Words in the names of such functions that write, read or change state (`torch.save`,
# `np.random.shuffle`, `torch.distributed.broadcast`, `torch.set_default_dtype`).
_STATEFUL_WORDS = (
    "save",
    "load",
    "shuffle",
    "copyto",
    "put",
    "place",
    "distributed",
    "random",
    "seed",
    "set_",
    "use_",
    "backends",
    "cuda",
    "init",
    "fill",
    "write",
)


class _Showing:
    """Which calls only show their arguments (`print`, `display`, a plotting library's function
    such as `plt.hist(..)`, a method of what one made: `fig, ax = plt.subplots()`, then
    `ax.imshow(..)`), and up to where in a scope's code that makes a read harmless: before the
    seeding (a demo before the seed shows values nobody reproduces; after it, what is printed is
    the result)."""

    def __init__(
        self,
        index: ModuleIndex,
        scope: Scope,
        until: Statement | None,
        project: Project | None = None,
        helpers: dict[tuple[FunctionInfo, str], bool] | None = None,
    ) -> None:
        self.index, self.scope, self._until, self.project = index, scope, until, project
        # whether each (helper, parameter) only shows what it is given, shared by nested readers
        self._helpers = helpers if helpers is not None else {}

    @cached_property
    def _ranks(self) -> tuple[dict[Statement, int], int | None]:
        """Each statement's place in the scope's code, in source order (a compound, then its
        blocks), and the seeding's; no seeding statement: what is shown anywhere is shown before
        any seed."""
        index, scope = self.index, self.scope
        ranks: dict[Statement, int] = {}
        owner = scope.node.body if isinstance(scope.node, cst.FunctionDef) else scope.node
        pending = [index.statements.get(owner, [])]
        while pending:
            block = pending.pop()
            for position, statement in enumerate(block):
                ranks[statement] = len(ranks)
                if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    inner = index.blocks_of(statement.node)
                    if inner:
                        pending.append(block[position + 1 :])
                        pending.extend(reversed(inner))
                        break
        return ranks, ranks.get(self._until) if self._until is not None else len(ranks)

    def before_seed(self, statement: Statement) -> _Showing | None:
        """Itself, for a read at `statement` before the seeding; None after it."""
        ranks, until = self._ranks
        rank = ranks.get(statement)
        if until is None or rank is None or rank >= until:
            return None
        return self

    def _plots(self, expr: cst.BaseExpression) -> bool:
        return (self.index.qualify(expr, self.scope) or "").startswith(_PLOTTING)

    def computes_only(self, call: cst.Call) -> bool:
        """Whether a call only computes from what it is given, as far as can be told: a method of
        the value (`x.mean()`, `x.numpy()`) or a function of torch, NumPy, `math` or the builtins
        (`torch.sin(x)`), torchvision's transforms, PIL's images; a project's function may keep
        what it is given."""
        if isinstance(call.func, cst.Attribute) and not self._plots(call.func):
            qualified = self.index.qualify(call.func, self.scope)
            if qualified is None or "()" in qualified:
                return True  # a method of a value
        qualified = self.index.qualify(call.func, self.scope) or ""
        if qualified.rsplit(".", 1)[-1][:1].isupper() and not qualified.endswith("()"):
            return False  # a constructor keeps what it is given (`DataLoader(train_set)`)
        return qualified.partition(".")[0] in _COMPUTING_LIBRARIES

    def computes_aside(self, call: cst.Call) -> bool:
        """Whether a call that is a statement of its own only computes a value that is then
        displayed or dropped: a function of torch, NumPy or `math` (`torch.matmul(a, b)` as a
        cell's last line), not one that writes or changes state (`torch.save`,
        `np.random.shuffle`, `torch.nn.init.normal_`); or an instance of a class called on what
        it is given (a model's forward pass on a dummy input)."""
        qualified = self.index.qualify(call.func, self.scope) or ""
        last = qualified.rsplit(".", 1)[-1]
        if isinstance(call.func, cst.Name) and last.endswith("()") and last[:1].isupper():
            return True  # `model(dummy.unsqueeze(0))`: a module's output, displayed or dropped
        return (
            qualified.partition(".")[0] in _ASIDE_LIBRARIES
            and "()" not in qualified
            and not last.endswith("_")
            and not last[:1].isupper()
            and not any(word in qualified for word in _STATEFUL_WORDS)
        )

    def draws_aside(self, call: cst.Call) -> bool:
        """Whether a call, a statement of its own, runs a function of this module that is given
        only literals, keeps nothing (no value returned, nothing stored outside its own names)
        and touches nothing outside itself: whatever it draws stays in it (a notebook's
        `compare_samples("mnist", 10)` that picks random images to plot). Not one that calls
        other project code, writes files or calls methods of objects it did not make."""
        function = self.index.resolve_local_call(call, self.scope)
        if (
            function is None
            or function.owner_class is not None
            or not all(_is_literal_value(arg.value) for arg in call.args)
            or not _keeps_nothing(function, own_containers=True)
        ):
            return False
        own = function.scope.bindings
        for inner in iter_descendants(function.node.body):
            if not isinstance(inner, cst.Call):
                continue
            if self.index.resolve_local_call(inner, function.scope) is not None:
                return False  # project code, which may keep what it makes
            qualified = self.index.qualify(inner.func, function.scope) or ""
            last = qualified.rsplit(".", 1)[-1]
            if any(word in last for word in _WRITING_WORDS) or qualified in _UNSAFE_BUILTINS:
                return False
            func = inner.func
            if isinstance(func, cst.Attribute) and _base_name(func.value) in own:
                continue  # a method of what it made (`axes[0].imshow(..)`, `df.loc[i]`)
            if qualified.partition(".")[0] not in _ASIDE_READERS or "()" in qualified:
                return False
        return True

    def shows(self, call: cst.Call, name: str | cst.Call | None = None) -> bool:
        """Whether a call only shows what it is given; with `name` (or a drawing call in its
        arguments), also a project function that only shows what it is given from it
        (`plot_predictions(model, imgs)`)."""
        func = call.func
        if (isinstance(func, cst.Name) and func.value in _SHOWING) or self._plots(func):
            return True
        receiver = _holder(func.value) if isinstance(func, cst.Attribute) else ""
        if receiver and self._made_by_plotting(receiver, 0):
            return True
        return name is not None and self._helper_shows(call, name)

    def _helper_shows(self, call: cst.Call, name: str | cst.Call) -> bool:
        """Whether `call` runs a project function (not a method) that keeps nothing it is given
        (no value returned or yielded, nothing stored outside its own names) and whose parameters
        given `name`'s value only show it."""
        found = self._helper(call)
        if found is None:
            return False
        index, function = found
        if function.owner_class is not None or not _keeps_nothing(function):
            return False
        given = [param for param, arg in bind_arguments(function, call) if _carries(arg, name)]
        if not given or len(given) != sum(_carries(arg.value, name) for arg in call.args):
            return False  # passed through `*args` or `**kwargs`, or to no parameter at all
        return all(self._parameter_shown(index, function, param) for param in given)

    def _helper(self, call: cst.Call) -> tuple[ModuleIndex, FunctionInfo] | None:
        """The module and function a call runs: this module's, or, through an import, another
        project module's that shows something."""
        function = self.index.resolve_local_call(call, self.scope)
        if function is not None:
            return self.index, function
        qualified = self.index.qualify(call.func, self.scope)
        if self.project is None or qualified is None or "." not in qualified:
            return None
        return self.project.function(qualified, _SHOWING_GATE)

    def _parameter_shown(self, index: ModuleIndex, function: FunctionInfo, param: str) -> bool:
        key = (function, param)
        if key not in self._helpers:
            self._helpers[key] = False  # a recursive call shows nothing
            inside = _Showing(index, function.scope, None, self.project, self._helpers)
            self._helpers[key] = all(
                param not in names_needed(index, statement)
                or _read_into_unused(index, statement, param, True, inside, 1)
                for statement in index.body_of(function)
            )
        return self._helpers[key]

    def _made_by_plotting(self, name: str, depth: int) -> bool:
        """Whether a name holds what a plotting call made (`fig, axs = plt.subplots(..)`), or is
        a loop's variable over it (`for ax in axs.flatten():`, `for i, ax in
        enumerate(axs.flat)`)."""
        for statement in self.index.statements_in(self.scope):
            if name not in bound_by(statement):
                continue
            node = statement.node
            if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
                if self._plots(node.value.func):
                    return True
            elif isinstance(node, cst.For) and depth < 2:
                iterated = read_names(node.iter) - {name}
                if any(self._made_by_plotting(other, depth + 1) for other in iterated):
                    return True
        return False


def value_unused(
    index: ModuleIndex,
    statement: Statement,
    private: bool = False,
    seed: Statement | None = None,
    never_seeded: bool = False,
    call: cst.Call | None = None,
    project: Project | None = None,
) -> bool:
    """Whether the value a statement stores (`x = torch.rand(3)`, `model = Net()`,
    `model.head = nn.Linear(..)`) cannot reach a result: the name it is stored under is bound again
    before any use, or is only printed, displayed or asked its shape, size or parameter count
    (itself, or through a name bound from it), or, before the `seed` statement of its scope's code
    (anywhere, for a generator `never_seeded`), printed, plotted or asserted whole; or, in a
    function or a notebook (`private`: code nothing imports), never read at all; or a statement
    that only waits for the drawn time (`time.sleep(random.randint(1, 5))`). With `call`, the call
    in the statement the value comes from: in a `for` loop's header, the names the loop binds
    from it decide (`for path in random.sample(paths, 3): show(path)`). With the `project`, a
    function of another module that only shows what it is given shows it.
    """
    node = statement.node
    if (
        isinstance(node, cst.Expr)
        and isinstance(node.value, cst.Call)
        and index.qualify(node.value.func, statement.scope) in _DELAYS
    ):
        return True  # `time.sleep(random.randint(1, 5))`: the value only sets a delay
    showing = (
        _Showing(index, statement.scope, seed, project)
        if seed is not None or never_seeded
        else None
    )
    holder = _added_to(node)
    if holder is not None:
        # `lenet.add_module("C1", nn.Conv2d(..))`: the value lives on in `lenet`
        return _name_unused(index, statement, holder, private, showing, 0)
    if isinstance(node, cst.For) and showing is not None and call is not None:
        return _loop_shows(index, statement, call, private, showing)
    if (
        isinstance(node, cst.Expr)
        and isinstance(node.value, cst.Call)
        and node.value is not call
        and showing is not None
        and call is not None
        and (showing.computes_aside(node.value) or showing.shows(node.value, call))
    ):
        # `model(torch.randn(1, 3, 64, 64).to(device))` as a cell's last line: displayed
        return _reaches_only_through_computing(node.value, call, showing)
    if (
        isinstance(node, cst.Expr)
        and node.value is call
        and showing is not None
        and showing.draws_aside(call)
    ):
        return True  # `compare_samples("mnist", 10)`: what it draws stays in it
    return _unused(index, statement, private, showing, 0)


def _reaches_only_through_computing(node: cst.CSTNode, call: cst.Call, shows: _Showing) -> bool:
    """Whether `call`, inside `node`'s arguments, reaches `node` only through calls that compute
    (`.to(device)`, `torch.cat(..)`), not through one that may keep it."""
    for child in iter_children(node):
        if child is call:
            return True
        if _carries(child, call):
            if isinstance(child, cst.Call) and not shows.computes_only(child):
                return False
            return _reaches_only_through_computing(child, call, shows)
    return False


def _loop_shows(
    index: ModuleIndex, statement: Statement, call: cst.Call, private: bool, showing: _Showing
) -> bool:
    """Whether a `for` loop whose header holds `call` only shows what it binds from it, in its
    body and after it."""
    node = statement.node
    assert isinstance(node, cst.For)
    if not _carries(node.iter, call):
        return False
    names = list(_target_names(node.target))
    body = [s for block in index.blocks_of(node) for s in block]
    return bool(names) and all(
        _name_unused(index, statement, name, private, showing, 1)
        and all(
            name not in names_needed(index, inner)
            or _read_into_unused(index, inner, name, private, showing, 1)
            for inner in body
        )
        for name in names
    )


def shows(index: ModuleIndex, scope: Scope, call: cst.Call) -> bool:
    """Whether a call only shows what it is given: `print`, `display`, a plotting library's
    function, a method of what one made (`ax.imshow(..)` after `fig, ax = plt.subplots()`)."""
    return _Showing(index, scope, None).shows(call)


def _carries(expression: cst.BaseExpression, value: str | cst.Call) -> bool:
    """Whether an expression reads the name `value`, or holds the call `value`."""
    if isinstance(value, str):
        return value in read_names(expression)
    return expression is value or any(inner is value for inner in iter_descendants(expression))


def _keeps_nothing(function: FunctionInfo, own_containers: bool = False) -> bool:
    """Whether a function returns or yields no value, binds no global, and stores only into its
    own names (no `obj.attr = ..`, `table[key] = ..` or `items.append(..)`; with
    `own_containers`, a list or dict it made itself is its own: `found.append(..)`,
    `frames[name] = df` after `frames = {}`)."""

    def own(name: str | None) -> bool:
        return own_containers and isinstance(function.scope.bindings.get(name), _CONTAINERS)

    for node in iter_descendants(function.node.body):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal)):
            return False
        if isinstance(node, (cst.Return, cst.Yield)) and node.value is not None:
            return False
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = node.targets if isinstance(node, cst.Assign) else [node]
            for target in targets:
                if any(
                    isinstance(part, (cst.Attribute, cst.Subscript))
                    and not (isinstance(part, cst.Subscript) and own(_base_name(part)))
                    for part in _assigned_parts(target.target)
                ):
                    return False
        if isinstance(node, cst.Expr) and (added := _added_to(node)) is not None:
            if not own(added):
                return False
    return True


def _is_literal_value(node: cst.BaseExpression) -> bool:
    """A number, a string, True, False or None (`-1` too)."""
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    return isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString))


def _base_name(node: cst.BaseExpression) -> str | None:
    """The name an expression starts from, through attributes, items and calls
    (`axes[q, i].set_title` -> "axes", `frames[name]` -> "frames")."""
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        node = node.func if isinstance(node, cst.Call) else node.value
    return node.value if isinstance(node, cst.Name) else None


def _assigned_parts(target: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _assigned_parts(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _assigned_parts(target.value)
    else:
        yield target


def _added_to(node: cst.CSTNode) -> str | None:
    """The name of the object a statement only adds values to (`lenet.add_module(..)`,
    `layers.append(..)`)."""
    if not (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)):
        return None
    func = node.value.func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value in _ADDING_METHODS
        and isinstance(func.value, cst.Name)
    ):
        return func.value.value
    return None


def _unused(
    index: ModuleIndex,
    statement: Statement,
    private: bool,
    showing: _Showing | None,
    depth: int,
) -> bool:
    node = statement.node
    if depth > _MAX_DEPTH or not isinstance(node, cst.Assign) or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    if isinstance(target, cst.Subscript) and showing is not None:
        # `images[i] = F.interpolate(images[i], ..)`: the value lives on in `images`
        holder = _root(target.value)
        return bool(holder) and _name_unused(index, statement, holder, private, showing, depth)
    if isinstance(target, (cst.Tuple, cst.List)) and showing is not None:
        # `image, label = dataset[i]` before the seed: each name it binds
        names = list(_target_names(target))
        return bool(names) and all(
            _name_unused(index, statement, name, private, showing, depth) for name in names
        )
    return _name_unused(index, statement, _root(target), private, showing, depth)


def _name_unused(
    index: ModuleIndex,
    statement: Statement,
    name: str,
    private: bool,
    showing: _Showing | None,
    depth: int,
) -> bool:
    if not name or statement.scope.kind == "class":
        return False
    read = False  # a read seen, each one harmless
    for later, again in _following(index, statement):
        later_node = later.node
        if name not in names_needed(index, later):
            if (
                not again
                and isinstance(later_node, (cst.Assign, cst.AnnAssign))
                and (name in bound_by(later))
            ):
                return True  # bound again before any use
            # bound again on some paths only (in a loop's body, a `try`): the value may still be
            # what later statements read, so they are followed on
            continue
        if not again and _loaded_over(later_node, name):
            return True  # `model.load_state_dict(state)`: every weight drawn is replaced
        if not _read_into_unused(index, later, name, private, showing, depth):
            return False
        read = True
    # never read at all: a global may still be read by code not seen here
    return read or private or statement.scope.kind == "function"


def _read_into_unused(
    index: ModuleIndex,
    statement: Statement,
    name: str,
    private: bool,
    showing: _Showing | None,
    depth: int,
) -> bool:
    """Whether every read of `name` in a statement only shows it, or stores into a name that
    reaches nothing: an assignment from it (`y = f(x)`), or, in a loop or `with` body, each
    statement there that reads it (`for batch in loader: embeddings = layer(batch)`)."""
    node = statement.node
    shows = showing.before_seed(statement) if showing is not None else None
    if shapes_nothing(node, name, shows) and name in read_names(node):
        return True
    if (
        showing is not None
        and isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Subscript)
        and _root(node.targets[0].target.value) == name
    ):
        return True  # `images[i] = resize(images[i])`: back into the same holder
    if isinstance(node, cst.Assign):
        if (
            showing is not None
            and shows is None
            and _handed_to_code_that_may_keep(node.value, name, showing)
        ):
            return False  # after the seed, `results = train(model, ..)` trains what it is given
        # `y = f(x)`, and `title = title + ..`: where the new value goes decides
        return (
            (name not in bound_by(statement) or showing is not None)
            and name in read_names(node)
            and _unused(index, statement, private, showing, depth + 1)
        )
    if isinstance(node, cst.AugAssign) and _root(node.target) == name:
        # `x.tensor *= mask`: the value stays where it was, changed in place
        return name not in read_names(node.value)
    if _added_to(node) == name:
        # `lenet.add_module("F6", nn.Linear(..))`: more is added to the value, which stays
        return all(name not in read_names(arg) for arg in node.value.args)
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        # a definition reads only its decorators, defaults and annotations as it runs; its
        # body's reads are the calls'
        return not any(name in read_names(part) for part in _read_when_defined(node))
    collector = _collected_into(node, name)
    if collector is not None and showing is not None and depth <= _MAX_DEPTH:
        # `errors.append(error)` before the seed: where the list goes decides
        return _name_unused(index, statement, collector, private, showing, depth + 1)
    if isinstance(node, cst.For):
        header: list[cst.CSTNode] = [node.iter]
    elif isinstance(node, cst.While):
        header = [node.test]
    elif isinstance(node, cst.With):
        header = [item.item for item in node.items]
    elif isinstance(node, cst.If) and showing is not None:
        header = [node.test]
    elif isinstance(node, cst.Try) and showing is not None:
        header = []  # `try: .. except AssertionError as e: print(e)`: each statement decides
    else:
        return False
    names = {name}
    if isinstance(node, cst.If) and _tested_for_none(node.test, name):
        header = []  # `if predictions is not None:`: a drawn value is never None
    if any(name in read_names(part) for part in header):
        # before the seed, `for path in picked:` / `with Image.open(path) as f:` binds names
        # computed from it, whose reads in the body are judged in its place
        if shows is None or isinstance(node, (cst.While, cst.If)) or depth > _MAX_DEPTH:
            return False
        if not all(_only_shown(part, name, shows) for part in header):
            return False
        names |= set(bound_by(statement))
        depth += 1
    inner = [s for block in index.blocks_of(node) for s in block]
    return all(
        other not in names_needed(index, s)
        or _read_into_unused(index, s, other, private, showing, depth)
        for s in inner
        for other in names
    )


def _loaded_over(node: cst.CSTNode, name: str) -> bool:
    """Whether a statement replaces every parameter and buffer of the module `name` holds
    with a strict `name.load_state_dict(..)` of a value computed from something else."""
    if not (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)):
        return False
    call, func = node.value, node.value.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "load_state_dict"
        and _is_name(func.value, name)
        and bool(call.args)
        and all(name not in read_names(arg.value) for arg in call.args)
        and all(arg.keyword is None or arg.keyword.value != "strict" for arg in call.args)
    )


def _handed_to_code_that_may_keep(value: cst.BaseExpression, name: str, showing: _Showing) -> bool:
    """Whether an expression hands `name`'s value to a call that may keep or change it (a project
    function, a constructor: `train(model=model)`, `Adam(model.parameters())`), not one that only
    computes from it (`x.mean()`, `torch.sin(x)`)."""
    return any(
        isinstance(inner, cst.Call)
        and any(name in read_names(arg.value) for arg in inner.args)
        and not showing.computes_only(inner)
        for inner in (value, *iter_descendants(value))
    )


def _tested_for_none(test: cst.BaseExpression, name: str) -> bool:
    """Whether a condition reads `name` only to compare it with None (`x is not None`)."""
    if (
        isinstance(test, cst.Comparison)
        and _is_name(test.left, name)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))
        and _is_name(test.comparisons[0].comparator, "None")
    ):
        return True
    if isinstance(test, cst.BooleanOperation):
        return all(
            name not in read_names(side) or _tested_for_none(side, name)
            for side in (test.left, test.right)
        )
    return False


def _read_when_defined(node: cst.FunctionDef | cst.ClassDef) -> Iterator[cst.CSTNode]:
    """What a `def` or `class` statement evaluates as it runs (not its body)."""
    yield from (decorator.decorator for decorator in node.decorators)
    if isinstance(node, cst.ClassDef):
        yield from node.bases
        yield from node.keywords
        return
    for param in all_parameters(node):
        yield from (part for part in (param.default, param.annotation) if part is not None)
    if node.returns is not None:
        yield node.returns


def _collected_into(node: cst.CSTNode, name: str) -> str | None:
    """The list (or module) a statement adds `name`'s value to (`errors.append(error)`), if that
    is all it does."""
    holder = _added_to(node)
    if holder is None or holder == name:
        return None
    assert isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)
    if all(name not in read_names(arg) or arg.keyword is None for arg in node.value.args):
        return holder
    return None


def _following(index: ModuleIndex, statement: Statement) -> Iterator[tuple[Statement, bool]]:
    """The statements of its scope's code that can run after one, in order, each with whether it
    runs again before them (the next iteration of a loop around it: a binding there does not
    replace the value for what follows the loop)."""
    yield from ((later, False) for later in statement.siblings[statement.position + 1 :])
    compound = index.enclosing(statement)
    while compound is not None and not isinstance(compound.node, (cst.FunctionDef, cst.ClassDef)):
        if isinstance(compound.node, (cst.For, cst.While)):
            yield from ((again, True) for again in statement.siblings[: statement.position])
        yield from ((later, False) for later in compound.siblings[compound.position + 1 :])
        statement, compound = compound, index.enclosing(compound)


def shapes_nothing(node: cst.CSTNode, name: str, shows: _Showing | None = None) -> bool:
    """Whether every read of `name` in `node` only asks for its metadata, prints, plots or
    asserts it (`shows`: which calls only show their arguments, before the seeding)."""
    if isinstance(node, cst.Assert) and shows is not None:
        return True  # a check: what it computes is not kept
    if (
        isinstance(node, cst.Expr)
        and isinstance(node.value, cst.Call)
        and isinstance(node.value.func, cst.Attribute)
        and _is_name(node.value.func.value, name)
        and node.value.func.attr.value in _MOVING_METHODS
    ):
        return all(
            shapes_nothing(arg, name, shows) for arg in node.value.args
        )  # `model.to(device)`
    if isinstance(node, cst.Name):
        return node.value != name
    if (
        shows is not None
        and isinstance(node, cst.Expr)
        and isinstance(node.value, cst.Call)
        and shows.computes_aside(node.value)
    ):
        # `torch.matmul(a, b)`, `model(x)` displayed or dropped: what it is given only shown
        return all(_only_shown(arg.value, name, shows) for arg in node.value.args)
    if (
        isinstance(node, cst.Expr)
        and not any(
            isinstance(inner, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr))
            for inner in iter_descendants(node.value)
        )
        and not isinstance(node.value, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr))
    ):
        return True  # `x`, `x == y`, `x, x.dtype`: a notebook cell's last line displays it
    if isinstance(node, cst.Attribute) and _is_name(node.value, name):
        return node.attr.value in _METADATA
    if isinstance(node, cst.Attribute) and node.attr.value in _METADATA and shows is not None:
        # `transform(img).shape` before the seed: a shape asked of what is computed from it
        return _only_shown(node.value, name, shows)
    if isinstance(node, cst.Call):
        if shows is not None and shows.shows(node, name):
            return all(_only_shown(arg.value, name, shows) for arg in node.args)
        func = node.func
        if isinstance(func, cst.Attribute) and _is_name(func.value, name):
            if func.attr.value not in _METADATA_METHODS:
                return False
            return all(shapes_nothing(arg, name, shows) for arg in node.args)
        if _counts_parameters(node):
            return True
        if isinstance(func, cst.Name) and func.value in _DISPLAYING:
            return all(_displayed(arg.value, name) for arg in node.args)
    return all(shapes_nothing(child, name, shows) for child in node.children)


def _only_shown(node: cst.CSTNode, name: str, shows: _Showing) -> bool:
    """Whether what a showing call is given computes from `name` only through operators,
    attributes and calls that only compute (`torch.sin(xs) + noise`, `mean.item()`), so that
    the value goes nowhere else."""
    if name not in read_names(node):
        return True
    if isinstance(node, cst.Call) and not shows.computes_only(node):
        return False
    return all(_only_shown(child, name, shows) for child in iter_children(node))


def _displayed(node: cst.CSTNode, name: str) -> bool:
    """Whether printing an expression (`model`, `model.layers[0].weight`, an f-string of them) only
    shows `name`: each outermost call in it that reads `name` only asks for its metadata."""
    if isinstance(node, cst.Call):
        return name not in read_names(node) or shapes_nothing(node, name)
    return all(_displayed(child, name) for child in node.children)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _counts_parameters(call: cst.Call) -> bool:
    """`sum(p.numel() for p in model.parameters())`: a parameter count."""
    if not (isinstance(call.func, cst.Name) and call.func.value == "sum" and len(call.args) == 1):
        return False
    counted = call.args[0].value
    return (
        isinstance(counted, (cst.GeneratorExp, cst.ListComp))
        and isinstance(counted.elt, cst.Call)
        and isinstance(counted.elt.func, cst.Attribute)
        and counted.elt.func.attr.value == "numel"
    )
