"""The traced process: install the tracer, serve fixed sources, run the user's script as `__main__`.

    python -m seedlint.verify.harness TRACE CONFIG SCRIPT [ARGS...]

(`seedlint verify` starts it through `launch.py`, which pins the seedlint package it runs from.)

TRACE is the JSON-lines file the draws are streamed to. CONFIG is a JSON file: `sources` maps
absolute paths to the text to run instead of the file's own (the fixed program; `{}` for the
original): the script and any module imported from those paths get it, through an import hook,
so no file of the user's is written. `seed_offset` (0 by default) is added to every seed the
program passes to `torch.manual_seed`, `np.random.seed` and `random.seed`: the probe that shows a
generator ignoring the script's seed runs the program with a different one. Processes the
program spawns get the same treatment (`child_main`), and write their own traces. `checkpoints`
(a program's runs that resume) is the scratch working directory its `torch.save` must write in
(no file of the user's is overwritten); each save and load is recorded, and `interrupt` stops
the program right after its first save, as if it had been killed there.
"""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.machinery
import importlib.util
import json
import linecache
import os
import sys
import tempfile
import traceback
import types
from pathlib import Path
from typing import Any

from seedlint.verify.tracer import Tracer, install


class _FixedSources(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the fixed text of some files in place of what is on disk."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources

    def find_spec(
        self, name: str, path: Any, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if (
            spec is None
            or spec.origin is None
            or str(Path(spec.origin).resolve()) not in self.sources
        ):
            return None
        return importlib.util.spec_from_file_location(
            name,
            spec.origin,
            loader=self,
            submodule_search_locations=spec.submodule_search_locations,
        )

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        origin = module.__spec__.origin
        exec(_compiled(self.sources[str(Path(origin).resolve())], origin), module.__dict__)


def _compiled(source: str | bytes, path: str) -> types.CodeType:
    """The code of a file's text; text served instead of the file's own (a fixed module, a
    notebook's code cells) is what its tracebacks show, not the lines on disk."""
    if isinstance(source, str):
        linecache.cache[path] = (len(source), None, source.splitlines(keepends=True), path)
    return compile(source, path, "exec")


def _offset_seeds(offset: int) -> None:
    """Make every global seeding call use `seed + offset` (a different `--seed`, without editing
    code)."""
    import random

    import torch

    targets = [(torch, "manual_seed"), (torch.random, "manual_seed"), (random, "seed")]
    try:
        import numpy.random
    except ImportError:
        pass
    else:
        targets.append((numpy.random, "seed"))
    for owner, name in targets:
        original = getattr(owner, name)

        def shifted(seed: Any = None, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            return _original(seed if seed is None else int(seed) + offset, *args, **kwargs)

        setattr(owner, name, shifted)

    class ShiftedGenerator(torch.Generator):
        """A user-made generator whose `manual_seed` gets the shifted seed too."""

        def manual_seed(self, seed: int) -> torch.Generator:
            return super().manual_seed(int(seed) + offset)

    torch.Generator = ShiftedGenerator  # type: ignore[misc]


class Interrupted(BaseException):
    """Stops the program after its first checkpoint (a `BaseException`, like Ctrl-C: the program's
    `except Exception` does not catch it)."""


def _watch_checkpoints(tracer: Tracer, directory: str, interrupt: bool) -> None:
    """Record each `torch.save` and `torch.load` of a file (by its path in `directory`), refuse a
    save outside `directory` and the temporary directory, and (`interrupt`) stop after the first
    save."""
    import torch
    import torch.serialization

    inside = [os.path.realpath(path) + os.sep for path in (directory, tempfile.gettempdir())]
    original_save, original_load = torch.save, torch.load
    saves = 0

    def name_of(file: Any) -> str | None:
        name = file if isinstance(file, (str, os.PathLike)) else getattr(file, "name", None)
        if not isinstance(name, (str, os.PathLike)):
            return None
        real = os.path.realpath(name)
        return os.path.relpath(real, directory) if real.startswith(inside[0]) else os.fspath(name)

    def save(obj: Any, f: Any, *args: Any, **kwargs: Any) -> Any:
        name = name_of(f)
        if isinstance(f, (str, os.PathLike)) and not os.path.realpath(f).startswith(tuple(inside)):
            raise PermissionError(
                f"seedlint verify runs a program that resumes in a scratch working directory and "
                f"writes no file of yours: this one saves its checkpoint to {os.fspath(f)!r}, "
                "outside it (save it under the working directory)"
            )
        nonlocal saves
        result = original_save(obj, f, *args, **kwargs)
        if name is not None:
            saves += 1
            tracer.record("torch.save", "checkpoint", [name], kind="checkpoint")
            if interrupt and saves == 1:
                raise Interrupted
        return result

    def load(f: Any, *args: Any, **kwargs: Any) -> Any:
        result = original_load(f, *args, **kwargs)
        if (name := name_of(f)) is not None:
            tracer.record("torch.load", "checkpoint", [name], kind="checkpoint")
        return result

    for owner in (torch, torch.serialization):
        owner.save, owner.load = save, load


def _prepare(config_path: str) -> dict[str, Any]:
    """Apply the run's config (shift seeds, serve the fixed sources); returns the config."""
    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    if config.get("seed_offset"):
        _offset_seeds(config["seed_offset"])
    if config.get("sources"):
        sys.meta_path.insert(0, _FixedSources(config["sources"]))
    return config


def _main_source(script_path: str, sources: dict[str, str]) -> str | bytes:
    """The fixed text of the script, or its bytes on disk (`compile` honours their encoding)."""
    return sources[script_path] if script_path in sources else Path(script_path).read_bytes()


def _run_as_main(script_path: str, source: str | bytes) -> None:
    """Run the script as the `__main__` module (a real one: `pickle` finds its functions and
    classes)."""
    module = types.ModuleType("__main__")
    module.__dict__.update(
        __file__=script_path, __builtins__=builtins, __spec__=None, __cached__=None
    )
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = module
    try:
        exec(_compiled(source, script_path), module.__dict__)
    finally:
        sys.modules["__main__"] = saved


def _bootstrap_spawned_children(trace_path: str, config_path: str, script_path: str) -> None:
    """Processes the program spawns (`mp.spawn`, spawn-context DataLoader workers) re-import its
    main module: point them at a bootstrap that serves the fixed sources, traces the child, then
    runs the (fixed) main module as `__mp_main__`."""
    import multiprocessing.spawn

    bootstrap = Path(trace_path).with_suffix(".child.py")  # one per rank under torchrun
    # imports this seedlint, whatever the child's sys.path
    launcher = str(Path(__file__).with_name("launch.py"))
    bootstrap.write_text(
        f"import runpy\nrunpy.run_path({launcher!r})\n"
        "from seedlint.verify.harness import child_main\n"
        f"exec(child_main({trace_path!r}, {config_path!r}, {script_path!r}), globals())\n",
        encoding="utf-8",
    )
    preparation_data = multiprocessing.spawn.get_preparation_data

    def prepared(name: str) -> dict:
        data = preparation_data(name)
        if data.get("init_main_from_path") == os.path.normpath(script_path):
            data["init_main_from_path"] = str(bootstrap)
        return data

    multiprocessing.spawn.get_preparation_data = prepared


def child_main(trace_path: str, config_path: str, script_path: str) -> Any:
    """In a spawned child: serve the fixed sources, trace to `<trace>.<pid>`, and return the main
    module's code, run by the bootstrap in the `__mp_main__` module with the script's `__file__`."""
    config = _prepare(config_path)
    sources = config.get("sources", {})
    install(Tracer(Path(f"{trace_path}.{os.getpid()}"), _roots(config, script_path), child=True))
    sys.modules["__mp_main__"].__file__ = script_path
    return _compiled(_main_source(script_path, sources), script_path)


def _roots(config: dict[str, Any], script_path: str) -> list[Path]:
    """The directories of the user's files: the working directory (and the real one behind a
    scratch one) and the script's."""
    real = [Path(config["source"])] if "source" in config else []
    return [Path.cwd(), Path(script_path).parent, *real]


def _user_frames(frames: types.TracebackType | None) -> types.TracebackType | None:
    """A traceback from its first frame outside this module (the user's script)."""
    while frames is not None and frames.tb_frame.f_code.co_filename == __file__:
        frames = frames.tb_next
    return frames


def main(argv: list[str]) -> None:
    trace_path, config_path, script, *args = argv
    config = _prepare(config_path)
    sources = config.get("sources", {})
    script_path = str(Path(script).resolve())
    sys.argv = [script, *args]
    sys.path.insert(0, str(Path(script_path).parent))
    if "RANK" in os.environ:  # under torchrun: one trace per rank
        trace_path = str(Path(trace_path).with_suffix(f".rank{os.environ['RANK']}.jsonl"))
    _bootstrap_spawned_children(trace_path, config_path, script_path)
    if "source" in config:  # in a scratch working directory: modules come from the real one
        sys.path = [config["source"] if entry == os.getcwd() else entry for entry in sys.path]
    tracer = Tracer(Path(trace_path), _roots(config, script_path))
    stop = install(tracer)
    if "checkpoints" in config:
        _watch_checkpoints(tracer, config["checkpoints"], config.get("interrupt", False))
    completed = False
    try:
        _run_as_main(script_path, _main_source(script_path, sources))
        completed = True
    except Interrupted:  # stopped after its first checkpoint, as planned: not a failure
        pass
    except SystemExit as exit_request:
        completed = exit_request.code in (None, 0)
        raise
    except BaseException as error:  # the program's own traceback, without the harness's frames
        tracer.record_error(error)
        traceback.print_exception(type(error), error, _user_frames(error.__traceback__))
        raise SystemExit(1) from None
    finally:
        stop()
        tracer.record_modules()
        # what fails after this (torch's teardown at exit) is not the program's failure
        if completed:
            tracer.record("end", "harness", [], kind="end")
        tracer.close()


if __name__ == "__main__":
    main(sys.argv[1:])
