"""Where a project's modules are: import roots, module names, and the files dotted names resolve to.

Light on purpose (no parser): a run whose files all come from the cache needs only this.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable

# Where a module name resolved, and what its file held: (path, content hash), or None when no file.
Resolution = tuple[str, str] | None


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class ModuleFinder:
    """Resolves dotted module names to files under the import roots; each file read once."""

    def __init__(self, roots: Iterable[Path]) -> None:
        self.roots = list(dict.fromkeys(os.path.abspath(root) for root in roots))
        self._files: dict[str, tuple[Path, bytes] | None] = {}
        self._resolutions: dict[str, Resolution] = {}

    @classmethod
    def for_files(cls, files: Iterable[Path]) -> ModuleFinder:
        """The finder for a run over `files`: their import roots, and the current directory."""
        return cls([*(import_root(file) for file in files), Path.cwd()])

    def read(self, name: str) -> tuple[Path, bytes] | None:
        """The path and bytes of the module a dotted name resolves to."""
        self.resolution(name)
        return self._files[name]

    def resolution(self, name: str) -> Resolution:
        """Where a module name resolves, and the hash of that file's bytes."""
        if name not in self._files:
            found = self._files[name] = self._find(name)
            self._resolutions[name] = (os.path.abspath(found[0]), content_hash(found[1])) if found else None
        return self._resolutions[name]

    def _find(self, name: str) -> tuple[Path, bytes] | None:
        relative = os.path.join(*name.split("."))
        for root in self.roots:
            base = os.path.join(root, relative)
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(candidate):
                    try:
                        with open(candidate, "rb") as handle:
                            return Path(candidate), handle.read()
                    except OSError:
                        return None
        return None


def import_root(path: Path) -> Path:
    """The directory a file's top-level package (or the file itself, as a script) is imported from."""
    return Path(_import_root(os.path.dirname(os.path.abspath(path))))


def _import_root(directory: str) -> str:
    """The first directory up from `directory` that is not a package."""
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return directory


def neighbourhood(files: Iterable[Path]) -> list[Path]:
    """The linted files, and the modules beside each script (its helpers are often not linted with it)."""
    found = dict.fromkeys(file.absolute() for file in files)
    scripts = {file.parent for file in found if import_root(file) == file.parent}
    for directory in sorted(scripts):
        found.update(dict.fromkeys(directory.glob("*.py")))
    return list(found)


def module_name(path: Path) -> str:
    """The dotted module name of a file, from the packages (`__init__.py`) around it."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, _import_root(os.path.dirname(absolute)))
    parts = os.path.splitext(relative)[0].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or Path(absolute).stem
