"""Files on disk: how a path is shown to a user, which files are tests, and replacing a file's
content in one step."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

_TEST_FILE = re.compile(r"(^test_.*|.*_test|^conftest)\.py$")
_TEST_FOLDERS = frozenset({"test", "tests", "testing"})
MAIN_BLOCK = re.compile(rb"__name__\s*==\s*['\"]__main__['\"]")
# What a test runner collects or a test imports.
_COLLECTED = re.compile(
    rb"^\s*(def test|class Test|(import|from) (unittest|pytest)\b)", re.MULTILINE
)


def is_test(path: Path, data: bytes | str | None = None) -> bool:
    """Whether a file is a test (`test_*.py`, `*_test.py`, `conftest.py`, or under a `test`,
    `tests` or `testing` folder of the project): its seeding, or its lack, serves its checks.
    A file named like a test whose bytes (when given) hold nothing a test runner collects
    (`def test*`, `class Test*`, unittest, pytest) is a program, run by its `__main__` block or
    its top level (`vae_train_test.py`)."""
    # folders named from the working directory (the project's root), not above it
    folders = Path(display_path(path.absolute())).parts[:-1]
    if _TEST_FOLDERS.intersection(folders):
        return True
    if not _TEST_FILE.match(path.name):
        return False
    if data is None:
        return True
    if isinstance(data, str):
        data = data.encode()
    return path.name == "conftest.py" or bool(_COLLECTED.search(data))


def relative_path(path: Path, cwd: Path) -> Path | None:
    """`path` relative to `cwd`, or None when it lies outside it."""
    if not path.is_absolute():
        return path
    try:
        return path.relative_to(cwd)
    except ValueError:
        pass
    try:  # through symbolic links (a link that loops cannot be resolved)
        return path.resolve().relative_to(cwd.resolve())
    except (ValueError, OSError, RuntimeError):
        return None


def display_path(path: Path, cwd: Path | None = None) -> str:
    """The path to show a user: relative to `cwd` (the working directory) when under it, else as
    given; forward slashes."""
    shown = relative_path(path, cwd or Path.cwd())
    return (path if shown is None else shown).as_posix()


def absolute_path(path: Path, cwd: Path) -> Path:
    return path if path.is_absolute() else cwd / path


def replace_atomically(path: Path, data: bytes, mode: int, suffix: str = ".tmp") -> None:
    """Replace a file's content with `data` in one step, as a file of `mode`: written to a temporary
    file beside it (`.<name>.<random><suffix>`), then moved over it. A kill leaves the old or the
    new file, never a torn one."""
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=suffix, dir=path.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
