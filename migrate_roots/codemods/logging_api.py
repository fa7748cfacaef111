"""MCP logging (SEP-2577): `notifications/message` sent to the client and `logging/setLevel` handlers.

Report only. MCP 2026-07-28 deprecated the logging capability with roots and sampling: on a modern request a
log notification is delivered only when that request opted in, and the whole capability may be removed in
the first revision on or after 2027-07-28. Receivers are resolved like the roots rules resolve theirs
(`codemods._sdk.expr_kind`): a stdlib `logging.Logger`'s `.info()` is never reported.

- MR501 `await ctx.info/debug/warning/error/log(...)` on an mcp or fastmcp Context.
- MR502 `await session.send_log_message(...)` on a ServerSession.
- MR503 a `logging/setLevel` handler: `@server.set_logging_level()` (mcp 1.x low-level server) or
  `Server(on_set_logging_level=...)` (mcp 2.x).
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk, _sdk_imports
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.model import Severity

TOKENS = (
    b".info(",
    b".debug(",
    b".warning(",
    b".error(",
    b".log(",
    b"send_log_message",
    b"set_logging_level",
)

WHY = "deprecated by SEP-2577 (eligible for removal on or after 2027-07-28)"
MIGRATION = (
    "log with Python's `logging` to stderr (or your own telemetry), and put what the user must see in the "
    "tool result"
)


def _tool(state: FileState) -> str | None:
    func = state.function
    return func.name.value if func is not None else None


class ContextLog(Rule):
    code = "MR501"
    name = "context-log"
    summary = "`ctx.info()`/`debug`/`warning`/`error`/`log` on an MCP Context: deprecated MCP logging."
    severity = Severity.DEPRECATED
    tokens = TOKENS
    nodes = (cst.Module, cst.Call, cst.Decorator)
    limits = (
        "Reported only. An unannotated `ctx` counts only when the call is awaited (the SDK's methods are "
        "coroutines); a Context reached through an attribute of your own object is not followed."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if isinstance(node, cst.Module):
            _sdk_imports.note_sdk_imports(state)
        elif isinstance(node, cst.Decorator):
            self._decorator(node, state)
        elif isinstance(node, cst.Call):
            self._call(node, state)

    def _call(self, node: cst.Call, state: FileState) -> None:
        func = node.func
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _sdk.CONTEXT_LOG_METHODS and self._context(node, func.value, state):
                state.report(
                    node,
                    "MR501",
                    f"`ctx.{method}()` sends an MCP log notification (notifications/message), {WHY}; on "
                    f"2026-07-28 requests it reaches the client only if the request opted in: {MIGRATION}",
                    Severity.DEPRECATED,
                    tool=_tool(state),
                )
                return
            if method in _sdk.SESSION_LOG_METHODS and _sdk.expr_kind(state, func.value) in (
                _sdk.SESSION,
                _sdk.CAPTURED,
            ):
                state.report(
                    node,
                    "MR502",
                    f"`send_log_message()` sends an MCP log notification (notifications/message), {WHY}: "
                    f"{MIGRATION}",
                    Severity.DEPRECATED,
                    tool=_tool(state),
                )
                return
        for arg in node.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword in _sdk.SET_LEVEL_KEYWORDS and _sdk_imports.is_sdk_callable(state, func):
                self._set_level(arg, state)

    def _decorator(self, node: cst.Decorator, state: FileState) -> None:
        expr = node.decorator
        target = expr.func if isinstance(expr, cst.Call) else expr
        if (
            isinstance(target, cst.Attribute)
            and target.attr.value in _sdk.SET_LEVEL_DECORATORS
            and _sdk.expr_kind(state, target.value) == _sdk.LL_SERVER
        ):
            self._set_level(node, state)

    @staticmethod
    def _set_level(node: cst.CSTNode, state: FileState) -> None:
        state.report(
            node,
            "MR503",
            f"a logging/setLevel handler serves the MCP logging capability, {WHY}: take the log level from "
            "server configuration (an environment variable or a command-line flag) and drop the handler "
            "once no legacy client needs it",
            Severity.DEPRECATED,
        )

    @staticmethod
    def _context(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> bool:
        if _sdk.expr_kind(state, receiver) not in (_sdk.CONTEXT, _sdk.FASTMCP_CONTEXT):
            return False
        # An unannotated parameter is a guess from the imports: a logger passed as `log` is no Context.
        return not _sdk_imports.loosely_typed(state, receiver) or isinstance(state.parent(call), cst.Await)


class SessionLogMessage(Rule):
    code = "MR502"
    name = "send-log-message"
    summary = "`session.send_log_message()`: deprecated MCP logging notification."
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ContextLog
    limits = "Reported only."


class SetLevelHandler(Rule):
    code = "MR503"
    name = "set-level-handler"
    summary = (
        "A `logging/setLevel` handler (`@server.set_logging_level()`, `on_set_logging_level=`): deprecated."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ContextLog
    limits = "Reported only; fastmcp's built-in handler is not user code and is not reported."
