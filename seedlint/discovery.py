"""Which files to lint: walk the given paths, skip excluded and git-ignored ones."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from seedlint.config import Config, ConfigResolver
from seedlint.selection import matches_any

if TYPE_CHECKING:  # imported where a .gitignore is read
    import pathspec

DEFAULT_EXCLUDES = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
    # a project template's folder (cookiecutter, copier): its files are Jinja, not Python
    "*{{*}}*",
)
PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")


class MissingPath(Exception):
    """A path given on the command line does not exist."""


@dataclass
class _Ignore:
    base: Path
    spec: pathspec.PathSpec


def excluded(path: Path, config: Config) -> bool:
    """Whether config `exclude`/`extend-exclude` (or the default excludes) cover a path."""
    return _exclusion(config)(path)


class _Exclusion:
    """A config's exclude patterns, with the plain names (`build`, `.venv`) checked by set
    lookup."""

    def __init__(self, config: Config) -> None:
        patterns = (
            list(DEFAULT_EXCLUDES if config.exclude is None else config.exclude)
            + config.extend_exclude
        )
        self.root = config.root
        self.prefix = os.path.join(os.path.abspath(config.root), "")
        self.names = {
            p.rstrip("/") for p in patterns if not any(c in p.rstrip("/") for c in "*?[/")
        }
        globs = [p for p in patterns if p.rstrip("/") not in self.names]
        # `*..*` without a slash matches a spelling of the path only if it matches the whole
        # absolute path (every other spelling is a part of it): one match per path
        self.anywhere = [p for p in globs if p.startswith("*") and p.endswith("*") and "/" not in p]
        self.globs = [p for p in globs if p not in self.anywhere]

    def __call__(self, path: Path, absolute: str | None = None) -> bool:
        # A plain name matches the path's name, or the first part of its path below the root.
        if path.name in self.names:
            return True
        absolute = absolute or os.path.abspath(path)
        if (
            absolute.startswith(self.prefix)
            and absolute[len(self.prefix) :].split(os.sep, 1)[0] in self.names
        ):
            return True
        if self.anywhere:
            raw = os.fspath(path)
            whole = raw if os.path.isabs(raw) else os.path.join(os.getcwd(), raw)
            whole = whole.replace(os.sep, "/")
            if any(fnmatch.fnmatchcase(whole, glob) for glob in self.anywhere):
                return True
        return bool(self.globs) and matches_any(path, self.root, self.globs)


_EXCLUSIONS: dict[int, tuple[Config, _Exclusion]] = {}


def _exclusion(config: Config) -> _Exclusion:
    known = _EXCLUSIONS.get(id(config))
    if known is None or known[0] is not config:
        known = _EXCLUSIONS[id(config)] = (config, _Exclusion(config))
    return known[1]


def _gitignore(directory: Path) -> _Ignore | None:
    file = directory / ".gitignore"
    try:  # a folder that cannot be read (`/proc/1/fdinfo`) is warned of when it is listed
        if not file.is_file():
            return None
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    import pathspec

    return _Ignore(directory, pathspec.GitIgnoreSpec.from_lines(lines))


def _git_ignored(path: Path, is_dir: bool, ignores: list[_Ignore]) -> bool:
    for ignore in ignores:
        relative = path.relative_to(ignore.base).as_posix() + ("/" if is_dir else "")
        if ignore.spec.match_file(relative):
            return True
    return False


def _ancestor_ignores(directory: Path) -> list[_Ignore]:
    """The .gitignore files above a directory, up to the repository root."""
    ignores = []
    current = directory.parent
    while True:
        found = _gitignore(current)
        if found:
            ignores.append(found)
        if (current / ".git").exists() or current.parent == current:
            return ignores
        current = current.parent


def collect_files(
    paths: list[Path],
    resolver: ConfigResolver,
    force_exclude: bool,
    warn: Callable[[str], None] = lambda message: None,
) -> Iterator[Path]:
    """Files to lint, in a stable order. Explicit files are kept unless --force-exclude. What the
    walk cannot follow (a symbolic link that loops or points nowhere, a directory it may not list)
    is passed to `warn`; symbolic links to directories are not followed below the given paths (as
    ruff and ripgrep), so a walk never loops or leaves the tree."""
    seen: set[Path] = set()
    for given in paths:
        if not given.exists():
            raise MissingPath(f"{given}: No such file or directory")
        if given.is_file():
            if force_exclude and excluded(given, resolver.for_path(given)):
                continue
            if given not in seen:
                seen.add(given)
                yield given
            continue
        if (
            force_exclude
            and given.absolute() != Path.cwd()
            and excluded(given, resolver.for_path(given))
        ):
            continue
        found = False
        for file in _walk(given, resolver, warn):
            found = True
            if file not in seen:
                seen.add(file)
                yield file
        if not found:
            warn(f"{given}: no Python files found (all excluded or git-ignored, or none there)")


def _walk(root: Path, resolver: ConfigResolver, warn: Callable[[str], None]) -> Iterator[Path]:
    """The files under `root` in path order (a folder's files and subfolders by name, each subfolder
    walked where its name sorts)."""
    start = _gitignore(root.absolute())
    yield from _walk_directory(
        root, _ancestor_ignores(root.absolute()) + ([start] if start else []), resolver, warn
    )


def _walk_directory(
    directory: Path, ignores: list[_Ignore], resolver: ConfigResolver, warn: Callable[[str], None]
) -> Iterator[Path]:
    try:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        warn(f"{directory}: cannot list the directory ({error.strerror or error})")
        return
    config = resolver.for_path(directory)
    exclusion = _exclusion(config)
    absolute_directory = os.path.abspath(directory)
    for entry in entries:
        python = entry.name.endswith(PYTHON_SUFFIXES)
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            linked_dir = not is_dir and entry.is_symlink() and entry.is_dir()
        except OSError as error:  # a link that loops
            if python:
                warn(
                    f"{Path(entry.path)}: skipped, a symbolic link that cannot be followed "
                    f"({error.strerror or error})"
                )
            continue
        if linked_dir or not (is_dir or python):  # only folders and Python files are of interest
            continue
        path = Path(entry.path)
        absolute = os.path.join(absolute_directory, entry.name)
        if (ignores and _git_ignored(Path(absolute), is_dir, ignores)) or exclusion(path, absolute):
            continue
        if is_dir:
            own = _gitignore(Path(absolute))
            yield from _walk_directory(path, ignores + [own] if own else ignores, resolver, warn)
        else:
            if entry.is_symlink() and not os.path.exists(path):
                warn(f"{path}: skipped, a symbolic link to nothing")
            elif not entry.is_file():  # a named pipe would block the read for ever
                warn(f"{path}: skipped, not a regular file")
            else:
                yield path
