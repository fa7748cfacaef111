"""The rule registry: every module in this package that defines a `Rule` subclass registers it by importing.

No hand-kept list: a new module is found by `load()`, and its trigger tokens join the prefilter.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable

from codemods.base import REGISTRY, Rule

__all__ = ["REGISTRY", "Rule", "load", "select_codes", "trigger_pattern"]

_loaded = False


def load() -> dict[str, type[Rule]]:
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if not info.name.startswith("_") and info.name != "base":
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return dict(sorted(REGISTRY.items()))


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


def select_codes(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> frozenset[str]:
    """Ruff-style selection: `select` prefixes (default: every default rule), minus `ignore` prefixes.

    An opt-in rule (fix="opt-in") is enabled only when `select` names its exact code.
    """
    rules = load()
    select = [s.strip().upper() for s in select if s.strip()]
    ignore = [s.strip().upper() for s in ignore if s.strip()]
    unknown = [p for p in [*select, *ignore] if p != "ALL" and not any(c.startswith(p) for c in rules)]
    if unknown:
        raise ValueError(f"unknown rule code or prefix: {unknown[0]}")
    chosen = set()
    for code, rule in rules.items():
        if rule.default_enabled:
            if not select or "ALL" in select or _matches(code, select):
                chosen.add(code)
        elif code in select:
            chosen.add(code)
    return frozenset(c for c in chosen if not _matches(c, ignore))


def trigger_pattern(codes: Iterable[str]) -> re.Pattern[bytes] | None:
    """One compiled bytes regex of every enabled rule's tokens (None: nothing to look for)."""
    rules = load()
    tokens = sorted({t for c in codes for t in rules[c].tokens}, key=lambda t: (-len(t), t))
    if not tokens:
        return None
    return re.compile(b"|".join(re.escape(t) for t in tokens))
