"""`notifications/roots/list_changed` wiring in servers: registrations removed, handlers removed when unused.

Codes MR201-MR202 run as one rule (`ListChanged`). The analysis behind them (`analyse`) is shared with
`roots_cache.py` (MR211-MR218): one pass over a file decides every piece of roots plumbing that goes
(registrations, handlers, caches and stale flags, eager fetches, dead helpers, the imports only they used) and
every piece that is marked, so that removals that depend on each other (a handler and the stale flag it sets)
are decided together and a second run finds nothing left to do.

Registrations handled, all resolved through libcst metadata (qualified names, scopes), never by text:

- `<server>.notification_handlers[types.RootsListChangedNotification] = h` (mcp 1.x, also `mcp._mcp_server`);
- `Server(..., on_roots_list_changed=h)` (mcp 2.x);
- `<server>.add_notification_handler("notifications/roots/list_changed", params_type, h)` (mcp 2.x, fastmcp 4);
- a branch `if context.method == "notifications/roots/list_changed": ...` (or `isinstance(context.message,
  RootsListChangedNotification)`) in `on_notification` of a fastmcp `Middleware` subclass.

Package knowledge (is a handler, helper or cache used from another module?) comes from `summarize`/`plan`:
every file reports the identifiers it mentions; a name is kept when any other file of the package mentions it.

The analysis is split over `_plumbing.py` and its steps (`_plumbing_*.py`); package references are in
`_plumbing_refs.py`. This module holds the rules and their registration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst as cst

from migrate_roots.codemods import _sdk_imports
from migrate_roots.codemods._plumbing import analyse, kept_attributes, kept_caches
from migrate_roots.codemods._plumbing_refs import PackageRefs, Refs
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.model import Severity

# ... and the name misspelt (`_plumbing_collect.misspelt_method`): a handler keyed by it is wiring too.
TOKENS = (
    b"RootsListChanged",
    b"roots_list_changed",
    b"roots/list_changed",
    b"roots/listChanged",
    b"roots/list-changed",
    b"roots/listchanged",
)
CACHE_TOKENS = (b"list_roots", b"roots", b"Roots")

__all__ = [
    "CACHE_TOKENS",
    "PackageRefs",
    "Refs",
    "TOKENS",
    "analyse",
    "kept_attributes",
    "kept_caches",
    "set_flags",
]


def set_flags(state: FileState) -> None:
    """What `_sdk.expr_kind` needs to know about the file (set once, shared with MR101)."""
    _sdk_imports.note_sdk_imports(state)


class ListChanged(PackageRefs, Rule):
    code = "MR201"
    name = "roots-list-changed-handler"
    summary = (
        "A `notifications/roots/list_changed` handler registration: removed, with its handler when nothing "
        "else in the package uses it."
    )
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = TOKENS
    nodes = (cst.Module,)
    limits = (
        "Registrations in other spellings (a dict literal, `.update(...)`, `setdefault`, a `match` case, a "
        "middleware branch with an `else`, a line holding other statements), handlers that relay the change "
        "downstream (proxies), handlers that change other state or invalidate a cache something else still "
        "reads, and handlers that are not module-level functions of the file (a method, a local function, an "
        "import) are marked (MR202), not removed. A "
        "module function handler that is decorated, used elsewhere, or named in three characters or fewer is "
        "kept (its registration goes)."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        set_flags(state)

    def leave(self, state: FileState) -> None:
        analyse(state)

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        return PackageRefs.plan_refs(summaries)


class ListChangedKept(Rule):
    code = "MR202"
    name = "roots-list-changed-kept"
    summary = (
        "A roots list_changed registration or reference that cannot be removed safely (proxy relay, shared "
        "handler, cache still read, unusual spelling): marked."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ListChanged
    limits = "Never rewritten: the marker says what still depends on the notification."
