"""Roots handed, with a path argument, to code migrate-roots does not read (MR109, codemods/_roots_handed_out.py).

Measured on the field (codex-in-claude): the tool passes its `workspace_root` and the client's roots to a
dependency's `resolve_workspace`, which refuses a workspace outside the roots. migrate-roots cannot read it;
the marker named an unrelated check on another argument instead. Such sites are marked with the call and its
module; roots handed to the standard library, to the run's own code, or with no path argument beside them
are rewritten as before.
"""

from __future__ import annotations

import textwrap

from tests import helpers


def _findings(tmp_path, files: dict[str, str]):
    results = helpers.run_engine(helpers.package(tmp_path, files), select=["MR1"], write=False)
    return [
        (f.code, f.action.value, f.path.rsplit("/", 1)[-1], f.message) for r in results for f in r.findings
    ]


def _tool(body: str, imports: str = "") -> dict[str, str]:
    head = "import os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n" + imports
    return {
        "server.py": head
        + textwrap.dedent(
            """
            mcp = FastMCP("x")


            async def client_roots(ctx: Context) -> list[str]:
                result = await ctx.session.list_roots()
                return [str(r.uri) for r in result.roots]


            @mcp.tool()
            async def open_workspace(ctx: Context, workspace_root: str | None = None) -> str:
            """
        )
        + textwrap.indent(textwrap.dedent(body), "    ")
    }


def test_noop_roots_handed_to_the_standard_library(tmp_path):
    findings = _findings(
        tmp_path,
        _tool(
            """\
            roots = await client_roots(ctx)
            return os.path.join(workspace_root or "", *roots)
            """
        ),
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


def test_noop_roots_handed_to_the_runs_own_logger(tmp_path):
    findings = _findings(
        tmp_path,
        _tool(
            """\
            roots = await client_roots(ctx)
            LOG.info("%s %s", workspace_root, roots)
            return roots[0]
            """,
            "import logging\n\nLOG = logging.getLogger(__name__)\n",
        ),
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


def test_noop_roots_handed_out_without_a_path_argument(tmp_path):
    findings = _findings(
        tmp_path,
        _tool(
            """\
            roots = await client_roots(ctx)
            return indexer.build(roots)
            """,
            "import indexer\n",
        ),
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


def test_noop_a_path_argument_handed_out_without_the_roots(tmp_path):
    findings = _findings(
        tmp_path,
        _tool(
            """\
            roots = await client_roots(ctx)
            return indexer.build(workspace_root) + roots[0]
            """,
            "import indexer\n",
        ),
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


def _marked(findings) -> str:
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    return findings[0][3]


def test_a_module_attribute_of_a_dependency(tmp_path):
    """codex-in-claude's shape, in our spelling: `from dep.core import workspace`, positional arguments."""
    message = _marked(
        _findings(
            tmp_path,
            _tool(
                """\
                roots = await client_roots(ctx)
                return workspace.resolve_workspace(workspace_root, roots, os.getcwd())
                """,
                "from pontoon.core import workspace\n",
            ),
        )
    )
    assert message.startswith(
        "`open_workspace` hands the roots, with its path argument `workspace_root`, to `resolve_workspace` "
        "of `pontoon.core.workspace` (server.py:"
    )
    assert "may bound `workspace_root` by the roots" in message
    assert "checks its path argument" not in message


def test_a_name_imported_from_a_dependency_with_keywords(tmp_path):
    message = _marked(
        _findings(
            tmp_path,
            _tool(
                """\
                found = await client_roots(ctx)
                chosen = pick(explicit=os.path.abspath(workspace_root or "."), candidates=found)
                return str(chosen)
                """,
                "from workspaces import pick\n",
            ),
        )
    )
    assert "to `pick` of `workspaces`" in message


def test_handed_out_in_the_function_holding_the_read(tmp_path):
    """The read sits in the tool itself; its result goes to the dependency beside the path argument."""
    files = {
        "server.py": """\
            import scopes
            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("x")


            @mcp.tool()
            async def read_file(ctx: Context, path: str) -> str:
                listed = await ctx.session.list_roots()
                scopes.ensure_inside(path, [r.uri for r in listed.roots])
                with open(path) as handle:
                    return handle.read()
            """,
    }
    message = _marked(_findings(tmp_path, files))
    assert (
        "`read_file` hands the roots, with its path argument `path`, to `ensure_inside` of `scopes`"
        in message
    )


def test_handed_out_by_a_helper_on_the_way(tmp_path):
    """The tool hands its argument to a helper of the run, which hands it with the roots to the dependency."""
    files = {
        "server.py": """\
            from mcp.server.fastmcp import Context, FastMCP

            from .paths import resolve

            mcp = FastMCP("x")


            @mcp.tool()
            async def index(ctx: Context, project_dir: str | None = None) -> str:
                return await resolve(ctx, project_dir)
            """,
        "paths.py": """\
            import dep_paths as dp
            from mcp.server.fastmcp import Context


            async def resolve(ctx: Context, project_dir: str | None) -> str:
                result = await ctx.session.list_roots()
                return dp.choose(project_dir, result.roots)
            """,
    }
    message = _marked(_findings(tmp_path, files))
    assert (
        "`resolve` hands the roots, with its path argument `project_dir`, to `choose` of `dep_paths`"
        in message
    )


def test_a_second_run_adds_nothing_when_the_call_is_below_the_marker(tmp_path):
    """The marker names the hand-off's line, which the marker above it moves: still the same marker."""
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(
        textwrap.dedent(
            """\
            import scopes
            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("x")


            @mcp.tool()
            async def read_file(ctx: Context, path: str) -> str:
                listed = await ctx.session.list_roots()
                scopes.ensure_inside(path, [r.uri for r in listed.roots])
                return path
            """
        )
    )
    first = helpers.run_engine(tmp_path / "proj", select=["MR1"])
    text = (pkg / "server.py").read_text()
    assert "# migrate-roots: MR109:" in text and [
        r.status.value for r in first if r.status.value == "changed"
    ]
    again = helpers.run_engine(tmp_path / "proj", select=["MR1"])
    assert (pkg / "server.py").read_text() == text
    assert not [r for r in again if r.status.value == "changed"]


def test_roots_and_a_request_holding_the_path_handed_to_a_runner_are_marked(tmp_path):
    """oh-my-cassette: `_run_sync(_runtime(ctx).ingest_media, request, roots)`, where `_run_sync` runs the function
    it is given in a thread and `request` is a model holding `source_path`: the method refuses a path outside
    the roots, out of sight. A new argument would have let the caller pick the bound."""
    files = _tool(
        """\
        request = {"workspace_root": workspace_root, "mode": "x"}
        roots = await client_roots(ctx)
        envelope = await _run_sync(_runtime(ctx).ingest, request, roots)
        return str(envelope)
        """,
        imports="import asyncio\n",
    )
    files["server.py"] += textwrap.dedent(
        """

        async def _run_sync(function, *args):
            return await asyncio.to_thread(function, *args)


        def _runtime(ctx: Context):
            return ctx.request_context.lifespan_context
        """
    )
    findings = _findings(tmp_path, files)
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    assert "to `_run_sync` of `pkg.server`" in findings[0][3], findings
    assert "which runs a function value it is given" in findings[0][3], findings


def test_noop_a_request_handed_to_a_plain_function_of_the_run(tmp_path):
    files = _tool(
        """\
        request = {"workspace_root": workspace_root}
        roots = await client_roots(ctx)
        return _describe(request, roots)
        """
    )
    files["server.py"] += "\n\ndef _describe(request, roots):\n    return str(request) + str(roots)\n"
    findings = _findings(tmp_path, files)
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")], findings
