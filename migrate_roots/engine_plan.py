"""Planning, in the main process: the files whose plans depend on each other (groups), the plan of each
group, and for each file whether its index result, its guessed rewrite or a new rewrite stands.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from migrate_roots import codemods
from migrate_roots.config import Settings
from migrate_roots.engine_types import _NONE, Dispatch, Entry, Indexed, Moves, Options, Rewritten, _unpickled
from migrate_roots.engine_walk import package_info
from migrate_roots.model import FileResult
from migrate_roots.spill import Ref, Spill

if TYPE_CHECKING:
    from migrate_roots.codemods.base import Rule


def _follow_functions(indexed: Indexed, reached: set[str], options: Options) -> set[str]:
    out: set[str] = set()
    for code, summary in indexed.summaries.items():
        if code in options.enabled:
            out |= codemods.REGISTRY[code].follow_functions({"": summary}, reached)
    return out


class _Known:
    """Package root -> rule code -> path -> summary of the stage-one files, read from the spill for the
    package of the stage-two file asked about (the last package is kept: files come in path order)."""

    def __init__(self, spill: Spill, entries: list[Entry]) -> None:
        self.spill = spill
        self.by_root: dict[str, list[Entry]] = {}
        for entry in entries:
            if entry.planned:
                self.by_root.setdefault(entry.package_root, []).append(entry)
        self.last: tuple[str, dict[str, dict[str, Any]] | None] = ("", None)

    def get(self, path: Path) -> dict[str, dict[str, Any]] | None:
        root = package_info(path)[2]
        if self.last[0] != root or self.last[1] is None:
            entries = self.by_root.get(root)
            self.last = (
                root,
                _by_code({e.path: self.spill.get(cast(Ref, e.ref)) for e in entries}) if entries else None,
            )
        return self.last[1]


def _by_code(indexed: Mapping[Path, Indexed]) -> dict[str, dict[str, Any]]:
    """Rule code -> path -> summary."""
    by_code: dict[str, dict[str, Any]] = {}
    for path, item in indexed.items():
        for code, summary in item.summaries.items():
            by_code.setdefault(code, {})[str(path)] = summary
    return by_code


def _groups(entries: list[Entry]) -> list[list[Entry]]:
    """The files whose plans may depend on each other, in `entries` order: files of one top-level package, of
    packages one refers to another's modules (`Rule.links`), and outside packages, of one folder. Planning each
    group alone gives the plan of the whole run (tests/test_engine_groups.py), and keeps only one group's
    summaries in memory."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    # A module is its import name within its own import root: two loose `server.py` in sibling folders, or two
    # packages `app` under `examples/a/src` and `examples/b/src`, are different modules (and groups).
    def key(entry: Entry) -> str:
        return f"m:{_import_root(entry)}\0{entry.module.split('.')[0]}"

    tops: dict[str, list[str]] = {}
    for entry in entries:
        tops.setdefault(entry.module.split(".")[0], []).append(key(entry))
    for entry in entries:
        mine = key(entry)
        find(mine)
        if "." not in entry.module:
            union(mine, "d:" + os.path.dirname(str(entry.path)))
        for link in entry.links:
            for other in tops.get(link, ()):  # a link by name joins every root that has the name
                union(mine, other)
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(find(key(entry)), []).append(entry)
    return list(groups.values())


def _import_root(entry: Entry) -> str:
    """The folder `entry`'s module is imported from (see `_roots_model.import_root`)."""
    in_package = "." in entry.module or entry.path.stem == "__init__"
    return os.path.dirname(entry.package_root) if in_package else entry.package_root


def _settle(
    entries: list[Entry], spill: Spill, rules: Mapping[str, type[Rule]], options: Options
) -> list[Entry]:
    """After the index, group by group: which files keep their index result, which keep the rewrite guessed
    under the plan of their own file (the package-wide plan for them turned out the same: the common case),
    and which are rewritten again in the workers (returned, in path order)."""
    dispatch: list[Entry] = []
    groups = _groups([e for e in entries if e.failed is None and (e.planned or e.needs_rewrite)])
    for entry in entries:
        entry.links = _NONE  # grouped: no longer needed, and a run keeps its entries to the end
    for group in groups:
        loaded: dict[Path, Indexed] = {e.path: spill.get(cast(Ref, e.ref)) for e in group}
        plan = _plan(_by_code(loaded), rules, options.settings)
        for entry in group:
            item = loaded[entry.path]
            if not (item.needs_rewrite or str(entry.path) in plan):
                continue
            mine = plan.get(str(entry.path), {})
            entry.kind = "dispatch"
            if item.guess is not None and item.guess_plan == mine:
                guess = _unpickled(item.guess) if options.write else None
                if guess is None or guess.new is None:
                    entry.kind = "ready"
                    continue
                entry.commit = True
            entry.plan_ref = spill.put(mine)
            dispatch.append(entry)
    for entry in entries:
        entry.module = entry.package_root = ""
    return sorted(dispatch, key=lambda e: e.path.as_posix())


def _dispatched(entry: Entry, spill: Spill, options: Options) -> Dispatch:
    guess = _unpickled(spill.get(cast(Ref, entry.ref)).guess) if entry.commit else None
    return entry.path, guess, spill.get(cast(Ref, entry.plan_ref))


def _outcome(
    item: FileResult | Entry, spill: Spill, rewritten: Iterator[Rewritten]
) -> tuple[FileResult, bool, Moves]:
    """A file's final result, whether it came from the rewrite phase, and the lines its rewrite moved."""
    if isinstance(item, FileResult):
        return item, False, ()
    if item.kind == "dispatch":
        result, moved = next(rewritten)
        return result, True, moved
    indexed: Indexed = spill.get(cast(Ref, item.ref))
    if item.kind == "ready":
        guess = _unpickled(cast(bytes, indexed.guess))
        return guess.result, True, guess.moved
    return indexed.result, False, ()


def _plan(
    by_code: Mapping[str, Mapping[str, Any]], rules: Mapping[str, type[Rule]], settings: Settings
) -> dict[str, dict[str, Any]]:
    """Path -> rule code -> instructions, from rule code -> path -> summary."""
    plan: dict[str, dict[str, Any]] = {}
    for code, per_file in by_code.items():
        for path_name, instructions in rules[code].plan(per_file, settings).items():
            plan.setdefault(path_name, {})[code] = instructions
    return plan
