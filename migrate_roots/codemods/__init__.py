"""The rule registry: every module in this package that defines a `Rule` subclass registers it by importing.

No hand-kept list: a new module is found by `load()`, and its trigger tokens join the prefilter.

Importing the rules imports libcst (a quarter of a second). A run over a tree where no file holds a trigger
token needs only the codes and tokens, so `catalog()` keeps them in a small cache file next to the bytecode,
keyed by the size and modification time of every module of this package; `select_codes` and
`trigger_pattern` read it, and the rules themselves are imported only when a file is to be parsed.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from migrate_roots.codemods.base import REGISTRY, Rule

__all__ = ["REGISTRY", "AnyOf", "Rule", "catalog", "load", "select_codes", "trigger_pattern"]

_loaded = False


def __getattr__(name: str) -> Any:  # `codemods.REGISTRY` and `codemods.Rule` without importing libcst early
    if name in ("REGISTRY", "Rule"):
        from migrate_roots.codemods import base

        return getattr(base, name)
    raise AttributeError(name)


def load() -> dict[str, type[Rule]]:
    from migrate_roots.codemods.base import REGISTRY

    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if not info.name.startswith("_") and info.name != "base":
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return dict(sorted(REGISTRY.items()))


class Entry(NamedTuple):
    default_enabled: bool
    tokens: tuple[bytes, ...]
    requires: bytes = b""  # also needed in the file (b"mcp" for rules whose tokens are common words)


def _entry(rule: Any) -> Entry:
    return Entry(rule.default_enabled, tuple(rule.tokens), rule.requires)


_catalog: dict[str, Entry] | None = None


def _cache_key() -> str:
    # crc32, not hashlib: importing hashlib (OpenSSL) cost 5 ms of every run's start-up.
    stamp = sys.version
    for folder in __path__:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                stamp += f"{name}:{info.st_size}:{info.st_mtime_ns};"
    return f"{zlib.crc32(stamp.encode()):08x}{len(stamp):08x}"


def catalog() -> dict[str, Entry]:
    """Code -> (enabled by default, trigger tokens) of every rule, without importing the rules when cached."""
    global _catalog
    if _loaded:  # the rules are imported anyway: the live registry (tests may register rules at run time)
        return {c: _entry(r) for c, r in load().items()}
    if _catalog is not None:
        return _catalog
    cache = None
    try:
        cache = Path(__path__[0]) / "__pycache__" / f"catalog.{_cache_key()}.json"
        raw = json.loads(cache.read_text(encoding="utf-8"))
        _catalog = {
            c: Entry(bool(d), tuple(bytes.fromhex(t) for t in toks), bytes.fromhex(req))
            for c, (d, toks, req) in raw.items()
        }
        return _catalog
    except (OSError, ValueError, TypeError):
        pass
    _catalog = {c: _entry(r) for c, r in load().items()}
    if cache is not None:
        try:  # best effort: an installed, read-only package just imports the rules each run
            cache.parent.mkdir(exist_ok=True)
            for old in cache.parent.glob("catalog.*.json"):
                old.unlink(missing_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            data = {
                c: (e.default_enabled, [t.hex() for t in e.tokens], e.requires.hex())
                for c, e in _catalog.items()
            }
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            pass
    return _catalog


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


def select_codes(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> frozenset[str]:
    """Ruff-style selection: `select` prefixes (default: every default rule), minus `ignore` prefixes.

    An opt-in rule (fix="opt-in") is enabled only when `select` names its exact code.
    """
    rules = catalog()
    select = [s.strip().upper() for s in select if s.strip()]
    ignore = [s.strip().upper() for s in ignore if s.strip()]
    unknown = [p for p in [*select, *ignore] if p != "ALL" and not any(c.startswith(p) for c in rules)]
    if unknown:
        raise ValueError(f"unknown rule code or prefix: {unknown[0]}")
    chosen = set()
    for code, rule in sorted(rules.items()):
        if rule.default_enabled:
            if not select or "ALL" in select or _matches(code, select):
                chosen.add(code)
        elif code in select:
            chosen.add(code)
    chosen = {c for c in chosen if not _matches(c, ignore)}
    # The edits a roots read's rewrite makes beyond its line (a helper's new parameter, its test doubles): made
    # and shown with that rewrite, never without it (sweep H, r05: `--ignore MR101` added a `root` nothing read).
    for part, owners in PARTS.items():
        if part in rules and any(o in chosen for o in owners):
            chosen.add(part)
        else:
            chosen.discard(part)
    return frozenset(chosen)


PARTS = {"MR107": ("MR101", "MR102"), "MR108": ("MR101", "MR102")}


# A requirement is met by the word, not by any substring: `-mcpu=power9` in a compiler-flags table is not MCP
# code. `mcp` must start a name (`import mcp`, `from mcp.server`, `mcp_server_git`) or end `fastmcp`; a file
# that reaches the SDK only through a name spelled otherwise (`MyMcpApp` imported from elsewhere) is not looked
# at by the rules that require it (README, "What is not looked at").
_MCP = re.compile(rb"mcp(?![a-z])")


def _mcp_word(data: bytes) -> bool:
    """`(?<![A-Za-z0-9])mcp(?![a-z])|fastmcp`, but led by the literal: `re` cannot skip ahead to a match that
    starts with a look-behind, and crawled through a 5 MB file in 60 ms (benchmark 1)."""
    if b"fastmcp" in data:
        return True
    return any(m.start() == 0 or not data[m.start() - 1 : m.start()].isalnum() for m in _MCP.finditer(data))


_WORDS: dict[bytes, Callable[[bytes], object]] = {b"mcp": _mcp_word}


def requirement(required: bytes) -> Callable[[bytes], object]:
    """A test of a file's bytes: is the requirement met (truthy)?"""
    return _WORDS.get(required) or re.compile(re.escape(required)).search


def _trie(tokens: list[bytes]) -> bytes:
    """A regex matching any of `tokens`, with shared prefixes factored out (`tool_(?:1|2)`)."""
    groups: dict[bytes, list[bytes]] = {}
    for token in tokens:
        if not token:
            return b""  # a token ending here already matches: longer ones add nothing to a search
        groups.setdefault(token[:1], []).append(token[1:])
    alternatives = [re.escape(first) + _trie(rest) for first, rest in sorted(groups.items())]
    return alternatives[0] if len(alternatives) == 1 else b"(?:" + b"|".join(alternatives) + b")"


def _common_prefix(items: list[bytes]) -> bytes:
    first, last = min(items), max(items)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def _shared_core(tokens: list[bytes]) -> bytes:
    """The longest byte string every token holds (b"" when shorter than three bytes: too common to help)."""
    shortest = min(tokens, key=len)
    for size in range(len(shortest), 2, -1):
        for start in range(len(shortest) - size + 1):
            core = shortest[start : start + size]
            if all(core in token for token in tokens):
                return core
    return b""


class AnyOf:
    """Does the data hold any of these byte strings? `re` has no multi-literal search: over benchmark 2's
    39 MB tree, a plain alternation of 16 names took 1.2 s, one substring test per name 0.36 s, and an
    alternation with shared prefixes factored out 0.56 s whatever the number of names.

    Names that start alike (a server's `tool_0` ... `tool_19`) share one substring test of what they have in
    common, and are told apart only in the files that hold it: 16 names cost three searches of the tree.
    Tokens that all hold one core (`list_roots`, `ListRootsRequest`, `roots/list` hold `oots`) are sought
    only in the files that hold it: one search of the tree instead of three (benchmark 1)."""

    def __init__(self, tokens: Iterable[bytes]) -> None:
        self.tokens = sorted(set(tokens))
        families: dict[bytes, list[bytes]] = {}
        for token in self.tokens:
            families.setdefault(token[:4], []).append(token)
        # (what every member holds, the members; none when the family is one token)
        self.gates = [
            (_common_prefix(members), members if len(members) > 1 else []) for members in families.values()
        ]
        self.regex = re.compile(_trie(self.tokens)) if len(self.gates) > 24 else None
        self.core = _shared_core(self.tokens) if len(self.gates) > 1 else b""

    def search(self, data: bytes) -> bool:
        if self.core and self.core not in data:
            return False
        if self.regex is not None:
            return self.regex.search(data) is not None
        # Plain loops, not any() over a generator: this runs once a file of every tree (benchmark 1).
        for gate, members in self.gates:
            if gate in data:
                if not members:
                    return True
                for token in members:
                    if token in data:
                        return True
        return False


class Trigger:
    """The prefilter: does a file's bytes hold a token of some enabled rule (and what that rule requires)?"""

    def __init__(self, groups: dict[bytes, set[bytes]]) -> None:
        # Every token, whatever it requires: what `grep -E` would look for (the benchmarks' baseline).
        self.pattern = b"|".join(
            re.escape(t) for tokens in groups.values() for t in sorted(tokens, key=lambda t: (-len(t), t))
        )
        plain = groups.pop(b"", None)
        self.plain = AnyOf(plain) if plain else None
        self.gated = [(required, requirement(required), AnyOf(tokens)) for required, tokens in groups.items()]

    def search(self, data: bytes) -> bool:
        if self.plain is not None and self.plain.search(data):
            return True
        # The requirement's substring test first: it is the cheapest and almost always false.
        for required, word, pattern in self.gated:
            if required in data and pattern.search(data) and word(data):
                return True
        return False


def trigger_pattern(codes: Iterable[str]) -> Trigger | None:
    """The enabled rules' tokens, grouped by requirement (None: nothing to look for)."""
    rules = catalog()
    grouped: dict[bytes, set[bytes]] = {}
    for code in codes:
        grouped.setdefault(rules[code].requires, set()).update(rules[code].tokens)
    groups = {required: tokens for required, tokens in grouped.items() if tokens}
    return Trigger(groups) if groups else None
