"""A roots read on a parameter typed by a type variable or by a Protocol of the project (sweep L r03 of session 22:
each was silent, scan found nothing and apply changed nothing).

    class HasSession(Protocol):                 C = TypeVar("C", bound=Context)
        @property
        def session(self) -> ServerSession: ... async def workspace[C: Context](ctx: C): (PEP 695)

    async def workspace(ctx: HasSession):
        result = await ctx.session.list_roots()

A type variable bound (or constrained) to an SDK class is that class; one with neither is as `Any` (an
unannotated `ctx`). A Protocol whose `session` is an SDK session is a context to the read (the SDK's Context fits
it, and the tool hands it over): rewritten. Another class of the project holding one is a held session (MR103);
a Protocol whose `session` says nothing migrate-roots knows is reported (MR103), never passed over; one whose
`session` is another class is not MCP's.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes, package, run_engine

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

SERVER = """\
from typing import Any, Protocol, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.session import ServerSession
{imports}
mcp = MCPServer("x")

{defs}

async def workspace{params}({param}) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


@mcp.tool()
async def where(ctx: Context) -> str:
    return await workspace(ctx)
"""


def _run(tmp_path, defs, param, *, imports="", params="", extra=None, write=False):
    source = SERVER.format(imports=imports, defs=defs, param=param, params=params)
    root = package(tmp_path, {"server.py": source, **(extra or {})})
    findings = [f for r in run_engine(root, write=write, select=["MR1"]) for f in r.findings]
    return findings, root / "pkg" / "server.py"


_PROTOCOL = "class HasSession(Protocol):\n    @property\n    def session(self) -> ServerSession: ...\n"
_TYPES = "from typing import Any, Protocol, TypeVar\n\nfrom mcp.server.mcpserver import Context\n"


def test_noop_a_protocol_whose_session_is_another_class(tmp_path):
    defs = "class DbSession: ...\n\n\nclass HasSession(Protocol):\n    session: DbSession\n"
    findings, _ = _run(tmp_path, defs, "ctx: HasSession")
    assert findings == []


def test_noop_a_protocol_of_another_module_whose_session_is_another_class(tmp_path):
    types_ = "from typing import Protocol\n\nfrom .db import DbSession\n\n\nclass HasSession(Protocol):\n    session: DbSession\n"
    findings, _ = _run(
        tmp_path,
        "",
        "ctx: HasSession",
        imports="from .types_ import HasSession\n",
        extra={"types_.py": types_},
    )
    assert findings == []


@pytest.mark.parametrize(
    ("defs", "param", "imports", "params", "extra"),
    [
        pytest.param(_PROTOCOL, "ctx: HasSession", "", "", {}, id="protocol-property"),
        pytest.param(
            "class HasSession(Protocol):\n    session: ServerSession\n",
            "ctx: HasSession",
            "",
            "",
            {},
            id="protocol-attribute",
        ),
        pytest.param(_PROTOCOL, "ctx: HasSession | None = None", "", "", {}, id="protocol-optional"),
        pytest.param(
            "",
            "ctx: HasSession",
            "from .types_ import HasSession\n",
            "",
            {
                "types_.py": "from typing import Protocol\n\nfrom mcp.server.session import ServerSession\n\n\n"
                + _PROTOCOL
            },
            id="protocol-of-another-module",
        ),
        pytest.param('C = TypeVar("C", bound=Context)\n', "ctx: C", "", "", {}, id="typevar-bound"),
        pytest.param("C = TypeVar('C', bound='Context')\n", "ctx: C", "", "", {}, id="typevar-string-bound"),
        pytest.param(
            'C = TypeVar("C", Context, ServerSession)\n', "ctx: C", "", "", {}, id="typevar-constrained"
        ),
        pytest.param('T = TypeVar("T")\n', "ctx: T", "", "", {}, id="typevar-unbounded"),
        pytest.param(
            _PROTOCOL + '\n\nC = TypeVar("C", bound=HasSession)\n',
            "ctx: C",
            "",
            "",
            {},
            id="typevar-bound-to-protocol",
        ),
        pytest.param(
            "",
            "ctx: C",
            "from .types_ import C\n",
            "",
            {"types_.py": _TYPES + '\nC = TypeVar("C", bound=Context)\n'},
            id="typevar-of-another-module",
        ),
        pytest.param("", "ctx: C", "", "[C: Context]", {}, id="pep695-bound"),
        pytest.param("", "ctx: C", "", "[C: (Context, ServerSession)]", {}, id="pep695-constrained"),
        pytest.param(_PROTOCOL, "ctx: C", "", "[C: HasSession]", {}, id="pep695-bound-to-protocol"),
    ],
)
def test_a_read_through_a_type_variable_or_protocol_is_rewritten(
    tmp_path, defs, param, imports, params, extra
):
    findings, server = _run(tmp_path, defs, param, imports=imports, params=params, extra=extra, write=True)
    assert codes(findings) == ["MR101", "MR107"], findings
    text = server.read_text()
    spaced = re.sub(r"\s+\)", ")", re.sub(r"\(\s+", "(", text))  # the signature as one line, when wrapped
    assert f"async def workspace{params}({param}, root: str | None = None) -> str:" in spaced, text
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text, text
    assert "return await workspace(ctx, root=root)" in text, text


def test_a_protocol_read_rewritten_whole(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from typing import Protocol

        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.session import ServerSession

        mcp = MCPServer("x")


        class HasSession(Protocol):
            @property
            def session(self) -> ServerSession: ...


        async def workspace(ctx: HasSession) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)


        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await workspace(ctx)
        """,
        """\
        from typing import Annotated, Protocol

        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.session import ServerSession
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = MCPServer("x")


        class HasSession(Protocol):
            @property
            def session(self) -> ServerSession: ...


        async def workspace(ctx: HasSession, root: str | None = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)


        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await workspace(ctx, root=root)
        """,
    )


def test_another_class_holding_a_session_is_a_held_session(tmp_path):
    findings, _ = _run(tmp_path, "class Deps:\n    session: ServerSession\n", "ctx: Deps")
    assert codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        "roots read through `ctx.session`, a session held in a global or on an object, which may outlive the "
        "request"
    ), findings[0].message


@pytest.mark.parametrize(
    ("defs", "param", "imports", "params", "extra"),
    [
        pytest.param(
            "class HasSession(Protocol):\n    session: Any\n", "ctx: HasSession", "", "", {}, id="any"
        ),
        pytest.param(
            "class HasSession(Protocol):\n    name: str\n", "ctx: HasSession", "", "", {}, id="undeclared"
        ),
        pytest.param(
            "class HasSession(Protocol):\n    session: Any\n",
            "ctx: C",
            "",
            "[C: HasSession]",
            {},
            id="pep695",
        ),
        pytest.param(
            "",
            "ctx: HasSession",
            "from .types_ import HasSession\n",
            "",
            {
                "types_.py": "from typing import Any, Protocol\n\n\nclass HasSession(Protocol):\n    session: Any\n"
            },
            id="another-module",
        ),
    ],
)
def test_a_protocol_it_cannot_tell_is_reported(tmp_path, defs, param, imports, params, extra):
    findings, server = _run(tmp_path, defs, param, imports=imports, params=params, extra=extra, write=True)
    assert codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        "roots read through `ctx.session`, of `ctx` typed by `HasSession`, a Protocol of the project that does not "
        "say its `session` is an MCP session or context, so migrate-roots cannot tell and rewrites nothing here"
    ), findings[0].message
    assert "# migrate-roots: MR103" in server.read_text()
