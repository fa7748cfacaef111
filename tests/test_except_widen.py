"""`except McpError:` around a rewritten roots read keeps catching its failure (codemods/_except_widen.py):
the shim raises RootsArgumentError where the old call raised the SDK's error, so the handler of the innermost
`try` that catches an SDK error gets it added; a handler that reads the error's fields is marked instead.
Noop-like case last: a handler that already catches what the shim raises is left as it is."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes

check_transformed = partial(helpers.check_transformed, select=["MR1"])


def test_sdk_error_handler_also_catches_the_shim_error(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from pathlib import Path

        from fastmcp import Context, FastMCP
        from fastmcp.exceptions import NotFoundError
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")


        async def client_root(ctx: Context) -> Path | None:
            try:
                roots = await ctx.list_roots()
                return Path(str(roots[0].uri)) if roots else None
            except (NotFoundError, McpError):
                return None


        @mcp.tool()
        async def clean(repo_root: str | None = None, ctx: Context | None = None) -> dict:
            found = await client_root(ctx) if ctx else None
            return {"root": str(found or repo_root)}
        """,
        """\
        from pathlib import Path
        from typing import Annotated

        from fastmcp import Context, FastMCP
        from fastmcp.exceptions import NotFoundError
        from mcp.shared.exceptions import McpError
        from pydantic import Field

        from pkg._mcp_roots_compat import RootsArgumentError, list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPaths = Annotated[
            list[str] | None,
            Field(
                description="Absolute paths (or file:// URIs) of the directories this tool may "
                "work in; the first is the main workspace. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = FastMCP("x")


        async def client_root(ctx: Context, root: list[str] | None = None) -> Path | None:
            try:
                roots = await list_roots_compat(ctx, root, name="root", shape="list")
                return Path(str(roots[0].uri)) if roots else None
            except (NotFoundError, McpError, RootsArgumentError):
                return None


        @mcp.tool()
        async def clean(
            repo_root: str | None = None, ctx: Context | None = None, root: RootPaths = None
        ) -> dict:
            found = await client_root(ctx, root=root) if ctx else None
            return {"root": str(found or repo_root)}
""",
    )
    assert codes(findings) == ["MR102", "MR107"]


def test_handler_on_the_way_also_catches_the_shim_error(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")


        async def first(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots[0].uri)


        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                return await first(ctx)
            except McpError:
                return "."
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError
        from pydantic import Field

        from pkg._mcp_roots_compat import RootsArgumentError, list_roots_compat

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


        async def first(ctx: Context, root: str | None = None) -> str:
            return str((await list_roots_compat(ctx, root, name="root")).roots[0].uri)


        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            try:
                return await first(ctx, root=root)
            except (McpError, RootsArgumentError):
                return "."
""",
    )
    assert codes(findings) == ["MR101", "MR107"]


def test_handler_that_reads_the_error_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                return str((await ctx.session.list_roots()).roots[0].uri)
            except McpError as exc:
                if exc.error.code == -32601:
                    return "."
                raise
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                # migrate-roots: MR105: the handler around this call catches the SDK's error and
                #   reads it (`exc.error`); with a path argument a missing one fails with
                #   RootsArgumentError, which has no such field: decide by hand what this
                #   handler should catch
                return str((await ctx.session.list_roots()).roots[0].uri)
            except McpError as exc:
                if exc.error.code == -32601:
                    return "."
                raise
""",
    )
    assert codes(findings) == ["MR105"]


def test_handler_that_already_catches_it_is_left_as_is(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                return str((await ctx.session.list_roots()).roots[0].uri)
            except (McpError, ValueError):
                return "."
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError
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

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            try:
                return str((await list_roots_compat(ctx, root, name="root")).roots[0].uri)
            except (McpError, ValueError):
                return "."
""",
    )
    assert codes(findings) == ["MR101"]


def _tool_with_handlers(handlers: str) -> str:
    return (
        'from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.shared.exceptions import McpError\n\nmcp = FastMCP("x")\n'
        "\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n    try:\n"
        "        return str((await ctx.session.list_roots()).roots[0].uri)\n" + handlers
    )


def test_noop_a_catching_handler_before_the_sdk_errors_is_left_as_is(tmp_path):
    # `except Exception` first meets the old failure and the new one alike.
    handlers = "    except Exception:\n        return '.'\n    except McpError:\n        raise\n"
    root = helpers.package(tmp_path, {"server.py": _tool_with_handlers(handlers)})
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "server.py").read_text()
    assert handlers in text and "RootsArgumentError" not in text, text


def test_the_sdk_errors_handler_before_a_reraising_one_is_widened(tmp_path):
    # bees: `except (NotFoundError, McpError): return None` before `except Exception: raise`. The shim's error
    # would pass the first and be raised by the second, where a client without roots got None.
    handlers = "    except McpError:\n        return '.'\n    except Exception:\n        raise\n"
    root = helpers.package(tmp_path, {"server.py": _tool_with_handlers(handlers)})
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "server.py").read_text()
    assert (
        "    except (McpError, RootsArgumentError):\n        return '.'\n    except Exception:\n" in text
    ), text


CAUGHT_OTHERWISE = """\
import asyncio
import contextlib
import os

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import FastMCPError, ToolError
from mcp.shared.exceptions import McpError

mcp = FastMCP("x")
_PARSE_ERRORS = (OSError, ValueError)
ROOTS_ERRORS = (McpError, TimeoutError)


@mcp.tool()
async def where(ctx: Context) -> str:
{body}
"""


def test_the_sdk_error_caught_where_no_handler_can_be_widened_is_marked(tmp_path):
    # Session 15's sweep C, r05: each used to lose the fallback for a client without roots (a tool error).
    bodies = {
        "suppressed by `contextlib.suppress(McpError)`": (
            "    roots = []\n    with contextlib.suppress(McpError):\n"
            "        roots = (await ctx.session.list_roots()).roots\n"
            "    return str(roots[0].uri) if roots else os.getcwd()"
        ),
        "returned as a value by `asyncio.gather(..., return_exceptions=True)`": (
            "    (found,) = await asyncio.gather(ctx.session.list_roots(), return_exceptions=True)\n"
            "    return os.getcwd() if isinstance(found, McpError) else str(found.roots[0].uri)"
        ),
        "caught by `except ROOTS_ERRORS`, a tuple held in a module constant": (
            "    try:\n        found = await ctx.session.list_roots()\n    except ROOTS_ERRORS:\n"
            "        return os.getcwd()\n    return str(found.roots[0].uri)"
        ),
    }
    for number, (said, body) in enumerate(bodies.items()):
        folder = tmp_path / str(number)
        folder.mkdir()
        findings = helpers.check_noop(folder, CAUGHT_OTHERWISE.format(body=body), select=["MR1"], write=False)
        assert codes(findings) == ["MR105"], (said, findings)
        assert said in findings[0].message


def test_an_except_star_handler_is_widened_too(tmp_path):
    """Sweep F, r02: the read in a TaskGroup, whose errors arrive in a group (`except* McpError:`). Left as it
    was, a client without roots lost the working-directory fallback ("unhandled errors in a TaskGroup")."""
    source = (
        "import asyncio\nimport os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n"
        "from mcp.shared.exceptions import McpError\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "async def workspace(ctx: Context) -> str:\n    try:\n        async with asyncio.TaskGroup() as tg:\n"
        "            task = tg.create_task(ctx.session.list_roots())\n        return str(task.result().roots[0].uri)\n"
        "    except* McpError:\n        return os.getcwd()\n"
    )
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path, select=["MR1"])
    text = (tmp_path / "server.py").read_text()
    assert codes(f for r in results for f in r.findings) == ["MR101"]
    assert "    except* (McpError, RootsArgumentError):\n" in text
    assert "tg.create_task(list_roots_compat(ctx, root" in text


STAR = (
    "import asyncio\nimport os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n"
    "from mcp.shared.exceptions import McpError\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
    "async def workspace(ctx: Context) -> str:\n    try:\n        async with asyncio.TaskGroup() as tg:\n"
    "            task = tg.create_task(ctx.session.list_roots())\n        return str(task.result().roots[0].uri)\n"
    "    except* McpError as group:\n{body}"
)


def test_noop_an_except_star_handler_reading_an_error_of_its_group_is_marked(tmp_path):
    bodies = {
        "`group.exceptions[0].error`": "        print(group.exceptions[0].error.code)\n        return os.getcwd()\n",
        "`e.error`": "        for e in group.exceptions:\n            print(e.error)\n        return os.getcwd()\n",
        "`group.error`": "        print(group.error)\n        return os.getcwd()\n",
    }
    for number, (said, body) in enumerate(bodies.items()):
        folder = tmp_path / str(number)
        folder.mkdir()
        findings = helpers.check_noop(folder, STAR.format(body=body), select=["MR1"], write=False)
        assert codes(findings) == ["MR105"], (said, findings)
        assert f"reads it ({said})" in findings[0].message.replace("\n", " ")


def test_an_except_star_handler_reading_its_group_is_widened(tmp_path):
    """Sweep I, r06 (mcp 1.x, proven with the SDK): under `except*` the name binds the ExceptionGroup whatever
    it holds, so `group.exceptions` is there with the shim's error too; it had been marked MR105 as a field
    RootsArgumentError lacks."""
    body = (
        "        print(len(group.exceptions), group.message, group.split(McpError), group.subgroup(McpError))\n"
        "        return os.getcwd()\n"
    )
    (tmp_path / "server.py").write_text(STAR.format(body=body))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    text = (tmp_path / "server.py").read_text()
    assert codes(f for r in results for f in r.findings) == ["MR101"]
    assert "    except* (McpError, RootsArgumentError) as group:\n" in text


def test_noop_an_except_star_handler_holding_an_item_it_reads_only_as_a_group_part_is_widened(tmp_path):
    # A name holding the group (or a part of it) reads the group's own fields: widened as before.
    body = (
        "        matched, rest = group.split(McpError)\n        first = group.exceptions[0]\n"
        "        print(matched.exceptions, rest, str(first))\n        return os.getcwd()\n"
    )
    (tmp_path / "server.py").write_text(STAR.format(body=body))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    assert codes(f for r in results for f in r.findings) == ["MR101"]
    assert "    except* (McpError, RootsArgumentError) as group:\n" in (tmp_path / "server.py").read_text()


@pytest.mark.parametrize(
    ("said", "body"),
    [
        ("`first.error`", "        first = group.exceptions[0]\n        print(first.error.message)\n"),
        ("`first.error`", "        first = next(iter(group.exceptions))\n        print(first.error)\n"),
        ("`first.error`", "        if (first := group.exceptions[-1]):\n            print(first.error)\n"),
        (
            "`e.error`",
            "        errors = list(group.exceptions)\n        for e in errors:\n            print(e.error)\n",
        ),
        ("`first.error`", "        first, *rest = group.exceptions\n        print(first.error)\n"),
        (
            "`matched.exceptions[0].error`",
            "        matched, _ = group.split(McpError)\n        print(matched.exceptions[0].error)\n",
        ),
    ],
)
def test_an_except_star_handler_reading_an_error_it_holds_in_a_name_is_marked(tmp_path, said, body):
    """Sweep N, r03 (mcp 1.x, proven with the SDK): `first = group.exceptions[0]` then `first.error.message` was
    widened, and a client without roots got "'RootsArgumentError' object has no attribute 'error'"."""
    source = STAR.format(body=body + "        return os.getcwd()\n")
    findings = helpers.check_noop(tmp_path, source, select=["MR1"], write=False)
    assert codes(findings) == ["MR105"], findings
    assert f"reads it ({said})" in findings[0].message.replace("\n", " ")


@pytest.mark.parametrize(
    "handler",
    [
        'raise RuntimeError("this client shares no roots") from exc',
        'logger.warning("no roots: %s", exc)\n                    raise',
    ],
    ids=["raises-its-own", "re-raises"],
)
def test_a_handler_that_raises_is_not_widened(tmp_path, handler):
    """The handler turns the SDK's failure into an error of its own: widened, it would put that error, which
    names no argument, in place of the shim's (session 17's weak point); left alone, the shim's error reaches
    the client."""
    root = helpers.package(
        tmp_path,
        {
            "server.py": f"""\
            import logging

            from mcp.server.fastmcp import Context, FastMCP
            from mcp.shared.exceptions import McpError

            logger = logging.getLogger(__name__)
            mcp = FastMCP("x")


            @mcp.tool()
            async def where(ctx: Context) -> str:
                try:
                    result = await ctx.session.list_roots()
                except McpError as exc:
                    {handler}
                return str(result.roots[0].uri)
            """,
        },
    )
    results = helpers.run_engine(root, select=["MR1"])
    assert codes([f for r in results for f in r.findings]) == ["MR101"]
    text = (root / "pkg" / "server.py").read_text()
    assert "except McpError as exc:" in text and "RootsArgumentError" not in text


NEWLY_CAUGHT = """\
import json
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import FastMCPError, ToolError
from mcp.shared.exceptions import McpError

mcp = FastMCP("x")
_PARSE_ERRORS = (OSError, ValueError)


@mcp.tool()
async def name(ctx: Context) -> str:
    try:
        roots = await ctx.session.list_roots()
        return json.loads(Path(roots.roots[0].uri.path, "package.json").read_text())["name"]
    {handlers}
"""


@pytest.mark.parametrize(
    "handlers",
    [
        "except (McpError, ValueError):\n        return 'none'",
        "except Exception:\n        return 'none'",
        "except OSError:\n        return 'none'",
        "except ValueError:\n        print('bad')\n        raise",
    ],
    ids=["with-sdk-error", "broad", "unrelated", "raises-again"],
)
def test_noop_a_handler_that_met_the_sdk_error_too_is_no_reason_to_mark(tmp_path, handlers):
    root = helpers._layout(tmp_path, NEWLY_CAUGHT.format(handlers=handlers), None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR105" not in codes(found), found


@pytest.mark.parametrize(
    ("handlers", "spelled"),
    [
        ("except (OSError, ValueError):\n        return 'none'", "except (OSError, ValueError)"),
        ("except ValueError as exc:\n        return str(exc)", "except ValueError"),
        (
            "except KeyError:\n        return 'none'\n    except ValueError:\n        return 'x'",
            "except ValueError",
        ),
        ("except _PARSE_ERRORS:\n        return 'none'", "except _PARSE_ERRORS"),
        ("except ToolError:\n        return 'none'", "except ToolError"),
        # an error raised from a handler skips its siblings: the SDK's went through, the shim's is caught
        (
            "except McpError:\n        raise\n    except ValueError:\n        return 'none'",
            "except ValueError",
        ),
        ("except FastMCPError:\n        return 'none'", "except FastMCPError"),
    ],
    ids=[
        "tuple",
        "bound",
        "second",
        "module-constant",
        "sdk-tool-error",
        "sdk-error-raised-first",
        "sdk-base",
    ],
)
def test_a_handler_that_would_newly_catch_the_shim_error_is_marked(tmp_path, handlers, spelled):
    """sweep B r01: rewritten, `except (OSError, ValueError)` swallowed RootsArgumentError, so a legacy client
    without roots got the fallback where it got an McpError, and a modern client never heard of `root`."""
    root = helpers._layout(tmp_path, NEWLY_CAUGHT.format(handlers=handlers), None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR101" not in codes(found), found
    marked = [f.message for f in found if f.code == "MR105"]
    assert marked and marked[0].startswith(f"`{spelled}` around this call would catch RootsArgumentError"), (
        found
    )


def test_a_handler_around_the_call_of_a_helper_that_reads_is_named(tmp_path):
    """sweep D r08 (session 20): the read in a helper, `try/except (OSError, ValueError)` around its call in the
    tool: rewritten, the tool's handler swallowed RootsArgumentError where the SDK's error went through."""
    source = (
        NEWLY_CAUGHT.format(handlers="except OSError:\n        return 'none'")
        .replace(
            "    try:\n        roots = await ctx.session.list_roots()\n",
            "    try:\n        roots = await _workspace(ctx)\n",
        )
        .replace(
            "@mcp.tool()",
            "async def _workspace(ctx: Context):\n    return await ctx.session.list_roots()\n\n\n@mcp.tool()",
        )
        .replace("except OSError:", "except (OSError, ValueError):")
    )
    root = helpers._layout(tmp_path, source, None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    marked = [f.message for f in found if f.code == "MR105"]
    assert "MR101" not in codes(found), found
    assert marked and marked[0].startswith(
        "`except (OSError, ValueError)` around the call of `_workspace` in `name` (server.py:"
    ), found


def test_a_read_under_suppress_of_a_value_error_is_marked(tmp_path):
    """sweep F r02 (session 20): `with contextlib.suppress(OSError, ValueError):` around the read."""
    source = (
        NEWLY_CAUGHT.format(handlers="except KeyError:\n        return 'none'")
        .replace(
            "    try:\n        roots = await ctx.session.list_roots()\n",
            "    try:\n        with contextlib.suppress(OSError, ValueError):\n            roots = await ctx.session.list_roots()\n",
        )
        .replace("import json\n", "import contextlib\nimport json\n")
    )
    root = helpers._layout(tmp_path, source, None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    marked = [f.message for f in found if f.code == "MR105"]
    assert marked and marked[0].startswith(
        "`with contextlib.suppress(OSError, ValueError)` around this call"
    ), found


def test_noop_a_read_whose_error_its_own_function_catches_never_reaches_the_callers_handler(tmp_path):
    """waggle (field, session 20): the helper's `except (NotFoundError, McpError): return None` is widened, so the
    shim's error never leaves it; the tool's `except ValueError` around the helper's call is no reason to mark."""
    source = (
        NEWLY_CAUGHT.format(handlers="except (OSError, ValueError):\n        return 'none'")
        .replace(
            "    try:\n        roots = await ctx.session.list_roots()\n",
            "    try:\n        roots = await _workspace(ctx)\n",
        )
        .replace(
            "@mcp.tool()",
            "async def _workspace(ctx: Context):\n    try:\n        return await ctx.session.list_roots()\n"
            "    except McpError:\n        return None\n\n\n@mcp.tool()",
        )
    )
    root = helpers._layout(tmp_path, source, None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR105" not in codes(found), found
    assert "MR101" in codes(found), found
