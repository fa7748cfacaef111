"""`notifications/roots/list_changed` wiring in servers: registrations removed, handlers removed when unused.

Codes MR201-MR202 run as one rule (`ListChanged`). The analysis it runs is shared with `roots_cache.py`
(MR211-MR218) through `codemods._plumbing`-style helpers defined here (`analyse`): one pass decides, for a file,
every piece of roots plumbing that goes (registrations, handlers, caches, eager fetches, dead helpers) and every
piece that is marked, so that removals that depend on each other (a handler and the stale flag it sets) are
decided together and a second run finds nothing left to do.

Spellings of a registration handled here, all resolved through libcst metadata (qualified names, scopes):

- `<server>.notification_handlers[types.RootsListChangedNotification] = h` (mcp 1.x, also `mcp._mcp_server`);
- `Server(..., on_roots_list_changed=h)` (mcp 2.x);
- `<server>.add_notification_handler("notifications/roots/list_changed", params_type, h)` (mcp 2.x, fastmcp 4);
- a branch `if context.method == "notifications/roots/list_changed": ...` (or `isinstance(context.message,
  RootsListChangedNotification)`) in `on_notification` of a fastmcp `Middleware` subclass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from codemods._plumbing import PackageRefs, analyse
from codemods.base import FileState, Rule
from migrate_roots.model import Severity

TOKENS = (b"RootsListChanged", b"roots_list_changed", b"roots/list_changed")


@dataclass
class _Unused:
    """Placeholder so the module keeps a dataclass import for future summaries."""

    names: set[str] = field(default_factory=set)


class ListChanged(PackageRefs, Rule):
    code = "MR201"
    name = "roots-list-changed-handler"
    summary = (
        "A `notifications/roots/list_changed` handler registration: removed, and its handler with it when "
        "nothing else in the package uses it."
    )
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = TOKENS
    nodes = (cst.Module,)
    limits = (
        "Registrations in other spellings (a dict literal, `.update(...)`, `setdefault`, a `match` case, a "
        "middleware branch with an `else`), handlers that relay the change to downstream servers (proxies) "
        "and handlers that invalidate a cache something else still reads are marked (MR202), not removed. "
        "A handler defined in another module is kept (its registration is removed)."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        _flags(state)

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
        "handler, unusual spelling): marked."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ListChanged
    limits = "Never rewritten: the marker says what still depends on the notification."


def _flags(state: FileState) -> None:
    text = "\n".join(state.lines)
    state.extra.setdefault("imports_fastmcp", "fastmcp" in text)
    state.extra.setdefault("imports_sdk", "mcp" in text)
