"""SL205 unsorted-file-listing: a dataset built from a directory listing in filesystem order."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.bindings import shows
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope, defining_scope, dotted_name
from seedlint.analysis.ordering import (
    SyntaxTree,
    builds_ordered_collection,
    own_nodes,
    sorted_fix,
)
from seedlint.rules.base import Finding, Rule

# iopath's path managers (`ls` is `os.listdir` on local paths), however the project names or
# obtains its instance: `iopath.common.file_io.PathManager()`, `g_pathmgr`, detectron2's or fvcore's
# `PathManager`, `PathManagerFactory.get(..)`.
_PATH_MANAGERS = frozenset({"PathManager", "PathManager()", "g_pathmgr", "get()"})
# fsspec's `ls` and `listdir` give dicts unless `detail=False` (the default differs between
# filesystems): no `sorted` fix for them.
_DETAILED_LISTINGS = frozenset(
    f"{filesystem}.{method}"
    for filesystem in catalog.FSSPEC_FILESYSTEMS
    for method in ("ls", "listdir")
)
_PATH_CLASSES = frozenset({"pathlib.Path", "pathlib.PosixPath", "pathlib.WindowsPath"})
# Path methods (as `qualify` spells them) and attributes that give another path.
_PATH_GIVING = frozenset(
    {
        "resolve()",
        "absolute()",
        "expanduser()",
        "joinpath()",
        "with_name()",
        "with_suffix()",
        "with_stem()",
        "parent",
        "cwd()",
        "home()",
    }
)
_WALK = "os.walk"
_WALK_HELP = (
    "Sort the names it gives: `for name in sorted(filenames)` and `dirnames.sort()`, or sort the "
    "list built from them"
)
# `os.scandir` entries do not compare: sort them by name.
_SORT_KEYS = {"os.scandir": "lambda entry: entry.name"}

# Calls whose result does not depend on the order of the iterable they are given.
_ORDER_FREE_CALLS = frozenset(
    f"builtins.{name}"
    for name in ("sorted", "len", "set", "frozenset", "sum", "any", "all", "max", "min", "bool")
)

_TORCH_DATASETS = frozenset(
    f"torch.utils.data{module}.{name}"
    for module in ("", ".dataset")
    for name in ("TensorDataset", "ConcatDataset", "ChainDataset", "StackDataset", "Subset")
) | {
    # Hugging Face datasets: the files given and the datasets concatenated keep their order
    "datasets.load_dataset",
    "datasets.concatenate_datasets",
    "datasets.interleave_datasets",
}
_MAX_CALL_DEPTH = 3
_GLOBS = frozenset({"glob.glob", "glob.iglob"})
# Expressions whose value is made from the one they hold (`paths[i].name`, `(img, label)`).
_MADE_FROM = (
    cst.Attribute,
    cst.Subscript,
    cst.SubscriptElement,
    cst.Index,
    cst.BinaryOperation,
    cst.IfExp,
    cst.Element,
    cst.Tuple,
    cst.List,
    cst.Call,
    cst.FormattedStringExpression,
    cst.FormattedString,
)


class UnsortedFileListing(Rule):
    code = "SL205"
    name = "unsorted-file-listing"
    summary = "A dataset is built from a directory listing in filesystem order"
    fix_availability = "safe"
    # A listing where a dataset or loader is named (not bare `glob`, which every `global` contains):
    # built there, or by the callers in other modules that a helper there returns it to.
    patterns = tuple(
        (listing, builder)
        for listing in (
            b"listdir",
            b"scandir",
            b"iterdir",
            b"glob(",
            b"iglob",
            b"import glob",
            b"from glob",
            b".ls(",
            b"ListDirectory",
            b"Glob(",
            b"walk(",
            b"list_dir_or_file",
        )
        for builder in (b"Dataset", b"DataLoader", b"load_dataset", b"concatenate_datasets")
    )

    def check(self, context: FileContext) -> Iterator[Finding]:
        listings = _Listings(context)
        for call, scope, qualified in listings.calls:
            if qualified == _WALK and _walk_sorts_names(listings.tree, context.index, call, scope):
                continue
            if qualified in _GLOBS and _names_one_file(
                context.index, argument(call, "pathname", 0), scope
            ):
                continue
            if listings.ordered(call, scope, 0, set()):
                listing = context.code(call.func)
                yield Finding(
                    call,
                    f"`{listing}(..)` returns entries in filesystem order, which differs between "
                    "machines and copies of the data, so the order of this dataset's samples is "
                    "not reproducible",
                    sorted_fix(context, listings.tree, call, scope, _SORT_KEYS.get(qualified))
                    if _entries_compare(call, qualified) and qualified != _WALK
                    else None,
                    help=_WALK_HELP if qualified == _WALK else "Wrap the listing in `sorted(..)`",
                )


class _Listings:
    """The directory listings of one file, and where their order ends up."""

    def __init__(
        self, context: FileContext, elsewhere: dict[Path, _Listings] | None = None
    ) -> None:
        self.context = context
        self.index = context.index
        # the listings of other modules whose calls a returned listing is followed to, by path
        self._elsewhere = {} if elsewhere is None else elsewhere
        self.calls: list[tuple[cst.Call, Scope, str]] = [
            (call, scope, qualified)
            for call, scope in self.index.all_calls
            if (qualified := self._listing(call, scope)) is not None
        ]
        self._names_cache: dict[Scope, dict[str, tuple[list[cst.Name], list[cst.Name]]]] = {}

    def _listing(self, call: cst.Call, scope: Scope) -> str | None:
        """What the call lists a directory with (`os.listdir`, `pathlib.Path.glob`, ...), if it
        does."""
        func = call.func
        qualified = self.index.qualify(func, scope)
        if qualified in catalog.LISTING_FUNCTIONS:
            return qualified
        if (
            qualified is not None
            and qualified.endswith(".ls")
            and qualified[:-3].rsplit(".", 1)[-1] in _PATH_MANAGERS
            and (not qualified.endswith(".get().ls") or "PathManagerFactory" in qualified)
        ):
            return qualified
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in catalog.PATH_LISTING_METHODS
            and self._is_path(func.value, scope, 0)
        ):
            return f"pathlib.Path.{func.attr.value}"
        return None

    # -------------------------------------------------------------------- paths
    def _is_path(self, expr: cst.BaseExpression, scope: Scope, depth: int) -> bool:
        """Whether `expr` is known to be a `pathlib` path."""
        if depth > 6:
            return False
        qualified = self.index.qualify(expr, scope)
        if qualified is not None:
            return _is_path_name(qualified)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Divide):
            return self._is_path(expr.left, scope, depth + 1) or self._is_path(
                expr.right, scope, depth + 1
            )
        if (
            isinstance(expr, cst.Call)
            and isinstance(expr.func, cst.Attribute)
            and (f"{expr.func.attr.value}()" in _PATH_GIVING)
        ):
            return self._is_path(expr.func.value, scope, depth + 1)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "parent":
            return self._is_path(expr.value, scope, depth + 1)
        if (
            isinstance(expr, cst.Attribute)
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "self"
        ):
            values = (
                scope.owner_class.attributes.get(expr.attr.value, []) if scope.owner_class else []
            )
            # `None` in another branch
            values = [(value, method) for value, method in values if not is_none(value)]
            return len(values) == 1 and self._is_path(values[0][0], values[0][1], depth + 1)
        if isinstance(expr, cst.Name):
            defining = defining_scope(expr.value, scope)
            if defining is None:
                return False
            bound = defining.bindings[expr.value]
            if isinstance(bound, cst.BaseExpression):
                return self._is_path(bound, defining, depth + 1)
            annotation = _parameter_annotation(self.index, defining, expr.value)
            return (
                annotation is not None and self.index.qualify(annotation, defining) in _PATH_CLASSES
            )
        return False

    # ------------------------------------------------------------ dataset context
    @cached_property
    def tree(self) -> SyntaxTree:
        return SyntaxTree(self.index)

    @cached_property
    def _dataset_classes(self) -> frozenset[str]:
        return frozenset(
            cls.qualified
            for cls in self.index.classes.values()
            if self.index.subclasses_of(cls, catalog.DATASET_BASES)
        )

    @cached_property
    def _constructors(self) -> frozenset[str]:
        return self._dataset_classes | _TORCH_DATASETS | catalog.DATA_LOADERS

    def _constructs(self, call: cst.Call, scope: Scope) -> bool:
        """Whether a call builds a dataset or a loader: a dataset class of the module or of
        another project module, torch's datasets and loaders, or `cls(..)` in a classmethod of a
        dataset class (a factory: `ImageDataset.from_folder(root)`)."""
        qualified = self.index.qualify(call.func, scope)
        if qualified in self._constructors or qualified in self._imported_dataset_classes:
            return True
        function = self.index.function_of_scope.get(scope)
        owner = function.owner_class if function is not None else None
        params = function.node.params.params if function is not None else ()
        return (
            owner is not None
            and owner.qualified in self._dataset_classes
            and isinstance(call.func, cst.Name)
            and bool(params)
            and call.func.value == params[0].name.value
            and any(
                isinstance(d.decorator, cst.Name) and d.decorator.value == "classmethod"
                for d in function.node.decorators
            )
        )

    @cached_property
    def _imported_dataset_classes(self) -> frozenset[str]:
        """The dataset classes of other project modules the module builds (`PackedDataset(..)`
        from the project's `lit_llama.packed_dataset`)."""
        project = self.context.settings.project
        if project is None:
            return frozenset()
        found = set()
        for call, scope in self.index.all_calls:
            qualified = self.index.qualify(call.func, scope)
            if (
                qualified is None
                or "(" in qualified
                or not qualified.rsplit(".", 1)[-1][:1].isupper()
                or self.index.defines(qualified)
                or qualified.split(".", 1)[0] in catalog.LIBRARY_PACKAGES
            ):
                continue
            defined = project.class_definition(qualified)
            if defined is not None and defined[0].subclasses_of(defined[1], catalog.DATASET_BASES):
                found.add(qualified)
        return frozenset(found)

    @cached_property
    def _builder_scopes(self) -> set[Scope]:
        """Scopes that construct a dataset or loader, and functions whose result is passed to
        one."""
        builders: set[Scope] = set()
        for call, scope in self.context.calls_to(
            *self._constructors, *self._imported_dataset_classes
        ):
            builders.add(scope)
            for arg in call.args:
                called = (
                    arg.value
                    if isinstance(arg.value, cst.Call)
                    else self._bound_call(arg.value, scope)
                )
                function = (
                    self.index.resolve_local_call(called, scope) if called is not None else None
                )
                if function is not None:
                    builders.add(function.scope)
        return builders

    def _bound_call(self, expr: cst.BaseExpression, scope: Scope) -> cst.Call | None:
        """The call a plain name was assigned from."""
        if not isinstance(expr, cst.Name):
            return None
        defining = defining_scope(expr.value, scope)
        bound = defining.bindings[expr.value] if defining is not None else None
        return bound if isinstance(bound, cst.Call) else None

    def _in_dataset_context(self, scope: Scope) -> bool:
        """Inside a Dataset class, or in a function (or module body) that builds a dataset."""
        if scope.kind == "module":
            return scope in self._builder_scopes
        current: Scope | None = scope
        while current is not None and current.kind != "module":
            if current in self._builder_scopes:
                return True
            if (
                current.owner_class is not None
                and current.owner_class.qualified in self._dataset_classes
            ):
                return True
            current = current.parent
        return False

    # -------------------------------------------------------------------- order
    def ordered(
        self, node: cst.CSTNode, scope: Scope, depth: int, seen: set, element: int | None = None
    ) -> bool:
        """Whether the order `node` carries ends in an ordered result built in a dataset context
        (with `element`, the order of that element of the tuple `node` makes)."""
        if isinstance(node, cst.Call):
            self.tree.cover(self.index.statement_of[node].node)
        top = self.tree.order_chain(node, scope)[-1]
        parent = self.tree.parents.get(top)
        if element is not None:  # `paths, labels = load(root)`: the name at that position
            assigned = isinstance(parent, cst.Assign) and parent.value is top
            target = parent.targets[0].target if assigned and len(parent.targets) == 1 else None
            if not isinstance(target, (cst.Tuple, cst.List)) or element >= len(target.elements):
                return False
            held = target.elements[element]
            return not isinstance(held, cst.StarredElement) and self._stored(
                held.value, scope, depth, seen
            )
        if isinstance(parent, cst.Return):
            return self._returned(scope, depth, seen)
        returned = self._returned_in_tuple(parent)
        if returned is not None:  # `return paths, labels`
            return self._returned(scope, depth, seen, returned)
        if not self._in_dataset_context(scope):
            # A generator yielding in the listing's order (`for entry in os.scandir(d): yield
            # entry.path`): the order goes where its callers put what it yields.
            yields = isinstance(parent, cst.Yield) or (
                isinstance(parent, cst.For)
                and parent.iter is top
                and any(isinstance(inner, cst.Yield) for inner in own_nodes(parent.body))
            )
            if yields:
                return self._returned(scope, depth, seen)
            # A helper collecting in the listing's order (`for root, _, files in os.walk(d): ..
            # found.append(..)`, then `return found`): where the collection goes decides.
            collections = (
                _collected_into(parent)
                if isinstance(parent, cst.For) and parent.iter is top
                else None
            )
            # held in a name on the way (`found = glob(..)`, `paths += found`, `return paths`)
            if isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.value is top:
                collections = [parent.target]
            elif isinstance(parent, cst.Assign) and parent.value is top:
                collections = [target.target for target in parent.targets]
            return any(
                dotted_name(collection) is not None and self._stored(collection, scope, depth, seen)
                for collection in collections or ()
            )
        if isinstance(parent, cst.Subscript):  # an index: slices keep the chain going
            # `found[0]` after `assert len(found) == 1`: a listing that finds one file
            if parent.value is not top or (
                _picks_one(parent) and self._checked_to_hold_one(top, scope)
            ):
                return False
            # in a dataset's method the element is a sample; at a top level, follow it
            return scope.kind != "module" or self._element_reaches_dataset(parent, scope, seen)
        if isinstance(parent, cst.Yield):
            return True
        if isinstance(parent, cst.AugAssign) and parent.value is top:  # `files += glob.glob(..)`
            return self._stored(parent.target, scope, depth, seen)
        if isinstance(parent, cst.For):
            if parent.iter is not top or not (
                builds_ordered_collection(parent) or _extended(parent)
            ):
                return False
            # `files.append(..)`: the order is now that of `files`
            collections = _collected_into(parent)
            return collections is None or any(
                dotted_name(collection) is None or self._stored(collection, scope, depth, seen)
                for collection in collections
            )
        call = self.tree.call_argument_of(top)
        if call is not None:
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value in catalog.COLLECTING_METHODS
            ):
                # `names.extend(listing)`: the order is now that of `names`
                collection = call.func.value
                return dotted_name(collection) is None or self._stored(
                    collection, scope, depth, seen
                )
            qualified = self.index.qualify(call.func, scope)
            return qualified == "builtins.enumerate" or self._constructs(call, scope)
        if isinstance(parent, cst.Arg):  # a keyword argument: `DataLoader(dataset=..)`
            return self._constructs(self.tree.parents[parent], scope)
        if isinstance(parent, cst.Assign) and parent.value is top:
            return any(self._stored(target.target, scope, depth, seen) for target in parent.targets)
        if isinstance(parent, cst.AnnAssign) and parent.value is top:
            return self._stored(parent.target, scope, depth, seen)
        return False

    def _element_reaches_dataset(self, node: cst.CSTNode, scope: Scope, seen: set) -> bool:
        """Whether an element picked from a listing (`paths[i]`), or a value made from it
        (`load(paths[i])`, `paths[i].name`, a list it is appended to), may reach a dataset or a
        loader: not when it is only shown (`ax.imshow(Image.open(paths[i]))`, a video embedded by
        `print(html.format(videos[-1]))`). A place it is not followed to counts as a dataset's
        (`shutil.copy(images[i], val_dir)` fills a folder a dataset may read), unless what a
        statement hands there is a name whose other reads are followed (`cv2.rectangle(image, ..)`
        draws on the image that `plt.imshow(image)` then shows)."""
        held = False  # the value is read from a name here
        while True:
            parent = self.tree.parents.get(node)
            if isinstance(parent, cst.Arg):
                call = self.tree.parents[parent]
                func = call.func
                if self._constructs(call, scope):
                    return True
                if shows(self.index, scope, call):
                    return False  # printed, plotted, displayed
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value in catalog.COLLECTING_METHODS
                ):
                    return self._value_reaches_dataset(func.value, scope, seen)
                held = held or isinstance(node, cst.Name) and node is parent.value
                node = call  # a value made from the element
            elif isinstance(parent, cst.Expr) and held:
                return False  # a call on the held value, whose result is dropped
            elif isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = (
                    [target.target for target in parent.targets]
                    if isinstance(parent, cst.Assign)
                    else [parent.target]
                )
                return any(self._value_reaches_dataset(target, scope, seen) for target in targets)
            elif isinstance(parent, _MADE_FROM):
                node = parent
            else:  # a place not followed (a call's side effect: `shutil.copy(images[i], ..)`)
                return True

    def _value_reaches_dataset(self, target: cst.BaseExpression, scope: Scope, seen: set) -> bool:
        """Whether a name or attribute holding a value made from an element reaches a dataset
        through one of its reads."""
        key = dotted_name(target)
        if key is None:
            return True
        if ("made", key, scope) in seen:
            return False
        seen.add(("made", key, scope))
        loads, _ = self._uses(target, scope)
        return any(
            self._element_reaches_dataset(load, load_scope, seen) for load, load_scope in loads
        )

    def _checked_to_hold_one(self, listing: cst.CSTNode, scope: Scope) -> bool:
        """Whether a listing held in a name is checked to hold exactly one path (`assert
        len(found) == 1`, `if len(found) != 1: raise ..`) in its scope."""
        if not isinstance(listing, cst.Name):
            return False
        body = scope.node.body if scope.kind != "module" else scope.node
        return any(
            isinstance(node, cst.Comparison)
            and _is_length_of(node.left, listing.value)
            and len(node.comparisons) == 1
            and isinstance(node.comparisons[0].operator, (cst.Equal, cst.NotEqual))
            and is_literal(node.comparisons[0].comparator, "1")
            for node in own_nodes(body)
        )

    def _returned_in_tuple(self, parent: cst.CSTNode | None) -> int | None:
        """The position of an element of a returned tuple (`return paths, labels`)."""
        if not isinstance(parent, cst.Element):
            return None
        values = self.tree.parents.get(parent)
        if not isinstance(values, cst.Tuple) or not isinstance(
            self.tree.parents.get(values), cst.Return
        ):
            return None
        return values.elements.index(parent)

    def _returned(self, scope: Scope, depth: int, seen: set, element: int | None = None) -> bool:
        """A returned listing: follow the module's calls of the function; with none, judge by its
        context, then follow the calls the project's other modules make (`load_paths(root)` of
        `data/utils.py`, whose result `train.py` hands to a dataset)."""
        function = self.index.function_of_scope.get(scope)
        if function is None or depth >= _MAX_CALL_DEPTH:
            return False
        callers = self._callers.get(function.node, [])
        if callers:
            return any(
                self.ordered(call, caller_scope, depth + 1, seen, element)
                for call, caller_scope in callers
            )
        if element is None and self._in_dataset_context(scope):
            return True
        return any(
            listings.ordered(
                call, listings.index.statement_of[call].scope, depth + 1, seen, element
            )
            for listings, call in self._calls_elsewhere(function)
        )

    def _calls_elsewhere(self, function: FunctionInfo) -> Iterator[tuple[_Listings, cst.Call]]:
        """The calls other project modules make to a function of this module, each with the
        listings of its module (parsed in full: where a sort stands is asked)."""
        settings = self.context.settings
        project = settings.project
        if project is None:
            return
        for path, _, call in project.calls_from_other_modules(
            self.index, function, gate=None, faithful=True
        ):
            listings = self._elsewhere.get(path)
            if listings is None:
                context = FileContext.of_project_file(path, settings, faithful=True)
                if context is None or call not in context.index.statement_of:
                    continue
                listings = self._elsewhere[path] = _Listings(context, self._elsewhere)
            yield listings, call

    @cached_property
    def _callers(self) -> dict[cst.FunctionDef, list[tuple[cst.Call, Scope]]]:
        callers: dict[cst.FunctionDef, list[tuple[cst.Call, Scope]]] = {}
        for call, scope in self.index.all_calls:
            function = self.index.resolve_local_call(call, scope)
            if function is not None:
                callers.setdefault(function.node, []).append((call, scope))
        return callers

    def _stored(self, target: cst.BaseExpression, scope: Scope, depth: int, seen: set) -> bool:
        """A listing stored in a name or an attribute (`self.files = ..`), and nothing sorts it
        first.

        A name is ordered when one of its reads reaches an ordered result. An attribute is ordered
        unless every read of it is order-free (`len(..)`, `sorted(..)`): it is read by index, by
        other methods' helpers, or from outside (`dataset.files`). A listing stored in an entry
        (`self.files[split] = ..`) goes where its container goes.
        """
        if isinstance(target, cst.Subscript):
            target = target.value
        key = dotted_name(target)
        if key is None or (key, scope) in seen:
            return False
        seen.add((key, scope))
        if self._sorted_in_place(key, scope):
            return False
        loads, stores = self._uses(target, scope)
        sorts = [
            (store, store_scope)
            for store, store_scope in stores
            if self._sorts(store, key, store_scope)
        ]
        # only what reads the listing before it is sorted (in the same scope) can see its order
        if sorts:
            loads = [
                (load, load_scope)
                for load, load_scope in loads
                if any(
                    load_scope is store_scope and self._offset(load) < self._offset(store)
                    for store, store_scope in sorts
                )
            ]
        elif isinstance(target, cst.Attribute):
            return not loads or not all(
                self._order_free(load, load_scope) for load, load_scope in loads
            )
        return any(self.ordered(load, load_scope, depth, seen) for load, load_scope in loads)

    def _order_free(self, node: cst.CSTNode, scope: Scope) -> bool:
        """Whether a read's order goes nowhere: into `sorted`, `len`, `set`, `sum`, ..., an `in`
        test, or a loop that collects nothing in order."""
        top = self.tree.order_chain(node, scope)[-1]
        parent = self.tree.parents.get(top)
        if isinstance(parent, cst.ComparisonTarget):
            return isinstance(parent.operator, (cst.In, cst.NotIn))
        if isinstance(parent, cst.For):
            return parent.iter is top and not builds_ordered_collection(parent)
        if isinstance(parent, cst.CompFor):  # a set comprehension: `order_chain` stops there
            return True
        call = self.tree.call_argument_of(top)
        return call is not None and self.index.qualify(call.func, scope) in _ORDER_FREE_CALLS

    def _offset(self, node: cst.CSTNode) -> int:
        return self.context.layout.span(node)[0]

    def _sorted_in_place(self, name: str, scope: Scope) -> bool:
        """Whether `<name>.sort()` is called: in the same scope, or in the class for `self.`
        attributes."""
        on_self = name.startswith("self.")
        for receiver, call_scope in self._sort_receivers:
            if receiver == name and (
                call_scope is scope
                or (on_self and call_scope.owner_class is scope.owner_class is not None)
            ):
                return True
        return False

    @cached_property
    def _sort_receivers(self) -> list[tuple[str | None, Scope]]:
        return [
            (dotted_name(call.func.value), scope)
            for call, scope in self.index.all_calls
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "sort"
        ]

    def _sorts(self, store: cst.BaseExpression, key: str, scope: Scope) -> bool:
        """Whether a binding replaces the value with one in another order: `files = sorted(files)`.

        A binding of something new (`images = None` in another branch, `files = []` before a loop)
        says nothing about the listing's order; one that keeps it (`files = [f for f in files ..]`)
        neither.
        """
        parent = self.tree.parents.get(store)
        if isinstance(parent, cst.AssignTarget):
            value = self.tree.parents[parent].value
        elif (
            isinstance(parent, cst.AnnAssign)
            and parent.value is not None
            and parent.target is store
        ):
            value = parent.value
        else:
            return False
        reads = [
            node
            for node in (value, *own_nodes(value))
            if isinstance(node, (cst.Name, cst.Attribute)) and dotted_name(node) == key
        ]
        # `files = [files[0]]` picks by the listing's order: it sorts nothing
        return (
            bool(reads)
            and not any(self.tree.order_chain(node, scope)[-1] is value for node in reads)
            and not any(
                isinstance(node, cst.Subscript) and dotted_name(node.value) == key
                for node in (value, *own_nodes(value))
            )
        )

    def _uses(
        self, target: cst.BaseExpression, scope: Scope
    ) -> tuple[list[tuple[cst.CSTNode, Scope]], ...]:
        """(loads, stores) of a name in its scope, or of an attribute (`self.x`: in every method of
        the class)."""
        if isinstance(target, cst.Name):
            loads, stores = self._names(scope).get(target.value, ([], []))
            return [(load, scope) for load in loads], [(store, scope) for store in stores]
        key = dotted_name(target)
        scopes = [scope]
        if key.startswith("self.") and scope.owner_class is not None:
            scopes = [method.scope for method in scope.owner_class.methods.values()]
        loads, stores = [], []
        for owner in scopes:
            body = owner.node.body if owner.kind != "module" else owner.node
            self.tree.cover(body)
            for node in own_nodes(body):
                if isinstance(node, cst.Attribute) and dotted_name(node) == key:
                    (stores if self._is_store(node) else loads).append((node, owner))
        return loads, stores

    def _names(self, scope: Scope) -> dict[str, tuple[list[cst.Name], list[cst.Name]]]:
        """(loads, stores) of every name used directly in a scope's code."""
        cache = self._names_cache
        if scope not in cache:
            names: dict[str, tuple[list[cst.Name], list[cst.Name]]] = {}
            owner = scope.node.body if scope.kind != "module" else scope.node
            self.tree.cover(owner)
            for node in own_nodes(owner):
                if isinstance(node, cst.Name) and self._is_reference(node):
                    loads, stores = names.setdefault(node.value, ([], []))
                    (stores if self._is_store(node) else loads).append(node)
            cache[scope] = names
        return cache[scope]

    def _is_reference(self, name: cst.Name) -> bool:
        parent = self.tree.parents.get(name)
        if isinstance(parent, cst.Attribute):
            return parent.value is name
        return not isinstance(
            parent, (cst.Arg, cst.Param, cst.ImportAlias, cst.FunctionDef, cst.ClassDef)
        ) or (isinstance(parent, cst.Arg) and parent.value is name)

    def _is_store(self, name: cst.Name) -> bool:
        child, parent = name, self.tree.parents.get(name)
        while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            child, parent = parent, self.tree.parents.get(parent)
        if isinstance(parent, (cst.AssignTarget, cst.AsName)):
            return True
        if isinstance(parent, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor)):
            return parent.target is child
        return False


def _is_length_of(node: cst.BaseExpression, name: str) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "len"
        and len(node.args) == 1
        and isinstance(node.args[0].value, cst.Name)
        and node.args[0].value.value == name
    )


def _names_one_file(index: ModuleIndex, pattern: cst.BaseExpression | None, scope: Scope) -> bool:
    """Whether a glob pattern is a path with no wildcard, built from a looked-up file name
    (`glob.glob(root + df.iloc[idx]["image"])`): it matches that one file, in no order. Every part
    is a string with no `*`, `?` or `[`, a name bound only to one, or an item looked up (the one
    needed); a part of any other kind may hold a wildcard."""
    looked_up = False
    pending = [pattern] if pattern is not None else []
    while pending:
        part = pending.pop()
        if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.Add):
            pending += [part.left, part.right]
        elif isinstance(part, cst.SimpleString):
            if any(wildcard in str(part.evaluated_value) for wildcard in "*?["):
                return False
        elif isinstance(part, cst.Name):
            bound = index.bound_values(part.value, scope)
            if not bound or not all(isinstance(value, cst.SimpleString) for value in bound):
                return False
            pending += bound
        elif isinstance(part, cst.Subscript):
            looked_up = True
        else:
            return False
    return looked_up


def _picks_one(subscript: cst.Subscript) -> bool:
    """`found[0]`, `found[-1]`: one element at a fixed place."""
    return all(
        isinstance(element.slice, cst.Index)
        and isinstance(element.slice.value, (cst.Integer, cst.UnaryOperation))
        for element in subscript.slice
    )


def _collected_into(loop: cst.For) -> list[cst.BaseExpression] | None:
    """What a loop body appends its items to (`files.append(..)`, `names.extend(..)`), or None when
    it also yields or numbers them."""
    collections = []
    for node in own_nodes(loop.body):
        # `index[count] = name`
        numbering = (
            isinstance(node, cst.Assign)
            and any(isinstance(t.target, cst.Subscript) for t in node.targets)
            and (
                isinstance(node.value, cst.Name)
                or isinstance(node.value, cst.Call)
                and isinstance(node.value.func, cst.Name)
                and node.value.func.value == "len"
            )
        )
        if isinstance(node, cst.Yield) or numbering:
            return None
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in catalog.COLLECTING_METHODS
        ):
            collections.append(node.func.value)
    return [*collections, *_extended(loop)] or None


def _extended(loop: cst.For) -> list[cst.BaseExpression]:
    """What a loop body extends with a list of its items: `self.files += [os.path.join(d, f) for f
    in names]`."""
    return [
        node.target
        for node in own_nodes(loop.body)
        if isinstance(node, cst.AugAssign)
        and isinstance(node.operator, cst.AddAssign)
        and isinstance(node.value, (cst.List, cst.ListComp, cst.Tuple))
    ]


def _walk_sorts_names(tree: SyntaxTree, index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """Whether a `for dirpath, dirnames, filenames in os.walk(..)` loop sorts the names it uses:
    `for name in sorted(filenames)` or `filenames.sort()` (the order of the directories still
    varies, but a dataset of one folder is then in order: left alone)."""
    tree.cover(index.statement_of[call].node)
    walked = tree.order_chain(call, scope)[-1]  # `os.walk(root)`, or `tqdm(os.walk(root))`
    loop = tree.parents.get(walked)
    if (
        not isinstance(loop, cst.For)
        or loop.iter is not walked
        or not isinstance(loop.target, cst.Tuple)
        or len(loop.target.elements) != 3
        or not isinstance(names := loop.target.elements[2].value, cst.Name)
    ):
        return False
    for node in own_nodes(loop.body):
        if (
            isinstance(node, cst.Call)
            and node.args
            and isinstance(node.func, cst.Name)
            and node.func.value == "sorted"
            and isinstance(node.args[0].value, cst.Name)
            and node.args[0].value.value == names.value
        ):
            return True
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "sort"
            and isinstance(node.func.value, cst.Name)
            and node.func.value.value == names.value
        ):
            return True
    return False


def _entries_compare(call: cst.Call, qualified: str) -> bool:
    """Whether `sorted` can order the entries (fsspec's `ls`/`listdir` only with `detail=False`)."""
    return qualified not in _DETAILED_LISTINGS or is_literal(argument(call, "detail", 1), "False")


def _is_path_name(qualified: str) -> bool:
    """Whether a qualified name is a path: `pathlib.Path()`, `pathlib.Path.cwd()`,
    `...().resolve()`."""
    if qualified.endswith("()") and qualified[:-2] in _PATH_CLASSES:
        return True
    base, _, last = qualified.rpartition(".")
    return last in _PATH_GIVING and (base in _PATH_CLASSES or _is_path_name(base))


def _parameter_annotation(index: ModuleIndex, scope: Scope, name: str) -> cst.BaseExpression | None:
    """The annotation of a function's parameter, if `name` is one."""
    function = index.function_of_scope.get(scope)
    if function is None:
        return None
    params = function.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name and param.annotation is not None:
            return param.annotation.annotation
    return None
