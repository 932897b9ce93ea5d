"""Output formats: turn diagnostics into the text the CLI prints, as ruff's formats do."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from seedlint.diagnostics import Diagnostic
from seedlint.reporters import concise, full, github, gitlab, json_items, sarif
from seedlint.reporters._common import ReportOptions

if TYPE_CHECKING:
    from seedlint.rules.base import Rule

_RENDERERS: dict[str, Callable[[list[Diagnostic], ReportOptions], str]] = {
    "full": full.render,
    "concise": concise.render,
    "json": json_items.render_json,
    "json-lines": json_items.render_json_lines,
    "github": github.render,
    "gitlab": gitlab.render,
    "sarif": sarif.render,
}

FORMATS: tuple[str, ...] = tuple(_RENDERERS)

__all__ = ["FORMATS", "render"]


def render(
    diagnostics: list[Diagnostic],
    output_format: str,
    *,
    cwd: Path,
    color: bool,
    rules: Mapping[str, type[Rule]],
    unsafe_fixes: bool,
) -> str:
    """The full text to print for `diagnostics` in `output_format` (empty, or ending in a
    newline)."""
    try:
        renderer = _RENDERERS[output_format]
    except KeyError:
        raise ValueError(
            f"unknown output format {output_format!r}; expected one of {', '.join(FORMATS)}"
        ) from None
    options = ReportOptions(cwd=Path(cwd), color=color, rules=rules, unsafe_fixes=unsafe_fixes)
    text = renderer(list(diagnostics), options)
    # A file name that is not UTF-8 carries its bytes as lone surrogates: shown as U+FFFD, so every
    # format stays valid UTF-8 (JSON and SARIF included).
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
