"""Configuration: `[tool.seedlint]` in pyproject.toml or a `seedlint.toml`, as ruff does it.

The closest config file walking up from each linted file wins; files are not merged.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from seedlint.analysis import catalog
from seedlint.source import DEFAULT_LIMITS, ParseLimits

CONFIG_FILES = (".seedlint.toml", "seedlint.toml", "pyproject.toml")


class ConfigError(Exception):
    """A config file that cannot be used; the message names the file, the key and what was
    expected."""


@dataclass
class Config:
    """The settings of one config file (or the defaults, with `path` None)."""

    path: Path | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] | None = None
    extend_exclude: list[str] = field(default_factory=list)
    fixable: list[str] | None = None
    unfixable: list[str] = field(default_factory=list)
    seed_functions: dict[str, frozenset[str]] = field(default_factory=dict)
    target_torch_version: tuple[int, int] | None = None
    max_file_size: int | None = None  # bytes (None: the default)
    max_line_length: int | None = None  # characters (None: the default)

    @property
    def limits(self) -> ParseLimits:
        return ParseLimits(
            self.max_file_size or DEFAULT_LIMITS.file_size,
            self.max_line_length or DEFAULT_LIMITS.line_length,
        )

    @property
    def root(self) -> Path:
        """The directory relative patterns are resolved against."""
        return self.path.parent if self.path is not None else Path.cwd()


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _string_lists(value: Any) -> bool:
    return isinstance(value, dict) and all(_strings(item) for item in value.values())


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _version(value: Any) -> tuple[int, int] | None:
    if not isinstance(value, str):
        return None
    parts = value.split(".")
    if len(parts) < 2 or not all(part.isdigit() for part in parts[:2]):
        return None
    return int(parts[0]), int(parts[1])


def parse_version(value: str) -> tuple[int, int]:
    version = _version(value)
    if version is None:
        raise ValueError(f'expected a version like "2.4", got {value!r}')
    return version


def installed_torch_version() -> tuple[int, int] | None:
    """The installed torch's version, read from its package metadata (torch is never imported)."""
    return _version(installed_version("torch"))


def installed_version(distribution: str) -> str | None:
    """An installed distribution's version, from the first `<name>-<version>.dist-info` (or
    `.egg-info`) folder on `sys.path`, where `importlib.metadata.version` finds it, without the
    import that costs a tenth of a warm run over one file. None when it is not installed."""
    prefix = distribution.lower().replace("-", "_") + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, suffix = os.path.splitext(name)
            if suffix in (".dist-info", ".egg-info") and stem.lower().startswith(prefix):
                return stem[len(prefix) :].split("-py", 1)[0]
    return None


# key -> (attribute, validator, expected type in words)
_KEYS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "select": ("select", _strings, "a list of rule selectors (strings)"),
    "extend-select": ("extend_select", _strings, "a list of rule selectors (strings)"),
    "ignore": ("ignore", _strings, "a list of rule selectors (strings)"),
    "per-file-ignores": ("per_file_ignores", _string_lists, "a table of glob = [rule selectors]"),
    "exclude": ("exclude", _strings, "a list of glob patterns (strings)"),
    "extend-exclude": ("extend_exclude", _strings, "a list of glob patterns (strings)"),
    "fixable": ("fixable", _strings, "a list of rule selectors (strings)"),
    "unfixable": ("unfixable", _strings, "a list of rule selectors (strings)"),
    "seed-functions": (
        "seed_functions",
        lambda v: (
            _string_lists(v) and all(set(t) <= catalog.SEED_TARGETS.keys() for t in v.values())
        ),
        'a table of "module.function" = [generators], generators among '
        f"{sorted(catalog.SEED_TARGETS)}",
    ),
    "target-torch-version": (
        "target_torch_version",
        lambda v: _version(v) is not None,
        'a version string such as "2.4"',
    ),
    "max-file-size": ("max_file_size", _positive, "a positive number of bytes"),
    "max-line-length": ("max_line_length", _positive, "a positive number of characters"),
}


def _table(path: Path) -> dict[str, Any] | None:
    """The seedlint table of a config file, or None when a pyproject.toml has none."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the file ({error})") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from error
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool", {})
    table = tool.get("seedlint") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.seedlint] must be a table")
    return table


def load_config(path: Path) -> Config:
    """Read and validate one config file."""
    table = _table(path)
    config = Config(path=path.absolute())
    section = "[tool.seedlint]" if path.name == "pyproject.toml" else "the file"
    for key, value in (table or {}).items():
        if key not in _KEYS:
            known = ", ".join(_KEYS)
            raise ConfigError(f"{path}: unknown key `{key}` in {section} (known keys: {known})")
        attribute, valid, expected = _KEYS[key]
        if not valid(value):
            raise ConfigError(f"{path}: `{key}` must be {expected}, got {value!r}")
        if key == "seed-functions":
            value = {
                name: frozenset().union(*(catalog.SEED_TARGETS[t] for t in targets))
                for name, targets in value.items()
            }
        elif key == "target-torch-version":
            value = _version(value)
        setattr(config, attribute, value)
    return config


def is_config_file(path: Path) -> bool:
    if path.name != "pyproject.toml":
        return True
    try:
        return _table(path) is not None
    except ConfigError:
        return True  # a broken pyproject.toml is reported when it is loaded


class ConfigResolver:
    """Finds the config that governs each directory (closest wins), caching by directory."""

    def __init__(self, explicit: Path | None = None, isolated: bool = False) -> None:
        self._fixed: Config | None = None
        if isolated:
            self._fixed = Config()
        elif explicit is not None:
            if not explicit.is_file():
                raise ConfigError(f"{explicit}: config file not found")
            self._fixed = load_config(explicit)
        self._by_directory: dict[Path, Config] = {}

    def for_path(self, path: Path) -> Config:
        if self._fixed is not None:
            return self._fixed
        directory = path.absolute()
        if not directory.is_dir():
            directory = directory.parent
        return self._for_directory(directory)

    def _for_directory(self, directory: Path) -> Config:
        cached = self._by_directory.get(directory)
        if cached is not None:
            return cached
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file() and is_config_file(candidate):
                config = load_config(candidate)
                break
        else:
            parent = directory.parent
            config = Config() if parent == directory else self._for_directory(parent)
        self._by_directory[directory] = config
        return config
