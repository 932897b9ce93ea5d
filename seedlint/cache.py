"""Where the persistent cache lives and how it is read, written and cleaned, as ruff's
`.ruff_cache`.

The cache directory is `--cache-dir`, else `$SEEDLINT_CACHE_DIR`, else `.seedlint_cache/` at the
project root (tagged with `CACHEDIR.TAG` and a `.gitignore` of `*`), else, when the project cannot
be written to, a directory of the user's cache. Inside, one file per seedlint version and run
configuration holds the project facts. It is replaced atomically (a temporary file, then
`os.replace`), so two runs sharing it, or a run killed while writing, leave either the old or the
new model, never a torn one; a file that cannot be read is treated as empty.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from seedlint.files import replace_atomically

DIRECTORY_NAME = ".seedlint_cache"
ENVIRONMENT_VARIABLE = "SEEDLINT_CACHE_DIR"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by seedlint.\n"
    "# For information about cache directory tags, see: https://bford.info/cachedir/\n"
)
_STALE_TEMPORARY_SECONDS = 3600


def code_version() -> str:
    """A hash of seedlint's own source: a cache written by other code (an edited checkout) is not
    reused."""
    package = Path(__file__).parent
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_directory(project_root: Path, given: Path | None = None) -> Path | None:
    """The directory to cache in, created and tagged; None when nowhere can be written."""
    if given is None and os.environ.get(ENVIRONMENT_VARIABLE):
        given = Path(os.environ[ENVIRONMENT_VARIABLE])
    candidates = (
        [given]
        if given is not None
        else [project_root / DIRECTORY_NAME, _user_directory(project_root)]
    )
    for candidate in candidates:
        if _prepare(candidate):
            return candidate
    return None


def _user_directory(project_root: Path) -> Path:
    """A per-project directory in the user's cache (`~/.cache/seedlint/<hash of the project's
    path>`)."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = hashlib.blake2b(str(project_root.absolute()).encode(), digest_size=8).hexdigest()
    return base / "seedlint" / digest


def _prepare(directory: Path) -> bool:
    """Create the directory with its tag and `.gitignore`; False when it cannot be written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, content in (
            ("CACHEDIR.TAG", _TAG),
            (".gitignore", "# Automatically created by seedlint.\n*\n"),
        ):
            if not (directory / name).is_file():
                replace_atomically(directory / name, content.encode(), 0o666 & ~_umask())
        probe = tempfile.NamedTemporaryFile(dir=directory, prefix=".probe-", delete=True)
        probe.close()
    except OSError:
        return False
    return True


class Store:
    """One value in one file of the cache directory: pickled, or with `marshal` (plain data only:
    tuples, dicts, strings, numbers; many times faster to load)."""

    def __init__(self, path: Path, codec: Any = pickle) -> None:
        self.path = path
        self.codec = codec

    @classmethod
    def for_run(cls, directory: Path, version: str, key: Any) -> Store:
        digest = hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()
        return cls(directory / version / f"{digest}.pickle")

    def part(self, name: str, codec: Any = pickle) -> Store:
        """Another file of the same run, loaded on its own (what only some runs need)."""
        return Store(self.path.with_name(f"{self.path.stem}.{name}{self.path.suffix}"), codec)

    def age(self) -> float:
        """Seconds since the file was written (infinite when there is none)."""
        try:
            return time.time() - self.path.stat().st_mtime
        except OSError:
            return float("inf")

    def load(self) -> Any:
        """The stored value, or None when there is none or it cannot be read (it is then
        rebuilt)."""
        try:
            with self.path.open("rb") as handle:
                return self.codec.load(handle)
        except Exception:  # noqa: BLE001 - a missing, torn or foreign file is an empty cache
            return None

    def save(self, value: Any) -> bool:
        """Replace the stored value atomically; False when the cache cannot be written (the run goes
        on)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.codec is pickle:
                data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            else:
                data = marshal.dumps(value)
            # as a plain `open` would (mkstemp: private)
            replace_atomically(self.path, data, 0o666 & ~_umask())
            _remove_stale_temporaries(self.path.parent)
        except OSError:
            return False
        return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove_stale_temporaries(directory: Path) -> None:
    """Temporary files left by a run killed while writing."""
    now = time.time()
    for leftover in directory.glob(".*.tmp"):
        try:
            if now - leftover.stat().st_mtime > _STALE_TEMPORARY_SECONDS:
                leftover.unlink()
        except OSError:
            continue


def clean(directories: list[Path]) -> list[Path]:
    """Remove cache directories (only ones seedlint tagged); the ones removed."""
    removed = []
    for directory in directories:
        if (directory / "CACHEDIR.TAG").is_file():
            shutil.rmtree(directory, ignore_errors=True)
            removed.append(directory)
    return removed
