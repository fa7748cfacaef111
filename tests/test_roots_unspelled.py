"""A file that holds a roots token is always parsed: whether its call is an MCP call is decided by the plan
(is it reached by MCP code?), not by the word `mcp` in the file (README, "How it works", prefilter)."""

from __future__ import annotations

import textwrap
from functools import partial

import pytest

from migrate_roots import screen
from tests import helpers
from tests.helpers import codes, run_engine

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

TOOL = """\
    from mcp.server.fastmcp import Context, FastMCP
    from .workspace import project_dir

    mcp = FastMCP("x")

    @mcp.tool()
    async def ls(ctx: Context) -> str:
        return str(await project_dir({arg}))
    """
TOOL_AFTER = """\
    from typing import Annotated

    from mcp.server.fastmcp import Context, FastMCP
    from pydantic import Field
    from .workspace import project_dir

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

    mcp = FastMCP("x")

    @mcp.tool()
    async def ls(ctx: Context, root: RootPath = None) -> str:
        return str(await project_dir({arg}, root=root))
    """

# Moto's AWS Organizations `list_roots()`, in the shapes it takes: never an MCP call.
MOTO = [
    """\
    class OrganizationsResponse:
        def list_roots(self):
            return self.organizations_backend.list_roots()
    """,
    """\
    import boto3

    client = boto3.client("organizations")
    roots = client.list_roots()["Roots"]
    """,
    """\
    def test_list_roots(client):
        response = client.list_roots()
        assert response["Roots"]
    """,
    """\
    async def project_dir(ctx):
        return await ctx.session.list_roots()
    """,  # MCP-shaped, but nothing in the tree is MCP code
    """\
    def list_roots(self):
        return organizations_backends[self.account][self.partition].list_roots()
    """,
]


@pytest.mark.parametrize("source", MOTO)
def test_noop_roots_token_without_mcp_code(tmp_path, source):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "organizations.py").write_text(textwrap.dedent(source))
    before = (root / "pkg" / "organizations.py").read_bytes()
    results = run_engine(root, select=["MR1"])
    assert [f for r in results for f in r.findings] == []
    assert (root / "pkg" / "organizations.py").read_bytes() == before


def test_noop_moto_beside_an_mcp_server(tmp_path):
    # The server reads no roots; the AWS client's list_roots() in the next module is not reached by it.
    findings = check_noop(
        tmp_path,
        'from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\n',
        extra={"aws.py": MOTO[2]},
    )
    assert findings == []


@pytest.mark.parametrize(
    ("arg", "helper", "helper_after"),
    [
        (
            "ctx",
            "async def project_dir(ctx):\n    return (await ctx.session.list_roots()).roots[0].uri\n",
            "from pkg._mcp_roots_compat import list_roots_compat\n\n\n"
            'async def project_dir(ctx, root: str | None = None):\n    return (await list_roots_compat(ctx, root, name="root"))'
            ".roots[0].uri\n",
        ),
        (
            "ctx",
            "async def project_dir(context):\n"
            "    result = await context.request_context.session.list_roots()\n"
            "    return result.roots[0].uri\n",
            "from pkg._mcp_roots_compat import list_roots_compat\n\n\n"
            "async def project_dir(context, root: str | None = None):\n"
            '    result = await list_roots_compat(context.request_context, root, name="root")\n'
            "    return result.roots[0].uri\n",
        ),
        (
            "ctx.session",
            "import asyncio\n\n"
            "async def project_dir(session):\n"
            "    result = await asyncio.wait_for(session.list_roots(), 5)\n"
            "    return result.roots[0].uri\n",
            "import asyncio\n\nfrom pkg._mcp_roots_compat import list_roots_compat\n\n"
            "async def project_dir(session, root: str | None = None):\n"
            '    result = await asyncio.wait_for(list_roots_compat(session, root, name="root"), 5)\n'
            "    return result.roots[0].uri\n",
        ),
    ],
)
def test_helper_module_without_the_sdk_is_rewritten(tmp_path, arg, helper, helper_after):
    findings = check_transformed(
        tmp_path,
        TOOL.format(arg=arg),
        TOOL_AFTER.format(arg=arg),
        extra={"workspace.py": helper},
        extra_after={"workspace.py": helper_after},
    )
    assert codes(findings) == ["MR101", "MR107"]


def test_bare_list_roots_on_an_untyped_value_is_marked(tmp_path):
    # fastmcp's ctx.list_roots() (a list) or a session's (a ListRootsResult): the helper cannot tell.
    findings = check_noop(
        tmp_path,
        TOOL.format(arg="ctx"),
        extra={"workspace.py": "async def project_dir(ctx):\n    return await ctx.list_roots()\n"},
        write=False,
    )
    assert [(f.code, f.path.rsplit("/", 1)[-1]) for f in findings] == [("MR102", "workspace.py")]
    assert "annotate it" in findings[0].message and findings[0].action.value == "marked"


def test_untyped_helper_reached_by_mcp_code_outside_a_tool_is_marked(tmp_path):
    # A lifespan of the server reads roots through the helper: MCP code, but no request to carry the argument.
    server = """\
        from contextlib import asynccontextmanager
        from mcp.server.fastmcp import FastMCP
        from .workspace import project_dir

        @asynccontextmanager
        async def lifespan(server):
            await project_dir(server.get_context())
            yield

        mcp = FastMCP("x", lifespan=lifespan)
        """
    findings = check_noop(
        tmp_path,
        server,
        extra={"workspace.py": "async def project_dir(ctx):\n    return await ctx.session.list_roots()\n"},
        write=False,
    )
    assert codes(findings) == ["MR103"]


@pytest.mark.parametrize(
    "source",
    [
        "def project_dir(ctx):\n    return ctx.session.list_roots(\n",
        "async def project_dir(ctx):\n  return await ctx.list_roots()\n    x = 1\n",
    ],
)
def test_roots_token_in_a_file_that_does_not_parse_is_unreadable(tmp_path, source):
    (tmp_path / "helpers.py").write_text(source)
    results = run_engine(tmp_path, select=["MR1"])
    assert [(r.path, r.status.value, [f.code for f in r.findings]) for r in results] == [
        ("helpers.py", "failed", ["MR903"])
    ]


# The screen (CPython's parser) in front of libcst for files that never spell mcp: it passes every shape a rule
# can take for MCP there, and holds back moto's (benchmark 1's library tree).
@pytest.mark.parametrize(
    ("source", "parsed"),
    [
        (MOTO[0], False),
        (MOTO[4], False),
        ("class Backend:\n    def list_roots(self):\n        return []\n", False),
        (MOTO[1], True),  # a plain name: the rules decide (here: a value built in the module, not MCP)
        (MOTO[2], True),
        (MOTO[3], True),
        ("async def f(c):\n    return await c.request_context.session.list_roots()\n", True),
        ("async def f(c):\n    return await get_session(c).list_roots()\n", True),
        ("def f(s):\n    return getattr(s, 'list_roots')\n", True),
        ("from .compat import list_roots_compat\n", True),
        ("def f(:\n    x.list_roots()\n", True),  # CPython cannot parse it: libcst reports it
    ],
)
def test_screen(source, parsed):
    assert screen.worth_parsing(textwrap.dedent(source).encode()) is parsed


def test_screened_out_files_are_not_parsed(tmp_path):
    from migrate_roots import codemods
    from migrate_roots.config import Settings
    from migrate_roots.engine import Engine, Options

    for n, source in enumerate([MOTO[0], MOTO[4], MOTO[3]]):
        (tmp_path / f"m{n}.py").write_text(textwrap.dedent(source))
    engine = Engine(Options(settings=Settings(), enabled=codemods.select_codes()))
    assert list(engine.run([tmp_path])) == []
    assert (engine.summary.files_seen, engine.summary.files_parsed) == (3, 1)


@pytest.mark.parametrize("annotation", ["", ": Any", ": Any | None", ": Optional[Any]", ": object"])
def test_untyped_read_in_an_mcp_package_that_no_call_reaches_is_marked(tmp_path, annotation):
    """A tool reaches the read through a method of an object an unannotated function returns
    (`get_service().guidance`), which the plan cannot type (with `-> Service` it can: test_typed_calls.py): in a
    package that imports the SDK the read is MCP's, so it is marked with that reason, never dropped (issue 17:
    a field server's read went silent)."""
    service = f"""\
        from typing import Any, Optional


        class Service:
            async def guidance(self, mcp_ctx{annotation}, workspace: str | None) -> str | None:
                if mcp_ctx:
                    roots_result = await mcp_ctx.session.list_roots()
                    return str(roots_result.roots[0].uri)
                return workspace


        def get_service():
            return Service()
        """
    tool = """\
        from mcp.server.fastmcp import Context, FastMCP
        from .service import get_service

        mcp = FastMCP("x")

        @mcp.tool()
        async def optimize(ctx: Context, workspace: str | None = None) -> str:
            return str(await get_service().guidance(ctx, workspace))
        """
    findings = check_noop(tmp_path, tool, extra={"service.py": service}, write=False)
    assert [(f.code, f.path.rsplit("/", 1)[-1]) for f in findings] == [("MR103", "service.py")]
    assert "called through a value it cannot type" in findings[0].message


def test_noop_untyped_read_in_a_package_without_the_sdk(tmp_path):
    # The same read in a package that never imports the SDK (and that no MCP code reaches): not MCP's.
    root = tmp_path / "proj"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("")
    (root / "lib" / "service.py").write_text(
        "async def guidance(mcp_ctx):\n    return (await mcp_ctx.session.list_roots()).roots\n"
    )
    assert [f for r in run_engine(root, select=["MR1"]) for f in r.findings] == []


@pytest.mark.parametrize(
    "helper",
    [
        "async def project_dir(thing):\n    return await thing.list_roots()\n",
        "async def project_dir(ctx: Any):\n    return await ctx.list_roots()\n",
        "async def project_dir(ctx: Optional[Any] = None):\n    listed = await ctx.list_roots()\n    return listed\n",
        "def project_dir(obj):\n    return obj.list_roots()\n",
    ],
)
def test_bare_list_roots_on_an_untyped_value_in_an_sdk_module_is_marked(tmp_path, helper):
    """In a module that imports the SDK an untyped value is guessed to be the imported (mcp) Context, which has
    no `list_roots`: the call was dropped as the project's own, silently (rule 1). It is fastmcp's Context or a
    session as likely, so it is marked as in a module without the SDK, with no claim about imports."""
    source = (
        "from typing import Any, Optional\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n' + helper
    )
    findings = check_noop(tmp_path, source, write=False)
    assert [f.code for f in findings] == ["MR102"]
    assert "on an untyped value: a fastmcp Context" in findings[0].message
    assert "never imports" not in findings[0].message


def test_noop_a_clients_session_held_on_self_reads_no_roots(tmp_path):
    """`self.session: ClientSession` (a client bridge's): a client has no roots to read; it was taken for a
    server session held on the object and marked MR103 (helpers' sweep, both halves)."""
    source = """\
        from typing import Any, Optional

        from mcp.client.session import ClientSession


        class Bridge:
            def __init__(self) -> None:
                self.session: Optional[ClientSession] = None

            async def handle(self, request: dict[str, Any]) -> Any:
                result = await self.session.list_roots()
                return result.model_dump()
        """
    assert check_noop(tmp_path, source, write=False) == []


def test_self_of_a_function_patched_onto_the_session_class_is_marked(tmp_path):
    """`async def patched(self, notification)`, assigned to `ServerSession._received_notification`: its `self` is
    the session, not a method's own object (helpers' sweep: mcpcn-video-ai-subtitle-mcp). It was silent."""
    source = """\
        import asyncio

        from mcp import types
        from mcp.server.session import ServerSession

        WORKDIR = None


        def install() -> None:
            original = ServerSession._received_notification

            async def patched(self, notification: types.ClientNotification) -> None:
                await original(self, notification)

                async def fetch() -> None:
                    global WORKDIR
                    result = await self.list_roots()
                    WORKDIR = str(result.roots[0].uri)

                asyncio.create_task(fetch())

            ServerSession._received_notification = patched
        """
    findings = check_noop(tmp_path, source, write=False)
    assert [f.code for f in findings] == ["MR102"]
    assert "`self.list_roots()` on an untyped value" in findings[0].message


def test_noop_self_list_roots_in_a_method_of_the_projects_own_class(tmp_path):
    source = """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        class Tree:
            async def list_roots(self):
                return ["/"]

            async def first(self):
                return (await self.list_roots())[0]
        """
    assert check_noop(tmp_path, source, write=False) == []
