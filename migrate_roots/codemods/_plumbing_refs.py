"""Package references for the plumbing rules: which top-level names of a file does another file of the
package mention? (`summarize`/`plan` of the MR20x and MR21x runners.)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import libcst as cst

from migrate_roots.codemods._plumbing_base import CANDIDATES
from migrate_roots.codemods.base import FileState


@dataclass
class Refs:
    module: str
    candidates: frozenset[str]  # top-level names this file might delete
    mentions: frozenset[
        str
    ]  # identifiers (names, attributes, import aliases, identifier strings) it mentions


class PackageRefs:
    """`summarize`/`follow_tokens`/`plan` shared by the MR20x and MR21x runners."""

    def summarize(self, state: FileState) -> Any:
        if "roots-plumbing-refs" not in state.extra:  # MR201 and MR211 both summarize: walk once
            candidates = frozenset(state.extra.get(CANDIDATES, ()))
            mentions = frozenset(_mentions(state))
            state.extra["roots-plumbing-refs"] = Refs(state.module, candidates, mentions)
        return state.extra["roots-plumbing-refs"]

    @classmethod
    def follow_tokens(cls, summaries: Mapping[str, Any]) -> set[bytes]:
        tokens: set[bytes] = set()
        for summary in summaries.values():
            if isinstance(summary, Refs):
                tokens |= {n.encode() for n in summary.candidates if len(n) > 3}
        return tokens

    @classmethod
    def plan_refs(cls, summaries: Mapping[str, Any]) -> dict[str, frozenset[str]]:
        # Indexed by package rather than compared pairwise: a tree of 2,000 servers made 5 million pairs
        # (7.7 s of one process, benchmark 3); tests/test_list_changed.py holds it equal to the pairwise rule.
        refs = {path: s for path, s in summaries.items() if isinstance(s, Refs)}
        by_top: dict[str, list[str]] = {}
        loose_by_dir: dict[str, list[str]] = {}
        for path, summary in refs.items():
            by_top.setdefault(_top(summary.module), []).append(path)
            if "." not in summary.module:
                loose_by_dir.setdefault(os.path.dirname(path), []).append(path)
        out: dict[str, frozenset[str]] = {}
        for path, summary in refs.items():
            if not summary.candidates:
                continue
            others: set[str] = set()
            for other_path in _others(path, summary.module, refs, by_top, loose_by_dir):
                others |= refs[other_path].mentions & summary.candidates
            out[path] = frozenset(others)
        return out


def _top(module: str) -> str:
    return module.split(".")[0]


def _others(
    path: str,
    module: str,
    refs: Mapping[str, Refs],
    by_top: Mapping[str, list[str]],
    loose_by_dir: Mapping[str, list[str]],
) -> Iterator[str]:
    """The other files of `path`'s package: of one top-level package when either file is in a package
    (dotted module name), else of one folder; other trees cannot use a name."""
    if "." in module:
        yield from (o for o in by_top.get(_top(module), ()) if o != path)
        return
    for other in by_top.get(module, ()):
        if other != path and "." in refs[other].module:
            yield other
    yield from (o for o in loose_by_dir.get(os.path.dirname(path), ()) if o != path)


def _mentions(state: FileState) -> set[str]:
    found: set[str] = set()

    class Mentions(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            value = node.evaluated_value
            if isinstance(value, str) and value.isidentifier():
                found.add(value)

    state.walk(state.wrapper.module, Mentions())
    return found
