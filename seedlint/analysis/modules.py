"""Where a project's modules are: import roots, module names, and the files dotted names resolve to.

Light on purpose (no parser): a run whose files all come from the cache needs only this.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

# Where a module name resolved, and what its file held: (path, content hash), or None when no file.
Resolution = tuple[str, str] | None
# A read of "the project's files that name a function" (`entries`): `CALLERS` + the name resolves
# to a hash of those files and their contents, so a file that starts calling the function counts.
CALLERS = "<callers of>:"


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class ModuleFinder:
    """Resolves dotted module names to files under the import roots; each file read once."""

    def __init__(
        self,
        roots: Iterable[Path],
        known_roots: dict[str, str] | None = None,
        unsaved: Mapping[str, bytes] | None = None,
    ) -> None:
        self.roots = list(dict.fromkeys(os.path.abspath(root) for root in roots))
        # directory -> its import root
        self.known_roots = known_roots if known_roots is not None else {}
        # absolute path -> an editor's unsaved bytes, which win over the disk
        self.unsaved = unsaved or {}
        self._files: dict[str, tuple[str, bytes] | None] = {}
        self._resolutions: dict[str, Resolution] = {}
        self._hashes: dict[str, str] = {}  # file -> the hash of its bytes, as read in this run
        self._bytes: dict[str, bytes] = {}  # file -> its bytes, as read from disk in this run
        self._listings: dict[str, frozenset[str]] = {}  # folder -> its entries, as listed this run
        self._by_first: dict[str, list[str]] | None = None  # a name's first part -> roots with it
        # the project's files, where the callers of a function are looked for (`entries`)
        self.project_files: list[Path] = []
        self._project_python: list[tuple[str, bytes, str]] | None = None  # `_python_files`

    @classmethod
    def for_files(
        cls,
        files: Iterable[Path],
        unsaved: Mapping[str, bytes] | None = None,
        folders: Iterable[Path] = (),
    ) -> ModuleFinder:
        """The finder for a run over `files`: their import roots, the workspace folders, the current
        directory."""
        known: dict[str, str] = {}
        roots = dict.fromkeys(
            _import_root(os.path.dirname(os.path.abspath(file)), known) for file in files
        )
        return cls([*map(Path, roots), *folders, Path.cwd()], known, unsaved)

    def file_hash(self, path: Path | str, data: bytes) -> str:
        """The hash of a file's bytes (`data`, unless this run hashed the file already)."""
        absolute = path if isinstance(path, str) and os.path.isabs(path) else os.path.abspath(path)
        if absolute not in self._hashes:
            self._hashes[absolute] = content_hash(data)
        return self._hashes[absolute]

    def read_bytes(self, path: Path) -> bytes:
        """A file's bytes: an editor's unsaved ones, as this run read them, else from the disk
        (raises OSError); read once per run."""
        absolute = os.path.abspath(path)
        data = self.unsaved.get(absolute) or self._bytes.get(absolute)
        if data is None:
            data = self._bytes[absolute] = Path(path).read_bytes()
        return data

    def module_name(self, path: Path) -> str:
        return module_name(path, self.known_roots)

    def read(self, name: str) -> tuple[Path, bytes] | None:
        """The path and bytes of the module a dotted name resolves to."""
        self.resolution(name)
        found = self._files[name]
        return (Path(found[0]), found[1]) if found is not None else None

    def resolution(self, name: str) -> Resolution:
        """Where a module name resolves, and the hash of that file's bytes (for `CALLERS` + a
        name: the project's files that contain the name, with their hashes)."""
        if name.startswith(CALLERS):
            if name not in self._resolutions:
                self._resolutions[name] = ("", self._naming(name[len(CALLERS) :]))
            return self._resolutions[name]
        if name not in self._files:
            found = self._files[name] = self._find(name)
            self._resolutions[name] = (found[0], self.file_hash(*found)) if found else None
        return self._resolutions[name]

    def _naming(self, name: str) -> str:
        """A hash of the project's Python files whose text contains `name`, and of their bytes."""
        word = name.encode()
        found = [f"{path}:{digest}" for path, data, digest in self._python_files() if word in data]
        return content_hash("\n".join(sorted(found)).encode())

    def _python_files(self) -> list[tuple[str, bytes, str]]:
        """(absolute path, bytes, their hash) of each of the project's readable Python files (read
        once per run, however many names are looked for)."""
        if self._project_python is None:
            self._project_python = []
            for path in self.project_files:
                if not str(path).endswith(".py"):
                    continue
                try:
                    data = self.read_bytes(Path(path))
                except OSError:
                    continue
                absolute = os.path.abspath(path)
                self._project_python.append((absolute, data, self.file_hash(absolute, data)))
        return self._project_python

    def _find(self, name: str) -> tuple[str, bytes] | None:
        """The absolute path and bytes of the file a module name resolves to under the roots."""
        parts = name.split(".")
        relative = os.path.join(*parts)
        # an editor's unsaved files need not be on the disk: every root is tried for them
        for root in self.roots if self.unsaved else self._holding(parts[0]):
            base = os.path.join(root, relative)
            listed = self._listed(root, parts)
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                if candidate in self.unsaved:
                    return candidate, self.unsaved[candidate]
                if listed and candidate in self._bytes:  # read by this run already
                    return candidate, self._bytes[candidate]
                if listed and os.path.isfile(candidate):
                    try:
                        with open(candidate, "rb") as handle:
                            data = self._bytes[candidate] = handle.read()
                            return candidate, data
                    except OSError:
                        return None
        return None

    def _listed(self, root: str, parts: list[str]) -> bool:
        """Whether the folders' listings under `root` hold the module's path (its folders, then
        `<last>.py` or a `<last>` folder): one listing per folder and run, so a name is ruled out
        under each root without a `stat` of its candidate files."""
        directory = root
        for position, part in enumerate(parts):
            entries = self._listing(directory)
            last = position == len(parts) - 1
            if part not in entries and not (last and f"{part}.py" in entries):
                return False
            directory = os.path.join(directory, part)
        return True

    def _holding(self, first: str) -> list[str]:
        """The roots, in order, whose listing has `first` (a folder, or `first.py`)."""
        if self._by_first is None:
            self._by_first = {}
            for root in self.roots:
                for entry in self._listing(root):
                    holders = self._by_first.setdefault(entry.removesuffix(".py"), [])
                    if not holders or holders[-1] != root:
                        holders.append(root)
        return self._by_first.get(first, [])

    def _listing(self, directory: str) -> frozenset[str]:
        if directory not in self._listings:
            try:
                self._listings[directory] = frozenset(os.listdir(directory))
            except OSError:
                self._listings[directory] = frozenset()
        return self._listings[directory]


def import_root(path: Path, known: dict[str, str] | None = None) -> Path:
    """The directory a file's top-level package (or the file itself, as a script) is imported
    from."""
    return Path(_import_root(os.path.dirname(os.path.abspath(path)), known))


def _import_root(directory: str, known: dict[str, str] | None) -> str:
    """The first directory up from `directory` that is not a package (`known`: the answers so
    far)."""
    if known is not None and directory in known:
        return known[directory]
    root = directory
    while os.path.isfile(os.path.join(root, "__init__.py")):
        parent = os.path.dirname(root)
        if parent == root:
            break
        root = parent
    if known is not None:
        known[directory] = root
    return root


def neighbourhood(files: Iterable[Path], known: dict[str, str] | None = None) -> list[Path]:
    """The linted files, and the modules beside each script (its helpers are often not linted with
    it)."""
    found = dict.fromkeys(os.path.abspath(file) for file in files)
    directories = {os.path.dirname(file) for file in found}
    scripts = {
        directory for directory in directories if _import_root(directory, known) == directory
    }
    for directory in sorted(scripts):
        found.update(dict.fromkeys(str(path) for path in Path(directory).glob("*.py")))
    return [Path(file) for file in found]


_IMPORT = re.compile(
    # `from x import a, b` (or `(..)`), or `import x, y`
    rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w, \t]+))"
    rb"|import[ \t]+([\w., \t]+))",
    re.MULTILINE,
)


def imported_modules(data: bytes, name: str, is_package: bool) -> list[str]:
    """The dotted names a module's import statements may load (`from a import b`: `a` and `a.b`),
    read from its bytes without parsing (a name that is not a module is not found: no harm)."""
    found: dict[str, None] = {}
    for match in _IMPORT.finditer(data):
        dots, source, grouped, names, plain = (
            group.decode("utf-8", "replace") if group else "" for group in match.groups()
        )
        names = grouped or names
        if plain:
            found.update(
                dict.fromkeys(part.split()[0] for part in plain.split(",") if part.split())
            )
            continue
        if dots:  # relative: from the module's package, one level up per extra dot
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - (len(dots) - 1)] if len(dots) > 1 else base
            source = ".".join(part for part in (*base, source) if part)
        if source:
            found[source] = None
            for part in re.split(r"[,\s\\()]+", names):
                if part.isidentifier() and part != "as":
                    found[f"{source}.{part}"] = None
    return list(found)


def module_name(path: Path, known: dict[str, str] | None = None) -> str:
    """The dotted module name of a file, from the packages (`__init__.py`) around it."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, _import_root(os.path.dirname(absolute), known))
    parts = os.path.splitext(relative)[0].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or Path(absolute).stem
