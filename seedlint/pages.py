"""The rule pages (`rules/SLxxx.md`): the user-facing reference, shipped inside the package."""

from __future__ import annotations

import re
from pathlib import Path

_PACKAGED = Path(__file__).parent / "pages"  # where the wheel puts the pages
_CHECKOUT = Path(__file__).parent.parent / "rules"  # a source checkout or editable install
_CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)

BASE_URL = "https://github.com/seedlint/seedlint/blob/main/rules"


def _directory() -> Path:
    return _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT


def page_text(code: str) -> str | None:
    """The markdown page of a rule, or None when it has none."""
    path = _directory() / f"{code}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def page_url(code: str) -> str:
    return f"{BASE_URL}/{code}.md"


def _section(text: str, heading: str) -> str | None:
    match = re.search(
        rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL
    )
    return match.group(1) if match else None


def page_examples(code: str) -> tuple[str, str] | None:
    """The code of a page's `## Example` and `## Fixed version` sections."""
    text = page_text(code)
    if text is None:
        return None
    blocks = []
    for heading in ("Example", "Fixed version"):
        section = _section(text, heading)
        found = _CODE_BLOCK.search(section or "")
        if found is None:
            return None
        blocks.append(found.group(1))
    return blocks[0], blocks[1]
