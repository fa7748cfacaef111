"""A path argument the server checks, and roots it does not: a new argument must not pass the check by (MR109).

Measured on the field (project-synthesis, promptforge): `handle_prepare` refuses a caller-chosen
`workspace_path` under /etc, /var, /proc, ...; the service below reads the client's roots first and never
checks them. The rewrite added a `root` argument that reached the read unchecked: the caller could name
/etc. Such sites are marked (MR109, with the check and its place); a check that also tests the roots' value,
a check on a non-path parameter, and a checked parameter the plan reuses as the argument are rewritten.
"""

from __future__ import annotations

from functools import partial

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"])
check_transformed = partial(helpers.check_transformed, select=["MR1"])


def _findings(tmp_path, files: dict[str, str]):
    results = helpers.run_engine(helpers.package(tmp_path, files), select=["MR1"], write=False)
    return [
        (f.code, f.action.value, f.path.rsplit("/", 1)[-1], f.message) for r in results for f in r.findings
    ]


READER = """\
    from mcp.server.fastmcp import Context


    async def first_root(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return result.roots[0].uri.path
    """


def test_noop_a_check_on_a_name_that_is_no_path(tmp_path):
    """`if name.startswith("_")` checks a name, not a folder: the tool is rewritten as usual."""
    findings = _findings(
        tmp_path,
        {
            "reader.py": READER,
            "server.py": """\
            from mcp.server.fastmcp import Context, FastMCP

            from .reader import first_root

            mcp = FastMCP("x")


            @mcp.tool()
            async def show(name: str, ctx: Context) -> str:
                if name.startswith("_"):
                    raise ValueError("private")
                return await first_root(ctx) + "/" + name
            """,
        },
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


def test_noop_a_check_that_also_tests_the_roots(tmp_path):
    """The check tests the folder the roots give: the new argument passes through the same check."""
    findings = _findings(
        tmp_path,
        {
            "server.py": """\
            from pathlib import Path

            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("x")


            @mcp.tool()
            async def show(relative: str, ctx: Context) -> str:
                result = await ctx.session.list_roots()
                base = Path(result.roots[0].uri.path).resolve()
                if ".." in relative or str(base).startswith("/etc"):
                    raise ValueError("refused")
                return (base / relative).read_text()
            """,
        },
    )
    assert [f[:2] for f in findings] == [("MR101", "rewritten")]


def test_noop_a_checked_parameter_that_skips_the_roots_is_the_argument(tmp_path):
    """The helper reads roots only when `project_dir` is unset: the checked parameter is the argument (no
    new one), so the check still holds."""
    findings = _findings(
        tmp_path,
        {
            "server.py": """\
            from pathlib import Path

            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("x")


            async def resolve(ctx: Context, explicit: str | None) -> str:
                if explicit:
                    return explicit
                result = await ctx.session.list_roots()
                return result.roots[0].uri.path


            @mcp.tool()
            async def scan(ctx: Context, project_dir: str | None = None) -> str:
                if project_dir and Path(project_dir).resolve().is_relative_to(Path("/etc")):
                    raise ValueError("system folder")
                return await resolve(ctx, project_dir)
            """,
        },
    )
    assert [f[:2] for f in findings] == [("MR101", "rewritten")]


def test_noop_a_filter_on_values_computed_from_a_parameter(tmp_path):
    """semantic-cache's shape: rows found by `query` are filtered by a folder; the rows are other values than
    `query` (not the parameter through path functions), and the folder is the bound side: rewritten."""
    findings = _findings(
        tmp_path,
        {
            "reader.py": READER,
            "server.py": """\
            from pathlib import Path

            from mcp.server.fastmcp import Context, FastMCP

            from .reader import first_root

            mcp = FastMCP("x")


            def lookup(query: str) -> list[str]:
                return []


            @mcp.tool()
            async def search(query: str, ctx: Context, directory: str | None = None) -> list[str]:
                root = await first_root(ctx)
                resolved_dir = Path(directory).resolve() if directory else None
                rows = lookup(query)
                found = [p for p in rows if resolved_dir is None or Path(p).is_relative_to(resolved_dir)]
                return [root + "/" + p for p in found]
            """,
        },
    )
    assert sorted(f[:2] for f in findings) == [("MR101", "rewritten"), ("MR107", "rewritten")]


# The project-synthesis shape (our own spelling): the tool hands its checked `workspace_path` and its context
# to a handler, which passes both to a service; the service prefers the client's roots to the path.
PREPARE = {
    "server.py": """\
        from mcp.server.fastmcp import Context, FastMCP

        from .tools.prepare import handle_prepare

        mcp = FastMCP("x")


        @mcp.tool()
        async def prepare(prompt: str, workspace_path: str | None = None, ctx: Context | None = None) -> str:
            return await handle_prepare(prompt, workspace_path, ctx)
        """,
    "tools/__init__.py": "",
    "tools/prepare.py": """\
        from pathlib import Path

        from mcp.server.fastmcp import Context

        from ..services.enrich import get_service


        async def handle_prepare(prompt: str, workspace_path: str | None, ctx: Context | None) -> str:
            if workspace_path:
                wp = Path(workspace_path).resolve()
                blocked = ("/etc", "/var", "/proc", "/root")
                if any(str(wp).startswith(prefix) for prefix in blocked):
                    raise ValueError("workspace_path points to a system directory")
            service = get_service()
            return await service.enrich(prompt, workspace_path=workspace_path, mcp_ctx=ctx)
        """,
    "services/__init__.py": "",
    "services/enrich.py": """\
        from pathlib import Path
        from typing import Any


        class Enricher:
            async def enrich(self, prompt: str, workspace_path: str | None, mcp_ctx: Any) -> str:
                roots = []
                if mcp_ctx:
                    result = await mcp_ctx.session.list_roots()
                    roots = [Path(r.uri.path) for r in result.roots]
                if not roots and workspace_path:
                    roots = [Path(workspace_path)]
                return prompt + "".join(p.read_text() for p in roots)


        def get_service() -> Enricher:
            return Enricher()
        """,
}


def test_a_checked_path_beside_a_roots_read_three_calls_down_is_marked(tmp_path):
    findings = _findings(tmp_path, PREPARE)
    assert len(findings) == 1, findings
    code, action, path, message = findings[0]
    assert (code, action, path) == ("MR109", "marked", "enrich.py")
    assert message.startswith(
        "`handle_prepare` checks its path argument `workspace_path` with a prefix test on a resolved path "
        "(prepare.py:12); the roots read here are not shown to meet that check before their use: a new `root` "
        "argument could name a folder past it"
    ), message


def test_a_traversal_check_in_the_tool_is_marked(tmp_path):
    """`".." in path` keeps the caller inside the client's root; a caller-chosen root would undo it."""
    findings = _findings(
        tmp_path,
        {
            "reader.py": READER,
            "server.py": """\
            from mcp.server.fastmcp import Context, FastMCP

            from .reader import first_root

            mcp = FastMCP("x")


            @mcp.tool()
            async def show(file_path: str, ctx: Context) -> str:
                if ".." in file_path:
                    return "refused"
                base = await first_root(ctx)
                with open(base + "/" + file_path) as handle:
                    return handle.read()
            """,
        },
    )
    assert [f[:3] for f in findings] == [("MR109", "marked", "reader.py")]
    assert "`show` checks its path argument `file_path` with a `..` test (server.py:10)" in findings[0][3]


def test_a_check_in_a_validator_the_tool_calls_is_marked(tmp_path):
    """The check sits in a helper the tool hands its path to (a call away), spelled with `is_relative_to`."""
    findings = _findings(
        tmp_path,
        {
            "reader.py": READER,
            "server.py": """\
            from pathlib import Path

            from mcp.server.fastmcp import Context, FastMCP

            from .reader import first_root

            mcp = FastMCP("x")
            HOME = Path.home()


            def _validate(candidate: str) -> None:
                if not Path(candidate).resolve().is_relative_to(HOME):
                    raise PermissionError("refused")


            @mcp.tool()
            async def export(out_dir: str, ctx: Context) -> str:
                _validate(out_dir)
                base = await first_root(ctx)
                return f"{base} -> {out_dir}"
            """,
        },
    )
    assert [f[:3] for f in findings] == [("MR109", "marked", "reader.py")]
    assert (
        "`export` checks its path argument `out_dir` with `is_relative_to` (server.py:12)" in findings[0][3]
    )


def test_a_plain_prefix_test_on_a_path_parameter_is_marked_and_laid_out(tmp_path):
    before = """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def build(repo_dir: str, ctx: Context) -> str:
            if repo_dir.startswith("/proc"):
                return "refused"
{mark}            result = await ctx.session.list_roots()
            return str(result.roots[0].uri) + repo_dir
        """
    mark = (
        "            # migrate-roots: MR109: `build` checks its path argument `repo_dir` with a prefix\n"
        "            #   test (server.py:8); the roots read here are not shown to meet that check before\n"
        "            #   their use: a new `root` argument could name a folder past it. Apply the same\n"
        "            #   check to the roots' replacement by hand, then run again\n"
    )
    findings = check_transformed(tmp_path, before.format(mark=""), before.format(mark=mark))
    assert [f.code for f in findings] == ["MR109"]


def test_a_check_below_the_read_names_its_line_and_a_second_run_is_idle(tmp_path):
    """The marker goes above the read and moves the check's line: the second run sees the same marker."""
    before = """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def build(target_path: str, ctx: Context) -> str:
{mark}            result = await ctx.session.list_roots()
            if ".." in target_path:
                raise ValueError("no parent folders")
            return str(result.roots[0].uri) + target_path
        """
    mark = (
        "            # migrate-roots: MR109: `build` checks its path argument `target_path` with a `..`\n"
        "            #   test (server.py:13); the roots read here are not shown to meet that check before\n"
        "            #   their use: a new `root` argument could name a folder past it. Apply the same\n"
        "            #   check to the roots' replacement by hand, then run again\n"
    )
    findings = check_transformed(tmp_path, before.format(mark=""), before.format(mark=mark))
    assert [f.code for f in findings] == ["MR109"]
