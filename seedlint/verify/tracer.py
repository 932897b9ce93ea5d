"""Records every random draw of a running program, in order, as JSON lines (in the traced process).

torch draws are caught at the dispatcher (a `TorchDispatchMode`), so module construction,
`nn.init`, dropout, `randperm` and samplers are all seen; NumPy's global functions and Python's
`random` module are wrapped. Each record: the op, the generator it drew from, a hash and a short
prefix of the values, and the innermost source location in the user's files. Records are
flushed one by one, so a run stopped by the timeout still leaves its prefix.
"""

from __future__ import annotations

import functools
import hashlib
import json
import linecache
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

# aten ops that consume a generator (overload packet names).
TORCH_RANDOM_OPS = frozenset(
    {
        "uniform_",
        "normal_",
        "normal",
        "bernoulli_",
        "bernoulli",
        "random_",
        "exponential_",
        "geometric_",
        "cauchy_",
        "log_normal_",
        "rand",
        "rand_like",
        "randn",
        "randn_like",
        "randint",
        "randint_like",
        "randperm",
        "multinomial",
        "poisson",
        "native_dropout",
        "rrelu_with_noise",
        "_standard_gamma",
        "binomial",
        "_sample_dirichlet",
    }
)
NUMPY_DRAWS = (
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "ranf",
    "sample",
    "choice",
    "shuffle",
    "permutation",
    "normal",
    "uniform",
    "standard_normal",
    "binomial",
    "poisson",
    "beta",
    "gamma",
    "exponential",
    "bytes",
)
# Methods of RNG objects (`np.random.default_rng(..)`, `RandomState(..)`, `random.Random(..)`).
NUMPY_GENERATOR_DRAWS = (
    "random",
    "integers",
    "choice",
    "shuffle",
    "permutation",
    "permuted",
    "normal",
    "uniform",
    "standard_normal",
    "binomial",
    "poisson",
    "beta",
    "gamma",
    "exponential",
    "bytes",
    "multivariate_normal",
)
PYTHON_DRAWS = (
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "gauss",
    "normalvariate",
    "getrandbits",
    "randbytes",
    "triangular",
    "betavariate",
    "expovariate",
)
# The ops dropout draws its mask with (`F.dropout`, `alpha_dropout`, `feature_alpha_dropout`).
DROPOUT_OPS = frozenset({"native_dropout", "bernoulli_", "bernoulli"})
# the first items of a draw kept in the trace (the evidence shows three, from where two runs differ)
_PREFIX = 16
# The directory of the seedlint package running the tracer (as imported, and with links resolved):
# its frames are never the user's, even when it lies under the working directory (a checkout of
# seedlint).
_SEEDLINT = tuple(
    {
        os.path.dirname(os.path.dirname(path)) + os.sep
        for path in (os.path.abspath(__file__), os.path.realpath(__file__))
    }
)
_worker_loader: dict | None = None  # in a DataLoader worker: the tag of the loader it works for


class Tracer:
    """Writes one JSON line per draw to `path`; `roots` decide which frames are the user's.

    A process forked from the traced one (a DataLoader worker) writes to `path.<pid>`; a child
    process's records carry its label (`_child_label`). A spawned child gets a tracer of its own
    (`child=True`).
    """

    def __init__(self, path: Path, roots: list[Path], child: bool = False) -> None:
        self.path = path
        self.stream: TextIO = open(path, "w", encoding="utf-8")
        self.pid = os.getpid()
        self.child = child
        self.roots = [str(root.resolve()) + os.sep for root in roots]
        self.count = 0
        self.active = True
        self.busy = False  # inside a traced function: what it calls is part of the same draw

    def traced_call(
        self,
        function: Callable[..., Any],
        args: tuple,
        kwargs: dict,
        op: str,
        generator: str,
        shuffled: bool,
    ) -> Any:
        """Call a drawing function and record its draw once (not the draws it makes through
        others)."""
        if self.busy:
            return function(*args, **kwargs)
        self.busy = True
        try:
            result = function(*args, **kwargs)
        finally:
            self.busy = False
        self.record(op, generator, args[0] if shuffled and args else result)
        return result

    def close(self) -> None:
        self.stream.close()

    def _follow_fork(self) -> None:
        """In a forked child: write to a file of its own (the parent's stream is not ours)."""
        self.pid = os.getpid()
        self.stream = open(f"{self.path}.{self.pid}", "w", encoding="utf-8")
        self.child = True
        self.count = 0

    def record(
        self,
        op: str,
        generator: str,
        values: Any,
        kind: str = "draw",
        owner: int | None = None,
        eval_module: str | None = None,
        loader: dict | None = None,
    ) -> None:
        """One record: a draw (`kind` "draw"), a sampler's epoch order ("epoch") or a loader's batch
        ("batch"); `eval_module`: the class of the module in eval mode that made a dropout draw;
        `loader`: the tag of the loader a batch (or, in a worker, a draw) comes from."""
        if not self.active:
            return
        self.active = False  # hashing a tensor must not record its own ops
        try:
            if os.getpid() != self.pid:
                self._follow_fork()
            digest, prefix = _fingerprint(values)
            entry = {
                "i": self.count,
                "kind": kind,
                "op": op,
                "generator": generator,
                "hash": digest,
                "prefix": prefix,
                "where": self.location(),
                "owner": owner,
                "worker": _child_label() if self.child else None,
            }
            if eval_module is not None:
                entry["eval_module"] = eval_module
            if loader is not None or (self.child and _worker_loader is not None):
                entry["loader"] = loader or _worker_loader
            self.stream.write(json.dumps(entry) + "\n")
            self.stream.flush()
            self.count += 1
        finally:
            self.active = True

    def record_modules(self) -> None:
        """One record listing the user's files the program loaded (findings in a helper module are
        judged from the runs of an entry point that loads it)."""
        files = sorted(
            {
                module.__file__
                for module in list(sys.modules.values())
                if isinstance(getattr(module, "__file__", None), str)
                and self._is_users(module.__file__)
            }
        )
        self.stream.write(json.dumps({"kind": "modules", "files": files}) + "\n")
        self.stream.flush()

    def record_error(self, error: BaseException) -> None:
        """One record of the exception that stopped the program: its type, its message, and the
        innermost line of the user's files its traceback went through (`where`)."""
        where, line, frames = None, "", error.__traceback__
        while frames is not None:
            filename = frames.tb_frame.f_code.co_filename
            if self._is_users(filename):
                where = f"{filename}:{frames.tb_lineno}"
                line = linecache.getline(filename, frames.tb_lineno).strip()
            frames = frames.tb_next
        entry = {
            "kind": "error",
            "type": type(error).__name__,
            "message": str(error)[:200],
            "where": where,
            "line": line,  # its text: a fix that adds lines above it moves `where`, not this
        }
        self.stream.write(json.dumps(entry) + "\n")
        self.stream.flush()

    def _is_users(self, filename: str) -> bool:
        return (
            filename.startswith(tuple(self.roots))
            and not filename.startswith(_SEEDLINT)
            and "site-packages" not in filename
        )

    def is_user_frame(self, depth: int) -> bool:
        """Whether the code `depth` frames up (from the caller) is in the user's files."""
        return self._is_users(sys._getframe(depth + 1).f_code.co_filename)

    def location(self) -> str | None:
        """`file:line` of the innermost frame in the user's files."""
        frame = sys._getframe(2)
        while frame is not None:
            if self._is_users(frame.f_code.co_filename):
                return f"{frame.f_code.co_filename}:{frame.f_lineno}"
            frame = frame.f_back
        return None

    def wrap(self, owner: Any, name: str, generator: str) -> None:
        """Replace `owner.name` by a function that records what the original returns (or
        shuffles)."""
        original = getattr(owner, name, None)
        if original is None:
            return
        tracer = self

        def traced(*args: Any, **kwargs: Any) -> Any:
            return tracer.traced_call(
                original, args, kwargs, f"{generator}.{name}", generator, name == "shuffle"
            )

        traced.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(owner, name, traced)


def _trace_seeding(tracer: Tracer, owners: list[tuple[Any, str, str]]) -> None:
    """Record each call that seeds a global generator ("seed"), saves its state ("save") or puts a
    saved state back ("restore"): `owners` lists (module, function name, kind)."""
    for owner, name, kind in owners:
        original = getattr(owner, name, None)
        if original is None:
            continue

        def traced(
            *args: Any,
            _original: Callable[..., Any] = original,
            _kind: str = kind,
            _op: str = f"{getattr(owner, '__name__', '')}.{name}",
            **kwargs: Any,
        ) -> Any:
            result = _original(*args, **kwargs)
            if not tracer.busy:
                tracer.record(_op, _kind, list(args[:1]) if _kind == "seed" else [], kind=_kind)
            return result

        traced.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(owner, name, traced)


def _child_label() -> int | str:
    """A child process's label: its DataLoader worker id, else its multiprocessing name
    (`SpawnProcess-1`)."""
    worker = sys.modules.get("torch.utils.data._utils.worker")
    info = worker.get_worker_info() if worker is not None else None
    if info is not None:
        return info.id
    import multiprocessing

    return multiprocessing.current_process().name


def _fingerprint(values: Any) -> tuple[str, list[Any]]:
    """A short hash of drawn values and their first few items, for torch, NumPy or plain Python."""
    data: bytes
    prefix: list[Any]
    if hasattr(values, "detach"):  # a torch tensor
        flat = values.detach().cpu().reshape(-1)
        array = flat.numpy() if hasattr(flat, "numpy") else None
        data = array.tobytes() if array is not None else repr(flat.tolist()).encode()
        prefix = [_plain(v) for v in flat[:_PREFIX].tolist()]
    elif hasattr(values, "tobytes"):  # a NumPy array or scalar
        data = values.tobytes()
        prefix = [_plain(v) for v in getattr(values, "ravel", lambda: [values])()[:_PREFIX]]
    else:
        data = repr(values).encode()
        prefix = list(values[:_PREFIX]) if isinstance(values, list) else [_plain(values)]
    return hashlib.sha1(data).hexdigest()[:16], prefix


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, (int, str, bool)) or value is None:
        return value
    return repr(value)[:32]


class _TracedType(type):
    """The metaclass of a traced RNG class: `isinstance` and `issubclass` answer as for the
    original."""

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls.__bases__[0])

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls.__bases__[0])


def traced_class(
    tracer: Tracer, base: type, methods: tuple[str, ...], generator: str, module: str
) -> type:
    """A subclass of an RNG class, installed as `module.<name>`, whose draw methods record what they
    return (or shuffle). It passes for the original: its name, `isinstance` checks, and `pickle`
    (which finds it where it is installed).

    Only objects the user's code creates are traced: libraries make their own (`tempfile` names).
    """

    def method(name: str) -> Callable[..., Any]:
        def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
            original = getattr(super(subclass, self), name)
            if not getattr(self, "_seedlint_traced", False):
                return original(*args, **kwargs)
            return tracer.traced_call(
                original, args, kwargs, f"{generator}.{name}", generator, name == "shuffle"
            )

        return traced

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        super(subclass, self).__init__(*args, **kwargs)
        self._seedlint_traced = tracer.is_user_frame(1)

    namespace = {name: method(name) for name in methods if hasattr(base, name)}
    namespace.update(__init__=__init__, __module__=module, __qualname__=base.__qualname__)
    subclass = _TracedType(base.__name__, (base,), namespace)
    setattr(sys.modules[module], base.__name__, subclass)
    return subclass


def _trace_rng_objects(tracer: Tracer) -> None:
    """RNG objects draw through traced subclasses: `random.Random`, NumPy's `RandomState` and
    `Generator`."""
    traced_class(tracer, random.Random, PYTHON_DRAWS, "object:random", "random")
    try:
        import numpy.random
    except ImportError:
        return
    traced_class(tracer, numpy.random.RandomState, NUMPY_DRAWS, "object:numpy", "numpy.random")
    traced_generator = traced_class(
        tracer, numpy.random.Generator, NUMPY_GENERATOR_DRAWS, "object:numpy", "numpy.random"
    )
    default_rng = numpy.random.default_rng

    def traced_default_rng(seed: Any = None) -> Any:
        generator = traced_generator(default_rng(seed).bit_generator)
        generator._seedlint_traced = tracer.is_user_frame(1)
        return generator

    numpy.random.default_rng = traced_default_rng


def install(tracer: Tracer) -> Callable[[], None]:
    """Start recording torch, NumPy and `random` draws; returns what stops torch's recording."""
    for name in PYTHON_DRAWS:
        tracer.wrap(random, name, "random")
    _trace_seeding(
        tracer,
        [(random, "seed", "seed"), (random, "getstate", "save"), (random, "setstate", "restore")],
    )
    _trace_rng_objects(tracer)
    try:
        import numpy.random
    except ImportError:
        pass
    else:
        for name in NUMPY_DRAWS:
            tracer.wrap(numpy.random, name, "numpy")
        _trace_seeding(
            tracer,
            [
                (numpy.random, "seed", "seed"),
                (numpy.random, "get_state", "save"),
                (numpy.random, "set_state", "restore"),
            ],
        )
    try:
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        return lambda: None

    import torch

    def dispatch(func: Any, args: tuple, kwargs: dict | None) -> Any:
        result = func(*args, **(kwargs or {}))
        name = func.overloadpacket.__name__
        if name in TORCH_RANDOM_OPS and tracer.active:
            module = _module_in_eval_mode() if name in DROPOUT_OPS else None
            tracer.record(
                f"aten.{name}", _generator_label(kwargs, result), result, eval_module=module
            )
        return result

    hidden = torch._disable_dynamo(dispatch, recursive=True)  # imports Dynamo when first called

    class RandomOps(TorchDispatchMode):
        @classmethod
        def _should_skip_dynamo(cls) -> bool:
            return False  # done below, lazily

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            # Dynamo must not trace the tracer (torch wraps every mode so by default, importing
            # Dynamo in every run: about a second); only a program that has imported it
            # (`torch.compile`) pays.
            if "torch._dynamo" in sys.modules:
                return hidden(func, args, kwargs)
            return dispatch(func, args, kwargs)

    _trace_data_loading(tracer)
    _trace_seeding(
        tracer,
        [
            (module, name, kind)
            for module in (torch, torch.random)
            for name, kind in (
                ("manual_seed", "seed"),
                ("get_rng_state", "save"),
                ("set_rng_state", "restore"),
            )
        ],
    )
    mode = RandomOps()
    mode.__enter__()
    return lambda: mode.__exit__(None, None, None)


def _trace_data_loading(tracer: Tracer) -> None:
    """Record each epoch's order of a `DistributedSampler`, and each batch a multi-worker loader
    yields."""
    from torch.utils.data import DistributedSampler, dataloader

    sampler_iter = DistributedSampler.__iter__

    def epoch_order(self: Any) -> Any:
        indices = list(sampler_iter(self))
        tracer.record(
            "DistributedSampler.__iter__", "sampler", indices, kind="epoch", owner=id(self)
        )
        return iter(indices)

    DistributedSampler.__iter__ = epoch_order  # type: ignore[method-assign]
    _tag_loaders(tracer, dataloader.DataLoader)
    next_batch = dataloader._MultiProcessingDataLoaderIter.__next__

    def batch(self: Any) -> Any:
        data = next_batch(self)
        tracer.record(
            "DataLoader.__next__",
            "loader",
            _flat(data),
            kind="batch",
            owner=id(self),
            loader=getattr(self, "_seedlint_loader", None),
        )
        return data

    dataloader._MultiProcessingDataLoaderIter.__next__ = batch  # type: ignore[method-assign]


def _tag_loaders(tracer: Tracer, loader_class: type) -> None:
    """Tag each loader with where it is created and the lines of its `worker_init_fn`; its workers
    and batches carry the tag, so evidence is matched to the loader a finding is about. The
    `worker_init_fn` the user's code sees is never changed (Lightning tests it for None)."""
    create, get_iterator = loader_class.__init__, loader_class._get_iterator

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        create(self, *args, **kwargs)
        self._seedlint_created = tracer.location()

    def iterator(self: Any) -> Any:
        original = self.worker_init_fn
        tag = {"created": getattr(self, "_seedlint_created", None), "init_fn": _lines_of(original)}
        self.worker_init_fn = functools.partial(_tagged_worker_init, tag, original)
        try:
            made = get_iterator(self)
        finally:
            self.worker_init_fn = original
        made._seedlint_loader = tag
        return made

    loader_class.__init__, loader_class._get_iterator = init, iterator


def _tagged_worker_init(tag: dict, original: Callable[[int], None] | None, worker_id: int) -> None:
    """In a DataLoader worker: remember the loader's tag, then run the user's `worker_init_fn`."""
    global _worker_loader
    _worker_loader = tag
    if original is not None:
        original(worker_id)


def _lines_of(function: Any) -> list | None:
    """[file, first line, last line] of a function's code (through `functools.partial`), or None."""
    while isinstance(function, functools.partial):
        function = function.func
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    lines = [line for _, _, line in code.co_lines() if line is not None]
    return [code.co_filename, code.co_firstlineno, max(lines, default=code.co_firstlineno)]


def _flat(data: Any) -> Any:
    """The tensor (or the values) of a batch, however it is nested."""
    if isinstance(data, (list, tuple)) and data and hasattr(data[0], "detach"):
        import torch

        return torch.cat([item.detach().reshape(-1).double() for item in data])
    return data


def _module_in_eval_mode() -> str | None:
    """The class name of the innermost `nn.Module` running a method, when that module is in eval
    mode."""
    module_type = sys.modules["torch.nn"].Module
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_varnames[:1] == ("self",):
            owner = frame.f_locals.get("self")
            if isinstance(owner, module_type):
                return None if owner.training else type(owner).__name__
        frame = frame.f_back
    return None


def _generator_label(kwargs: dict | None, result: Any) -> str:
    """`torch:cpu` / `torch:cuda:0` for a global generator, `generator:<device>` for a user-made
    one."""
    import torch

    generator = (kwargs or {}).get("generator")
    tensor = result[0] if isinstance(result, tuple) else result
    device = str(getattr(tensor, "device", "cpu"))
    if generator is None or _is_global(torch, generator):
        return f"torch:{device}"
    return f"generator:{generator.device}"


def _is_global(torch: Any, generator: Any) -> bool:
    """Whether an explicit generator is a device's global one (`random_split` passes
    `default_generator`; the wrapper object differs, so compare states)."""
    if generator.device.type == "cpu":
        return torch.equal(generator.get_state(), torch.default_generator.get_state())
    if generator.device.type == "cuda":
        index = generator.device.index or 0
        return torch.equal(generator.get_state(), torch.cuda.default_generators[index].get_state())
    return False
