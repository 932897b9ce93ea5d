"""The rule registry: every rule, by code.

A rule's module is named after it (`sl104_random_before_seed.py` holds SL104 random-before-seed),
so the codes and names are known from the package's file names, and a rule's module (with the
parser it needs) is imported only when its class is: a run whose findings all come from the cache
never imports one.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping

from seedlint.rules.base import Finding, Rule


class RuleRegistry(Mapping[str, type[Rule]]):
    """Rule classes by code, imported on first use; `names` by code without importing anything."""

    def __init__(self) -> None:
        self._modules: dict[str, str] = {}
        self.names: dict[str, str] = {}
        for module_info in pkgutil.iter_modules(__path__):
            number, _, words = module_info.name.partition("_")
            if number.startswith("sl") and words:
                self._modules[number.upper()] = module_info.name
                self.names[number.upper()] = words.replace("_", "-")
        self._classes: dict[str, type[Rule]] = {}

    def __getitem__(self, code: str) -> type[Rule]:
        if code not in self._classes:
            # KeyError: no such rule
            module = importlib.import_module(f"{__name__}.{self._modules[code]}")
            (rule,) = [
                value
                for value in vars(module).values()
                if isinstance(value, type)
                and issubclass(value, Rule)
                and value.__module__ == module.__name__
            ]
            if (rule.code, rule.name) != (code, self.names[code]):
                raise ImportError(
                    f"{module.__name__} defines {rule.code} {rule.name}: its file name says "
                    "otherwise"
                )
            self._classes[code] = rule
        return self._classes[code]

    def __contains__(self, code: object) -> bool:
        return code in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._modules))

    def __len__(self) -> int:
        return len(self._modules)


RULES = RuleRegistry()

__all__ = ["RULES", "Finding", "Rule"]
