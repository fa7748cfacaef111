"""Roots state that outlives a request, and roots code that no longer does anything: removed or marked.

Codes MR211-MR218 run as one rule (`RootsCache`), on the analysis shared with `list_changed.py`
(`codemods._plumbing.analyse`), so that a stale flag and the handler that sets it go together.

- MR211: module-level caches and stale / once-per-process flags around a roots read. When every function that
  touches them is the function that fetches (a single `if <cache/flag test>:` guard holding the read), the
  guard is unwrapped, the flags and `global` names go and the cache becomes a local: roots are read per call
  (a cache filled deeper in the guard starts from its literal module value, put where the guard was).
  Otherwise the cache's definition is marked with what still reads it.
- MR212: roots stored on an attribute (class attribute, instance, lifespan field): marked.
- MR213: eager roots fetches in an `initialized` handler: removed when the result is unused and nothing
  else depends on it (the handler's other links are kept), else marked.
- MR214: background refresh tasks that re-read roots: marked.
- MR215: `send_resource_list_changed()` sent because roots changed: marked (or removed with its handler).
- MR216: roots helpers nothing in the package calls: removed.
- MR217: roots read and the result thrown away: removed, or marked inside `try` (a capability probe).
- MR218: strings telling users to configure roots: reported; marked only when `select` names MR218.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst as cst

from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.codemods.list_changed import CACHE_TOKENS, PackageRefs, analyse, set_flags
from migrate_roots.model import Severity


class RootsCache(PackageRefs, Rule):
    code = "MR211"
    name = "roots-cache"
    summary = (
        "A module-level roots cache or stale flag: removed when only the fetching code uses it (roots are "
        "then read per request), else marked with its readers."
    )
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = CACHE_TOKENS
    nodes = (cst.Module,)
    limits = (
        "Removed only in one shape: module globals named in `global` by the function that reads roots, guarded "
        "by one top-level `if` that tests only them, with no other reader in the package. Caches read by "
        "other functions, filled outside a request, imported elsewhere or guarded otherwise are marked, and so "
        "is a cache whose read MR105 marks (an `is None` test of the cache in the guard)."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        set_flags(state)

    def leave(self, state: FileState) -> None:
        analyse(state)

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        return PackageRefs.plan_refs(summaries)


class RootsAttributeCache(Rule):
    code = "MR212"
    name = "roots-attribute-cache"
    summary = (
        "Roots kept on an attribute (class attribute, instance, lifespan field) across requests: marked."
    )
    severity = Severity.DEPRECATED
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = "Never rewritten: who else reads an attribute cannot be proven from the code."


class EagerRootsFetch(Rule):
    code = "MR213"
    name = "eager-roots-fetch"
    summary = (
        "Roots read at `initialized`: the call is removed when its result is unused, other links of the "
        "handler kept; marked when it fills state that stays."
    )
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = (
        "Only handlers registered for InitializedNotification in this module; a fetch inside `try` or one "
        "that fills a kept cache is marked. Lifespan and startup reads are MR103's (marked)."
    )


class RootsRefreshTask(Rule):
    code = "MR214"
    name = "roots-refresh-task"
    summary = "A background task that re-reads roots (create_task/start_soon of a roots function): marked."
    severity = Severity.BROKEN
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = "Never rewritten: stopping a task changes the server's lifecycle."


class ResourcesChangedOnRoots(Rule):
    code = "MR215"
    name = "resources-changed-on-roots"
    summary = "`send_resource_list_changed()` sent because roots changed: marked (removed with its handler)."
    severity = Severity.DEPRECATED
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = "Marked in roots functions and list_changed handlers that stay; elsewhere it is not about roots."


class DeadRootsHelper(Rule):
    code = "MR216"
    name = "dead-roots-helper"
    summary = "A private module-level roots helper that nothing in the package calls: removed (a public one: reported)."
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = (
        "Only private (`_name`) undecorated module-level functions not in `__all__` and not mentioned by any "
        "other module of "
        "the package, named in more than three characters; methods and code reached by `getattr` or from "
        "outside the package are kept. A helper "
        "that becomes dead only through a removal in another module goes on the next run."
    )


class DiscardedRoots(Rule):
    code = "MR217"
    name = "discarded-roots-result"
    summary = "Roots read and the result thrown away: removed (marked inside `try`, where it probes support)."
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = "A discarded read inside a tool that MR101 rewrites is marked, not removed."


class RootsWording(Rule):
    code = "MR218"
    name = "roots-wording"
    summary = "A string telling users to configure or provide roots: reported (marked with `--select MR218`)."
    severity = Severity.INFO
    tokens = CACHE_TOKENS
    runner = RootsCache
    limits = "Never rewritten: wording is the author's; module docstrings are skipped."
