"""A helper's value typed by a Protocol of the project whose members say what it is (sweep N of session 22).

r05 (silent): the Protocol declares the roots method itself,

    class RootsSource(Protocol):
        async def list_roots(self) -> list[Root]: ...      # fastmcp's Context fits it

    async def workspace(src: RootsSource):
        roots = await src.list_roots()

A `list_roots()` returning the SDK's list of `Root` is a fastmcp Context's, one returning `ListRootsResult` a
session's: the SDK's objects fit the Protocol and the tool hands them over, so the read is rewritten (a test's fake
with only `list_roots()` still works: the shim calls it when no argument is given). One that says nothing
(`Any`, no annotation) is reported (MR103); one returning another type (`list[str]`), or another class of the
project declaring the method (its own implementation), is not MCP's.

r09 (reason): `class ToolCtx(HasSession, Protocol)` declares its `session` through its base Protocol: the
members of the project bases are read (here, or in another module).
"""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

FASTMCP_SERVER = """\
from fastmcp import Context, FastMCP

from pkg.roots import workspace

mcp = FastMCP("ws")


@mcp.tool
async def where(ctx: Context) -> str:
    return await workspace(ctx)
"""

SESSION_SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from pkg.roots import workspace

mcp = FastMCP("ws")


@mcp.tool()
async def where(ctx: Context) -> str:
    return await workspace(ctx.session)
"""

ROOTS = """\
from collections.abc import Awaitable
from typing import Any, Protocol

{imports}


{defs}


async def workspace(src: {cls}) -> str:
    roots = await src.list_roots()
    return str(roots)
"""


def _run(
    tmp_path, defs, *, cls="RootsSource", imports="from mcp.types import ListRootsResult, Root", server=None
):
    files = {
        "roots.py": ROOTS.format(defs=defs, cls=cls, imports=imports),
        "server.py": server or FASTMCP_SERVER,
    }
    root = package(tmp_path, files)
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "roots.py").read_text()


@pytest.mark.parametrize(
    "defs",
    [
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> list[str]: ...",
            id="protocol-of-str",
        ),
        pytest.param(
            "class RootsSource:\n    async def list_roots(self) -> list[Root]:\n        return []",
            id="a-class-of-the-project",
        ),
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> 'list[Folder]': ...\n\n\nclass Folder: ...",
            id="protocol-of-own-class",
        ),
    ],
)
def test_noop_a_list_roots_of_no_sdk_type(tmp_path, defs):
    findings, text = _run(tmp_path, defs)
    assert findings == [], findings
    assert "list_roots_compat" not in text


@pytest.mark.parametrize(
    "defs",
    [
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> list[Root]: ...", id="async"
        ),
        pytest.param(
            "class RootsSource(Protocol):\n    def list_roots(self) -> Awaitable[list[Root]]: ...",
            id="awaitable",
        ),
        pytest.param(
            'class RootsSource(Protocol):\n    async def list_roots(self) -> "list[Root]": ...',
            id="forward-ref",
        ),
        pytest.param(
            "class Lists(Protocol):\n    async def list_roots(self) -> list[Root]: ...\n\n\n"
            "class RootsSource(Lists, Protocol):\n    name: str",
            id="from-a-base-protocol",
        ),
    ],
)
def test_a_protocol_listing_roots_is_a_fastmcp_context(tmp_path, defs):
    findings, text = _run(tmp_path, defs)
    assert codes(findings) == ["MR102", "MR107"], findings
    read = next(f for f in findings if f.code == "MR102")
    assert read.message.startswith("`src.list_roots()` asks the client for roots/list"), read.message
    assert "now reads the `root` argument into the same list of `Root`" in read.message, read.message
    assert 'roots = await list_roots_compat(src, root, name="root", shape="list")' in text, text


@pytest.mark.parametrize(
    ("defs", "imports"),
    [
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> ListRootsResult: ...",
            "from mcp.types import ListRootsResult",
            id="result",
        ),
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> types.ListRootsResult: ...",
            "from mcp import types",
            id="module-attribute",
        ),
    ],
)
def test_a_protocol_returning_a_result_is_a_session(tmp_path, defs, imports):
    findings, text = _run(tmp_path, defs, imports=imports, server=SESSION_SERVER)
    assert codes(findings) == ["MR101", "MR107"], findings
    assert 'roots = await list_roots_compat(src, root, name="root")' in text, text


def test_a_protocol_of_another_module(tmp_path):
    types_ = "from typing import Protocol\n\nfrom mcp.types import Root\n\n\nclass RootsSource(Protocol):\n"
    types_ += "    async def list_roots(self) -> list[Root]: ...\n"
    root = package(
        tmp_path,
        {
            "types_.py": types_,
            "roots.py": ROOTS.format(
                defs="", cls="RootsSource", imports="from pkg.types_ import RootsSource"
            ),
            "server.py": FASTMCP_SERVER,
        },
    )
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    assert codes(findings) == ["MR102", "MR107"], findings
    assert (
        'list_roots_compat(src, root, name="root", shape="list")' in (root / "pkg" / "roots.py").read_text()
    )


@pytest.mark.parametrize(
    "defs",
    [
        pytest.param("class RootsSource(Protocol):\n    async def list_roots(self): ...", id="unannotated"),
        pytest.param("class RootsSource(Protocol):\n    async def list_roots(self) -> Any: ...", id="any"),
        pytest.param(
            "class RootsSource(Protocol):\n    async def list_roots(self) -> list: ...", id="bare-list"
        ),
    ],
)
def test_a_protocol_that_says_nothing_is_reported(tmp_path, defs):
    findings, text = _run(tmp_path, defs)
    assert codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        "roots read through `src` typed by `RootsSource`, a Protocol of the project that does not say its "
        "`list_roots()` returns the SDK's roots (a `ListRootsResult`, or a list of `Root`), so migrate-roots "
        "cannot tell and rewrites nothing here"
    ), findings[0].message
    assert "# migrate-roots: MR103" in text


# r09: the session a base Protocol declares.

SESSION_ROOTS = """\
from typing import Any, Protocol

from mcp.server.session import ServerSession
{imports}

{defs}


async def workspace(ctx: ToolCtx) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

CONTEXT_SERVER = SESSION_SERVER.replace("workspace(ctx.session)", "workspace(ctx)")


def _run_session(tmp_path, defs, imports="", extra=None):
    files = {
        "roots.py": SESSION_ROOTS.format(defs=defs, imports=imports),
        "server.py": CONTEXT_SERVER,
        **(extra or {}),
    }
    root = package(tmp_path, files)
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "roots.py").read_text()


def test_noop_a_base_protocol_whose_session_is_another_class(tmp_path):
    defs = "class Db: ...\n\n\nclass HasSession(Protocol):\n    session: Db\n\n\nclass ToolCtx(HasSession, Protocol):\n    x: int"
    findings, _ = _run_session(tmp_path, defs)
    assert findings == [], findings


_HAS = "class HasSession(Protocol):\n    session: ServerSession\n"


@pytest.mark.parametrize(
    ("defs", "imports", "extra"),
    [
        pytest.param(
            _HAS + "\n\nclass ToolCtx(HasSession, Protocol):\n    request_id: str", "", None, id="same-module"
        ),
        pytest.param(
            _HAS + "\n\nclass Mid(HasSession, Protocol): ...\n\n\nclass ToolCtx(Mid, Protocol): ...",
            "",
            None,
            id="two-levels",
        ),
        pytest.param(
            "class ToolCtx(HasSession, Protocol):\n    request_id: str",
            "from pkg.types_ import HasSession",
            {
                "types_.py": "from typing import Protocol\n\nfrom mcp.server.session import ServerSession\n\n\n"
                + _HAS
            },
            id="base-in-another-module",
        ),
        pytest.param(
            "",
            "from pkg.types_ import ToolCtx",
            {
                "types_.py": "from typing import Protocol\n\nfrom pkg.base import HasSession\n\n\n"
                "class ToolCtx(HasSession, Protocol):\n    request_id: str\n",
                "base.py": "from typing import Protocol\n\nfrom mcp.server.session import ServerSession\n\n\n"
                + _HAS,
            },
            id="both-in-other-modules",
        ),
    ],
)
def test_a_session_declared_by_a_base_protocol_is_rewritten(tmp_path, defs, imports, extra):
    findings, text = _run_session(tmp_path, defs, imports, extra)
    assert codes(findings) == ["MR101", "MR107"], findings
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text, text


def test_a_base_that_says_nothing_still_reported_under_the_class_read(tmp_path):
    defs = (
        "class HasSession(Protocol):\n    session: Any\n\n\nclass ToolCtx(HasSession, Protocol):\n    x: int"
    )
    findings, _ = _run_session(tmp_path, defs)
    assert codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        "roots read through `ctx.session`, of `ctx` typed by `ToolCtx`, a Protocol of the project that does not "
        "say its `session` is an MCP session or context"
    ), findings[0].message
