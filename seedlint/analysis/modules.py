"""Where a project's modules are: import roots, module names, and the files dotted names resolve to.

Light on purpose (no parser): a run whose files all come from the cache needs only this.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from seedlint.files import MAIN_BLOCK

# Where a module name resolved, and what its file held: (path, content hash), or None when no file.
Resolution = tuple[str, str] | None
# A read of "the project's files that name a function" (`entries`): `CALLERS` + the name resolves
# to a hash of those files and their contents, so a file that starts calling the function counts.
CALLERS = "<callers of>:"
# What `os.stat` says of a file (modification and change times, size, inode): a hash recorded with
# its stamp is reused, the file not read, while the stamp holds. Only a file left alone for this
# long is stamped: a write in the same tick of the file system's clock keeps the times.
Stamp = tuple[int, int, int, int]
_SETTLED_NS = 2_000_000_000
# Windows' `st_ctime` is the creation time, which a write does not move: there, files are read.
_STAMPS_HOLD = os.name != "nt"
# The bytes of files a finder keeps (a tree's source, 120 MB, would be kept otherwise, by every
# process): beyond them, the files read least recently are read again when asked.
_KEPT_BYTES = 4_000_000
# The first part of the name of a module that its own import root finds but another root's module
# of the same name hides from the rest of the project (two script folders, each with a `utils.py`):
# `__root_<hash of the root>__.utils`.
_ROOT_TAG = "__root_{}__"
_SHOWN_TAG = re.compile(r"\b__root_[0-9a-f]{12}__\.")
# A word of source text: letters, digits and underscores, and any non-ASCII character (the bytes of
# its UTF-8 encoding); everything else is a space between words.
_WORD = re.compile(rb"[A-Za-z0-9_\x80-\xff]+")
_WORDS_ONLY = bytes(byte if _WORD.fullmatch(bytes([byte])) else ord(" ") for byte in range(256))


def shown_name(qualified: str) -> str:
    """A dotted name as a message shows it: without the tag of its module's import root, nor the
    folders above it that no import could name (`my-repo+v2.Learner.fit` is `Learner.fit`)."""
    parts = _SHOWN_TAG.sub("", qualified).split(".")
    while len(parts) > 1 and not parts[0].isidentifier():
        parts.pop(0)
    return ".".join(parts)


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class ModuleFinder:
    """Resolves dotted module names to files under the import roots; each file hashed once."""

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
        self._files: dict[str, str | None] = {}  # module name -> its file's absolute path
        self._resolutions: dict[str, Resolution] = {}
        self._hashes: dict[str, str] = {}  # file -> the hash of its bytes, as read in this run
        # file -> its bytes, as read from disk in this run, the least recently read first
        self._bytes: dict[str, bytes] = {}
        self._kept_bytes = 0  # the bytes in `_bytes`
        self._read: dict[str, None] = {}  # the files read from disk, in order
        self._listings: dict[str, frozenset[str]] = {}  # folder -> its entries, as listed this run
        self._by_first: dict[str, list[str]] | None = None  # a name's first part -> roots with it
        self._tagged: dict[str, str] | None = None  # a root's tag -> the root
        self._tagged_folders: dict[str, str] = {}  # a folder's tag -> the folder, as tagged
        self._folders_tagged = False  # whether every folder of `project_files` is tagged
        # (name, root, script folder) -> `localise`
        self._localised: dict[tuple[str, str, str | None], str] = {}
        # the project's files, where the callers of a function are looked for (`entries`)
        self.project_files: list[Path] = []
        self._project_python: list[tuple[str, str]] | None = None  # `_python_files`
        self._words_index: dict[bytes, list[int]] | None = None  # `_words`
        self._everything_hash: str | None = None  # `_everything`
        self._imports: dict[tuple[str, int, int], list[str]] = {}  # (file, text) -> `imports_of`
        # From earlier runs (the cache): file -> (its stamp, its hash), and name -> [(the hash of
        # the project's files, what `CALLERS` + name resolved to among them)], the latest first (a
        # run over the tree and one over a file see other project files). This run's, to keep:
        self.stamps: dict[str, tuple[Stamp, str]] = {}
        self.namings: dict[str, list[tuple[str, str]]] = {}
        self.stamped: dict[str, tuple[Stamp, str]] = {}
        self.named: dict[str, tuple[str, str]] = {}

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
        (raises OSError). Read once, unless `_KEPT_BYTES` of other files were read since (its hash
        is the first read's: a file that changes during the run is checked again by the next)."""
        absolute = os.path.abspath(path)
        data = self.unsaved.get(absolute)
        if data:
            return data
        data = self._bytes.pop(absolute, None)
        if data is None:
            data = Path(path).read_bytes()
            self._read[absolute] = None
            self._kept_bytes += len(data)
            while self._kept_bytes > _KEPT_BYTES and self._bytes:
                self._kept_bytes -= len(self._bytes.pop(next(iter(self._bytes))))
        self._bytes[absolute] = data  # the most recently read
        return data

    def content(self, path: Path | str, status: os.stat_result | None = None) -> str:
        """The hash of a file's bytes (an editor's unsaved ones win): kept from an earlier run while
        the file's stamp holds, else read (raises OSError)."""
        absolute = os.path.abspath(path)
        if absolute in self._hashes:
            return self._hashes[absolute]
        if absolute in self.unsaved:
            return self.file_hash(absolute, self.unsaved[absolute])
        status = status or os.stat(absolute)
        stamp = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)
        known = self.stamps.get(absolute)
        if known is not None and known[0] == stamp:
            digest = self._hashes[absolute] = known[1]
        else:
            digest = self.file_hash(absolute, self.read_bytes(absolute))
        if _STAMPS_HOLD and time.time_ns() - max(stamp[:2]) > _SETTLED_NS:
            self.stamped[absolute] = (stamp, digest)
        return digest

    def read_files(self) -> list[Path]:
        """The files this run read from the disk."""
        return [Path(path) for path in self._read]

    def module_name(self, path: Path | str) -> str:
        """The dotted name of a project file, as its own import root's modules import it."""
        return self.localise(module_name(Path(path), self.known_roots), self.import_root(path))

    def localise(self, name: str, root: str, folder: str | None = None) -> str:
        """The module a module under the import root `root` (in `folder`) finds by the absolute
        name `name`: `name`, or where `root` has a module of that name that another root's hides
        from the rest of the project, that module's tagged name. A script's own folder comes first
        in `sys.path`: `from utils import set_seed` in `a/train.py` is `a/utils.py`, even where
        the project's `utils` is `b/utils.py`, and `from trainer import Trainer` in a script of a
        package folder (`python SGAN/main.py`) is that folder's `trainer.py`."""
        key = (name, root, folder)
        found = self._localised.get(key)
        if found is None:
            found = name
            parts = name.split(".")
            beside = (
                folder is not None
                and folder != root
                and self.holds(folder, parts[0])
                and self._find_under([folder], parts) is not None
            )
            if beside:
                found = f"{self._tag(folder)}.{name}"
            else:
                # the project's resolution of `name` may be another root's module, whichever root
                # holds one first
                if root in self._holding(parts[0]):
                    own = self._find_under([root], parts)
                    if own is not None and own != (self.resolution(name) or ("",))[0]:
                        found = f"{self._tag(root)}.{name}"
            self._localised[key] = found
        return found

    def imports_of(self, path: Path | str, data: bytes) -> list[str]:
        """The module names a project file's import statements may load (`imported_modules`), as
        it finds them from its import root and its own folder (once per file and text)."""
        absolute = os.path.abspath(path)
        key = (absolute, len(data), hash(data))
        found = self._imports.get(key)
        if found is None:
            root = self.import_root(path)
            folder = script_folder(path, data)
            names = imported_modules(data, self.module_name(path), Path(path).name == "__init__.py")
            found = self._imports[key] = [self.localise(name, root, folder) for name in names]
        return found

    def _tag(self, folder: str) -> str:
        tag = _ROOT_TAG.format(content_hash(folder.encode())[:12])
        self._tagged_folders[tag] = folder
        return tag

    def _tagged_root(self, first: str) -> str | None:
        """The root (or script folder) a tagged name's first part names (None: not a tag of this
        finder's)."""
        if not (first.startswith("__root_") and first.endswith("__")):
            return None
        if self._tagged is None:
            self._tagged = {self._tag(root): root for root in self.roots}
        found = self._tagged.get(first) or self._tagged_folders.get(first)
        if found is None and not self._folders_tagged:
            # a name an earlier run tagged (from the cache): any folder of the project's files
            self._folders_tagged = True
            for path in self.project_files:
                self._tag(os.path.dirname(os.path.abspath(path)))
            found = self._tagged_folders.get(first)
        return found

    def import_root(self, path: Path | str) -> str:
        """The import root of a file: the first directory up from it that is not a package."""
        return _import_root(os.path.dirname(os.path.abspath(path)), self.known_roots)

    def read(self, name: str) -> tuple[Path, bytes] | None:
        """The path and bytes of the module a dotted name resolves to."""
        self.resolution(name)
        found = self._files[name]
        if found is None:
            return None
        try:
            return Path(found), self.read_bytes(found)
        except OSError:
            return None

    def resolution(self, name: str) -> Resolution:
        """Where a module name resolves, and the hash of that file's bytes (for `CALLERS` + a
        name: the project's files that contain the name, with their hashes)."""
        if name.startswith(CALLERS):
            if name not in self._resolutions:
                self._resolutions[name] = ("", self._naming(name[len(CALLERS) :]))
            return self._resolutions[name]
        if name not in self._files:
            found = self._files[name] = self._find(name)
            self._resolutions[name] = (found, self.content(found)) if found else None
        return self._resolutions[name]

    def _naming(self, name: str) -> str:
        """A hash of the project's Python files that name `name`, and of their bytes:
        kept from an earlier run while none of those files changed, else read."""
        everything = self._everything()
        value = dict(self.namings.get(name, ())).get(everything)
        if value is None:
            found = [f"{path}:{digest}" for path, digest in self._naming_files(name)]
            value = content_hash("\n".join(sorted(found)).encode())
        self.named[name] = (everything, value)
        return value

    def files_naming(self, name: str) -> list[str]:
        """The project's Python files that name `name` (a word: where it stands as one, not inside
        a longer name; other text, such as `.generator.`: where it appears)."""
        return [path for path, _ in self._naming_files(name)]

    def _naming_files(self, name: str) -> list[tuple[str, str]]:
        text = name.encode()
        words = _WORD.findall(text)
        if not words:
            return []
        files = self._python_files()
        holders = set.intersection(*(set(self._words().get(word, ())) for word in words))
        found = [files[position] for position in sorted(holders)]
        if words == [text]:
            return found
        kept = []
        for path, digest in found:
            try:
                if text in self.read_bytes(path):
                    kept.append((path, digest))
            except OSError:
                continue
        return kept

    def _words(self) -> dict[bytes, list[int]]:
        """Each word of the project's Python files -> the positions in `_python_files` of the files
        holding it: every file read once per run, however many names are looked for."""
        if self._words_index is None:
            self._words_index = {}
            for position, (path, _) in enumerate(self._python_files()):
                try:
                    data = self.read_bytes(path)
                except OSError:
                    continue
                for word in set(data.translate(_WORDS_ONLY).split()):
                    self._words_index.setdefault(word, []).append(position)
        return self._words_index

    def _everything(self) -> str:
        """A hash of the project's Python files and their bytes (once per run)."""
        if self._everything_hash is None:
            self._everything_hash = content_hash(
                "\n".join(f"{path}:{digest}" for path, digest in self._python_files()).encode()
            )
        return self._everything_hash

    def _python_files(self) -> list[tuple[str, str]]:
        """(absolute path, hash of its bytes) of each of the project's readable Python files, in
        order (found once per run, however many names are looked for)."""
        if self._project_python is None:
            self._project_python = []
            for path in self.project_files:
                if not str(path).endswith(".py"):
                    continue
                absolute = os.path.abspath(path)
                try:
                    self._project_python.append((absolute, self.content(absolute)))
                except OSError:
                    continue
        return self._project_python

    def _find(self, name: str) -> str | None:
        """The absolute path of the file a module name resolves to under the roots (its bytes'
        hash known to this run)."""
        parts = name.split(".")
        tagged = self._tagged_root(parts[0])
        if tagged is not None:
            return self._find_under([tagged], parts[1:]) if parts[1:] else None
        # an editor's unsaved files need not be on the disk: every root is tried for them
        return self._find_under(self.roots if self.unsaved else self._holding(parts[0]), parts)

    def _find_under(self, roots: Iterable[str], parts: list[str]) -> str | None:
        """The absolute path of the file a module name's parts resolve to under `roots`, the
        first that has it."""
        relative = os.path.join(*parts)
        for root in roots:
            base = os.path.join(root, relative)
            listed = self._listed(root, parts)
            # a package before a module of the same name, as Python's import system does
            for candidate in (os.path.join(base, "__init__.py"), base + ".py"):
                if candidate in self.unsaved or (listed and candidate in self._hashes):
                    return candidate
                if not listed:
                    continue
                try:
                    status = os.stat(candidate)
                except OSError:
                    continue
                if not stat.S_ISREG(status.st_mode):
                    continue
                try:
                    self.content(candidate, status)
                except OSError:
                    return None
                return candidate
        return None

    def holds(self, directory: str, name: str) -> bool:
        """Whether a folder's listing (read once per run) has the module `name`: `name.py` or a
        `name` folder."""
        entries = self._listing(directory)
        return name in entries or f"{name}.py" in entries

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


def script_folder(path: Path | str, data: bytes) -> str | None:
    """The folder a script (a file with a `__main__` block) is run from: first in `sys.path`, so
    its bare imports find the modules beside it even in a package folder (`python SGAN/main.py`).
    None for other files: a package's modules import as its import root does."""
    return os.path.dirname(os.path.abspath(path)) if MAIN_BLOCK.search(data) else None


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
    rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w, \t]+|\*))"
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
