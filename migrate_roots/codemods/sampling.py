"""Sampling (SEP-2577): server-initiated `sampling/createMessage` and the client callbacks that answer it.

Report only. MCP 2026-07-28 deprecated sampling with roots and logging: a server can no longer send a request
to the client in the middle of a modern-era request (there is no back-channel), so a tool that asks the
client's model to complete text must call a model itself or hand the work back to the client.

- MR401 `await ctx.session.create_message(...)` (any session reached from a Context, RequestContext, or held).
- MR402 fastmcp `await ctx.sample(...)` (fastmcp 2.x/3.x; gone from fastmcp 4's Context).
- MR403 client side: `sampling_callback=` (mcp `ClientSession`, mcp 2.x `Client`) or `sampling_handler=`
  (fastmcp `Client`) passed to an SDK constructor.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk, _sdk_imports
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.model import Severity

# `Sample(`: mcp 2.x's era-portable sampling request, resolved into a tool parameter by `Resolve(fn)`.
TOKENS = (b"create_message", b".sample(", b"sampling_callback", b"sampling_handler", b"Sample(")

MIGRATION = (
    "call a model provider's API from the server (with its own credentials), or return the material in "
    "the tool result and let the client's model do the work"
)


def _tool(state: FileState) -> str | None:
    func = state.function
    return func.name.value if func is not None else None


class SamplingCall(Rule):
    code = "MR401"
    name = "sampling-create-message"
    summary = (
        "`session.create_message()` (server-initiated sampling): deprecated, fails on 2026-07-28 requests."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    nodes = (cst.Module, cst.Call)
    limits = "Reported only: replacing the client's model with another is a product decision."

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if isinstance(node, cst.Module):
            _sdk_imports.note_sdk_imports(state)
            return
        assert isinstance(node, cst.Call)
        func = node.func
        if any(q.startswith("mcp.") and q.endswith(".Sample") for q in state.qnames(func)):
            # Sweep F, r03: silent before, though its roots twin (`ListRoots()`) was reported.
            state.report(
                node,
                "MR401",
                "mcp 2.x's `Sample(...)` asks the client's model (sampling/createMessage on legacy requests, an "
                "input request on 2026-07-28 ones) when `Resolve` fills a tool parameter: sampling is deprecated "
                f"by SEP-2577 in every era: {MIGRATION}",
                Severity.BROKEN,
                tool=_tool(state),
            )
            return
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _sdk.SESSION_SAMPLING_METHODS:
                if _sdk.expr_kind(state, func.value) in (_sdk.SESSION, _sdk.CAPTURED):
                    state.report(
                        node,
                        "MR401",
                        "server-initiated sampling (`create_message`) is deprecated by SEP-2577 and fails on "
                        f"MCP 2026-07-28 requests (no back-channel): {MIGRATION}",
                        Severity.BROKEN,
                        tool=_tool(state),
                    )
                return
            if method in _sdk.FASTMCP_SAMPLING_METHODS and self._fastmcp_context(node, func.value, state):
                state.report(
                    node,
                    "MR402",
                    "fastmcp `ctx.sample()` sends sampling/createMessage, deprecated by SEP-2577: it fails on "
                    f"MCP 2026-07-28 requests and fastmcp 4 removed it: {MIGRATION}",
                    Severity.BROKEN,
                    tool=_tool(state),
                )
                return
        for arg in node.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword in _sdk.SAMPLING_CALLBACK_KEYWORDS and _sdk_imports.is_sdk_callable(state, func):
                state.report(
                    arg,
                    "MR403",
                    f"`{keyword}=` answers server-initiated sampling, deprecated by SEP-2577 (legacy servers "
                    "may send it until a revision on or after 2027-07-28): keep it while you talk to old "
                    "servers; servers on 2026-07-28 never call it, so do not build new features on it",
                    Severity.DEPRECATED,
                )

    @staticmethod
    def _fastmcp_context(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> bool:
        if _sdk.expr_kind(state, receiver) != _sdk.FASTMCP_CONTEXT:
            return False
        # An unannotated parameter is a guess from the imports: `rng.sample(...)` is no sampling call.
        return not _sdk_imports.loosely_typed(state, receiver) or isinstance(state.parent(call), cst.Await)


class FastmcpSample(Rule):
    code = "MR402"
    name = "fastmcp-sample"
    summary = (
        "fastmcp `ctx.sample()`: deprecated sampling, removed in fastmcp 4, fails on 2026-07-28 requests."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    runner = SamplingCall
    limits = "Reported only. An unannotated `ctx` counts only when the call is awaited (as the SDK's is)."


class SamplingCallback(Rule):
    code = "MR403"
    name = "sampling-callback"
    summary = (
        "Client `sampling_callback=` / fastmcp `sampling_handler=`: answers deprecated sampling requests."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = SamplingCall
    limits = "Reported only, and only as a keyword of an mcp or fastmcp constructor or function."
