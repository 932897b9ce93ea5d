"""Random weight initialisation: library calls that draw it, and builds that throw it away.

Library builders initialise weights from the torch CPU generator (`timm.create_model(..)`,
`torchvision.models.resnet18()`, `AutoModel.from_config(..)`, `get_peft_model(..)`) unless an
argument says the weights are loaded. Generation and evaluation scripts build a model, load its
weights, then seed and sample: the build's draws are lost when the model is built on the meta
device or under an empty-init context (`with torch.device("meta"):`, `init_empty_weights()`,
`fabric.init_module(empty_init=True)`), or when every weight is loaded into it (a strict
`load_state_dict`, a helper that does so) before anything else uses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.access_paths import bound_paths, paths_overlap, read_paths
from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.bindings import shapes_nothing
from seedlint.analysis.events import Project, Step
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    bind_arguments,
    dotted_name,
)
from seedlint.gates import LOADS_WEIGHTS

# Methods that leave a model's weights as they are: calling them is not a use of the random weights.
_KEEPING_METHODS = frozenset(
    {
        "to",
        "cuda",
        "cpu",
        "eval",
        "train",
        "half",
        "float",
        "double",
        "bfloat16",
        "requires_grad_",
        "share_memory",
    }
)
_MAX_DEPTH = 3
# A helper named as loading weights into what it is given (`load_weights`, `load_checkpoint`,
# `load_pretrained`).
_LOADER_NAME = re.compile(
    r"(?:^|[._])load_(?:\w*_)?(?:weights?|checkpoint|ckpt|pretrained|params|state_dict)"
)
# transformers classes named like models that are not PyTorch models (or draw nothing when built).
_NOT_TORCH_MODELS = ("TF", "Flax", "DataCollator", "TorchExportable", "AllKwargs")


def discards_draws(index: ModuleIndex, step: Step, project: Project | None) -> bool:
    """Whether what is drawn on the way through `step` only initialises weights that are never used:
    the step is a `with` that builds empty, or the assignment of a model whose weights are
    loaded."""
    if step.call is None:
        return _builds_empty(index, step.statement)
    return _loaded_before_use(index, step.statement, step.call, project) or _overwritten(
        index, step.statement, step.call
    )


# ------------------------------------------------------------------------- overwritten weights
# What sets a parameter to a fixed value, in place: `layer.weight.data.zero_()`,
# `nn.init.zeros_(layer.bias)`, `nn.init.constant_(layer.weight, 0.5)`.
_FILLING_METHODS = frozenset({"zero_", "fill_"})
_WITHOUT_BIAS = frozenset({"Embedding", "EmbeddingBag"})
_FILLING_INITS = frozenset(
    {"torch.nn.init.zeros_", "torch.nn.init.ones_", "torch.nn.init.constant_"}
)


_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Tensors built from literals alone: `torch.tensor([[0.2, 0.4]])`, `torch.zeros(2, 2)`.
_CONSTANT_TENSORS = frozenset(
    {"torch.tensor", "torch.zeros", "torch.ones", "torch.full", "torch.eye", "torch.arange"}
)


def _names_in(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The names an argument reads, but for `dtype=torch.float32`-like attribute chains."""
    if isinstance(node, cst.Attribute):
        return []
    if isinstance(node, cst.Name):
        return [] if node.value in ("True", "False", "None") else [node]
    return [inner for child in node.children for inner in _names_in(child)]


def _overwritten(index: ModuleIndex, statement: Statement, call: cst.Call) -> bool:
    """`head = nn.Linear(..)` whose weight (and bias, unless `bias=False`) the statements after it
    set to fixed values before anything else reads it: a value head started at zero."""
    node = statement.node
    qualified = index.qualify(call.func, statement.scope) or ""
    if not (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and node.value is call
        and qualified.rpartition(".")[0] in ("torch.nn", "torch.nn.modules")
    ):
        return False
    layer = dotted_name(node.targets[0].target)
    if layer is None:
        return False
    without_bias = qualified.rpartition(".")[2] in _WITHOUT_BIAS or is_literal(
        argument(call, "bias", None), "False"
    )
    pending = {f"{layer}.weight"} | (set() if without_bias else {f"{layer}.bias"})
    for later in statement.siblings[statement.position + 1 :]:
        if not pending:
            return True
        filled = _filled(index, later)
        if filled in pending:
            pending.discard(filled)
        elif paths_overlap({layer}, read_paths(later.node) | bound_paths(later.node)):
            return False
    return not pending


def _filled(index: ModuleIndex, statement: Statement) -> str | None:
    """The parameter (`head.weight`) a statement fills with a fixed value, in place or by binding
    a constant (`self.fc.weight = nn.Parameter(torch.tensor([[0.2, 0.4]]))`)."""
    node = statement.node
    if isinstance(node, cst.Assign) and len(node.targets) == 1:
        value = node.value
        if (
            isinstance(value, cst.Call)
            and index.qualify(value.func, statement.scope) in _PARAMETER_CLASSES
            and value.args
        ):
            value = value.args[0].value
        constant = (
            isinstance(value, cst.Call)
            and index.qualify(value.func, statement.scope) in _CONSTANT_TENSORS
            and not any(_names_in(arg.value) for arg in value.args)
        )
        return dotted_name(node.targets[0].target) if constant else None
    if not (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)):
        return None
    call, func = node.value, node.value.func
    if isinstance(func, cst.Attribute) and func.attr.value in _FILLING_METHODS:
        target = func.value
        if isinstance(target, cst.Attribute) and target.attr.value == "data":
            target = target.value
        return dotted_name(target)
    if index.qualify(func, statement.scope) in _FILLING_INITS and call.args:
        return dotted_name(call.args[0].value)
    return None


def initialises_randomly(call: cst.Call, qualified: str) -> bool:
    """Whether a library call builds a model with randomly initialised weights."""
    if qualified in catalog.LIBRARY_DRAWS:
        new_head = argument(call, catalog.NEW_HEAD_ARGUMENT, None) is not None
        return new_head or not _loads(call, catalog.LIBRARY_DRAWS[qualified])
    package, _, name = qualified.rpartition(".")
    if package in catalog.TORCHVISION_MODEL_PACKAGES:
        builder = name.islower() and name not in catalog.TORCHVISION_NOT_BUILDERS
        model_class = name[:1].isupper() and not name.endswith("Weights")
        return (builder or model_class) and not _loads(call, catalog.TORCHVISION_LOADED)
    if package in catalog.GRAPH_LAYER_PACKAGES:
        return name.endswith("Conv") and name not in catalog.GRAPH_LAYER_WRAPPERS
    if qualified.startswith(catalog.TRANSFORMERS):
        owner, _, name = qualified.rpartition(".")
        if name == "from_config":
            return _transformers_model(owner.rsplit(".", 1)[-1])
        return _transformers_model(name) and not name.startswith("Auto")
    return False


def _loads(call: cst.Call, loading: tuple[tuple[str, int | None, str], ...]) -> bool:
    for keyword, position, test in loading:
        value = argument(call, keyword, position)
        by_keyword = argument(call, keyword, None)
        if (
            (test == "given" and not is_none(value))
            or (test == "true" and is_literal(value, "True"))
            # `pretrained=args.pretrained`: loaded or not by a configuration not read here
            or (test == "true" and not is_none(by_keyword) and not is_literal(by_keyword, "False"))
        ):
            return True
    return False


def _transformers_model(name: str) -> bool:
    """A PyTorch model class of transformers (`GPT2LMHeadModel`, `BertForSequenceClassification`),
    not one of the other `..For..` classes (`DataCollatorForSeq2Seq`, `BertForPreTrainingOutput`,
    TensorFlow's)."""
    if (
        not name[:1].isupper()
        or name.startswith(_NOT_TORCH_MODELS)
        or name.endswith(("Output", "Config"))
    ):
        return False
    return name.endswith("Model") or re.search(r"For[A-Z]", name) is not None


def builds_on_meta(call: cst.Call) -> bool:
    """A module constructor given `device="meta"`: it allocates no data and draws nothing."""
    device = argument(call, "device", None)
    return device is not None and _names_meta(device)


def loading_constructor(call: cst.Call) -> bool:
    """`Model.from_pretrained(..)`, `LitModel.load_from_checkpoint(..)`: built, then every weight
    loaded."""
    return (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value in catalog.LOADING_CONSTRUCTORS
    )


# ---------------------------------------------------------------------------- empty init
def _builds_empty(index: ModuleIndex, statement: Statement) -> bool:
    """A `with` statement whose body builds modules without drawing."""
    node = statement.node
    return isinstance(node, cst.With) and any(
        isinstance(item.item, cst.Call) and _empty_init_context(index, item.item, statement.scope)
        for item in node.items
    )


def _empty_init_context(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    qualified = index.qualify(call.func, scope)
    if qualified in catalog.EMPTY_INIT_CONTEXTS:
        return True
    if qualified in catalog.DEVICE_CONTEXTS:
        return bool(call.args) and _names_meta(call.args[0].value, index, scope)
    method, keyword = catalog.EMPTY_INIT_METHOD
    return (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value == method
        and any(
            arg.keyword is not None
            and arg.keyword.value == keyword
            and is_literal(arg.value, "True")
            for arg in call.args
        )
    )


def _names_meta(
    expr: cst.BaseExpression, index: ModuleIndex | None = None, scope: Scope | None = None
) -> bool:
    """`"meta"`, or `torch.device("meta")`."""
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value == "meta"
    if isinstance(expr, cst.Call) and index is not None and expr.args:
        return index.qualify(expr.func, scope) == "torch.device" and _names_meta(expr.args[0].value)
    return False


# ---------------------------------------------------------------------------- loaded weights
def _loaded_before_use(
    index: ModuleIndex,
    statement: Statement,
    call: cst.Call,
    project: Project | None,
    depth: int = 0,
) -> bool:
    """`model = Net(..)` (or `Net(..).to(device)`) whose every weight is loaded before any other
    use; also a part built for it (`encoder = Encoder(..)`, then `model = Net(encoder)`) when that
    model is."""
    node = statement.node
    if not (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and _keeps_weights_of(node.value, call)
    ):
        return False
    model = dotted_name(node.targets[0].target)
    if model is None:
        return False
    for later in statement.siblings[statement.position + 1 :]:
        if not paths_overlap({model}, read_paths(later.node) | bound_paths(later.node)):
            continue
        if _loads_into(index, later, model, project, 0):
            return True
        if _sets_an_attribute(later.node, model):
            continue  # `model.criterion = loss`: a strict load still sets every weight
        if depth < _MAX_DEPTH and _built_into(index, later, model, project, depth):
            return True
        if not (
            _keeps_model(later.node, model)
            or "." not in model
            and shapes_nothing(later.node, model)  # `print(model)`, a parameter count
        ):
            return False
    return False


def _sets_an_attribute(node: cst.CSTNode, model: str) -> bool:
    """`model.criterion = loss`: an assignment to an attribute of the model, reading nothing of
    it."""
    return (
        isinstance(node, cst.Assign)
        and all(
            isinstance(target.target, cst.Attribute) and dotted_name(target.target.value) == model
            for target in node.targets
        )
        and model not in {path.split(".")[0] for path in read_paths(node.value)}
    )


def _built_into(
    index: ModuleIndex, statement: Statement, part: str, project: Project | None, depth: int
) -> bool:
    """Whether the statement builds a model from `part` (`model = Net(encoder, ..)`) whose every
    weight is loaded before any other use."""
    node = statement.node
    value = node.value if isinstance(node, cst.Assign) else None
    return (
        isinstance(value, cst.Call)
        and any(dotted_name(arg.value) == part for arg in value.args)
        and _loaded_before_use(index, statement, value, project, depth + 1)
    )


def _keeps_weights_of(value: cst.BaseExpression, call: cst.Call) -> bool:
    """`value` is `call`, or `call` followed by methods that keep the weights
    (`.to(device).eval()`)."""
    return _under_keeping_methods(value) is call


def _keeps_model(node: cst.CSTNode, model: str) -> bool:
    """`model.eval()`, `model = model.to(device)`: statements that do not use the weights."""
    if isinstance(node, cst.Expr):
        value = node.value
    elif isinstance(node, cst.Assign) and bound_paths(node) == {model}:
        value = node.value
    else:
        return False
    return dotted_name(_under_keeping_methods(value)) == model


def _under_keeping_methods(value: cst.BaseExpression) -> cst.BaseExpression:
    """What a chain of weight-keeping method calls (`x.to(device).eval()`) is called on (`x`)."""
    while (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _KEEPING_METHODS
    ):
        value = value.func.value
    return value


def _loads_into(
    index: ModuleIndex, statement: Statement, model: str, project: Project | None, depth: int
) -> bool:
    """Whether a statement loads every weight of `model` (strictly), itself or through a helper."""
    node = statement.node
    value = node.value if isinstance(node, (cst.Expr, cst.Assign)) else None
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value in catalog.WEIGHT_LOADING_METHODS:
        target, strict = catalog.WEIGHT_LOADING_METHODS[func.attr.value]
        loaded = func.value if target is None else argument(value, *target)
        return (
            loaded is not None
            and dotted_name(loaded) in (model, f"{model}.module")
            and not is_literal(argument(value, *strict), "False")
        )
    qualified = index.qualify(func, statement.scope)
    if qualified in catalog.WEIGHT_LOADERS:
        target, strict = catalog.WEIGHT_LOADERS[qualified]
        loaded = argument(value, *target)
        return (
            loaded is not None
            and dotted_name(loaded) == model
            and not is_literal(argument(value, *strict), "False")
        )
    if _LOADER_NAME.search(dotted_name(func) or "") and any(
        dotted_name(arg.value) == model for arg in value.args
    ):
        # `load_weights_into_gpt(gpt, params)`, `utils.load_checkpoint(path, net)`: whether it
        # loads every weight depends on code or files not followed; not taken as a use
        return True
    if depth >= _MAX_DEPTH:
        return False
    helper = _helper(index, value, statement.scope, project)
    if helper is None:
        return False
    helper_index, function = helper
    parameters = [
        name for name, argument in bind_arguments(function, value) if dotted_name(argument) == model
    ]
    return any(
        _loads_into(helper_index, inner, parameter, project, depth + 1)
        for parameter in parameters
        for inner in _always_run(helper_index, helper_index.body_of(function))
    )


def _always_run(index: ModuleIndex, block: list[Statement]) -> Iterator[Statement]:
    """The statements of a block that run whenever it does (into `with` bodies, not branches or
    loops)."""
    for statement in block:
        yield statement
        if isinstance(statement.node, cst.With):
            for inner in index.blocks_of(statement.node):
                yield from _always_run(index, inner)


def _helper(
    index: ModuleIndex,
    call: cst.Call,
    scope: Scope,
    project: Project | None,
) -> tuple[ModuleIndex, FunctionInfo] | None:
    """The function of this module, or of another project module that loads weights, a call runs."""
    local = index.resolve_local_call(call, scope)
    if local is not None:
        return index, local
    qualified = index.qualify(call.func, scope)
    if project is None or qualified is None:
        return None
    return project.function(qualified, LOADS_WEIGHTS)
