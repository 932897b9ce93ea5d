"""Rule selectors (codes, prefixes such as `SL1`, rule names, `ALL`) and which rules apply to a
file."""

from __future__ import annotations

import fnmatch
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

from seedlint.config import Config
from seedlint.rules import RULES


class UnknownSelector(ValueError):
    """A selector that matches no rule."""


def expand(selector: str) -> set[str]:
    """The codes a selector stands for."""
    text = selector.strip()
    if text.upper() == "ALL":
        return set(RULES)
    by_name = {name: code for code, name in RULES.names.items()}
    if text in by_name:
        return {by_name[text]}
    codes = {code for code in RULES if code.startswith(text.upper())} if text else set()
    if not codes:
        raise UnknownSelector(f"unknown rule selector `{selector}`")
    return codes


def expand_all(selectors: Iterable[str]) -> set[str]:
    codes: set[str] = set()
    for selector in selectors:
        codes |= expand(selector)
    return codes


def validate(config: Config) -> None:
    """Raise UnknownSelector for any selector in a config file that matches nothing."""
    for selectors in (
        config.select or [],
        config.extend_select,
        config.ignore,
        config.fixable or [],
        config.unfixable,
        *config.per_file_ignores.values(),
    ):
        try:
            expand_all(selectors)
        except UnknownSelector as error:
            raise UnknownSelector(f"{config.path}: {error}") from None


@functools.cache
def default_codes() -> frozenset[str]:
    """The rules on by default (every rule but the opt-in ones: importing them all tells)."""
    return frozenset(code for code, rule in RULES.items() if rule.default_enabled)


def enabled_codes(config: Config, cli: Mapping[str, list[str] | None]) -> set[str]:
    """Selected codes: CLI --select replaces config select; extend-select adds; ignore removes."""
    select = cli.get("select") if cli.get("select") is not None else config.select
    codes = expand_all(select) if select is not None else set(default_codes())
    codes |= expand_all(config.extend_select) | expand_all(cli.get("extend_select") or [])
    codes -= expand_all(config.ignore) | expand_all(cli.get("ignore") or [])
    return codes


def fixable_codes(config: Config, cli: Mapping[str, list[str] | None]) -> set[str]:
    fixable = cli.get("fixable") if cli.get("fixable") is not None else config.fixable
    codes = expand_all(fixable) if fixable is not None else set(RULES)
    return codes - expand_all(config.unfixable) - expand_all(cli.get("unfixable") or [])


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.absolute().relative_to(root).as_posix()
    except ValueError:
        return None


def matches(path: Path, root: Path, pattern: str) -> bool:
    """Whether a path matches a glob from a config file (relative to its directory, or a
    basename)."""
    return matches_any(path, root, (pattern,))


def matches_any(path: Path, root: Path, patterns: Iterable[str]) -> bool:
    """Whether a path matches one of the globs (its spellings are worked out once)."""
    relative = _relative(path, root)
    candidates = [path.name, path.absolute().as_posix()]
    if relative is not None:
        candidates.append(relative)
        parts = relative.split("/")
        candidates.extend("/".join(parts[:n]) for n in range(1, len(parts)))
    return any(
        fnmatch.fnmatchcase(candidate, pattern.rstrip("/"))
        for pattern in patterns
        for candidate in candidates
    )


def ignored_for_file(config: Config, path: Path) -> set[str]:
    codes: set[str] = set()
    for pattern, selectors in config.per_file_ignores.items():
        if matches(path, config.root, pattern):
            codes |= expand_all(selectors)
    return codes
