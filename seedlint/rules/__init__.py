"""The rule registry: every rule class, by code."""

from __future__ import annotations

import importlib
import pkgutil

from seedlint.rules.base import Finding, Rule


def _discover() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for module_info in pkgutil.iter_modules(__path__):
        if not module_info.name.startswith("sl"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__:
                rules[value.code] = value
    return dict(sorted(rules.items()))


RULES: dict[str, type[Rule]] = _discover()

__all__ = ["RULES", "Finding", "Rule"]
