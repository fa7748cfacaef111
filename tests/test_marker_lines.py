"""A marker citing a line of its own file cites it as written (`_marker_lines`): the reasons are worded on the
source as read, and the marker itself moves the cited line down (helpers' sweep: git-mcps 0.7.2 cited a blank
line). Findings keep the numbers of the source as read."""

from __future__ import annotations

import re

from migrate_roots.codemods._marker_lines import renumber
from tests import helpers

SOURCE = """\
    from mcp.server import Server


    async def serve() -> None:
        server = Server("demo")

        async def list_repos() -> list[str]:
            async def by_roots() -> list[str]:
                result = await server.request_context.session.list_roots()
                paths = []
                for root in result.roots:
                    paths.append(str(root.uri))
                return paths

            found = await by_roots()
            return found
    """


def test_noop_text_without_markers_or_citations_is_returned_as_is():
    assert renumber("a = 1\n", "a = 2\n", "pkg/server.py") == "a = 2\n"
    text = "# migrate-roots: MR103: see (other.py:3)\nx = 1\n"
    assert renumber("x = 1\n", text, "pkg/server.py") == text  # another file's line is not this file's


def test_a_cited_line_of_the_same_file_is_the_line_as_written(tmp_path):
    findings = helpers.check_noop(tmp_path, SOURCE, select=["MR1"], write=False)
    assert "(pkg/server.py:15)" in findings[0].message  # the finding: the source as read
    root = tmp_path / "written"
    root.mkdir()
    helpers.run_engine(helpers._layout(root, SOURCE, None, True), select=["MR1"])
    written = (root / "proj" / "pkg" / "server.py").read_text().splitlines()
    cited = int(re.search(r"\(pkg/server\.py:(\d+)\)", "\n".join(written)).group(1))
    assert written[cited - 1].strip() == "found = await by_roots()"


def test_a_cache_markers_place_follows_the_new_lines_and_a_second_run_is_idle(tmp_path):
    """MR211's "returned from before the read (server.py:8)" cites its own file: renumbered as written, so the
    second run finds the same marker (it wrote a second one when the text said "(line 8)")."""
    from tests.helpers import run_engine

    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n_cache: dict = {}\n\n\n"
        "async def cached_roots(ctx):\n    if 'r' not in _cache:\n        _cache['r'] = await ctx.session.list_roots()\n"
        "    return _cache['r']\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    r = await ctx.session.list_roots()\n    return str(r.roots[0].uri)\n"
    )
    run_engine(tmp_path)
    first = (tmp_path / "server.py").read_text()
    assert "returned from before the read (server.py:" in first
    run_engine(tmp_path)
    assert (tmp_path / "server.py").read_text() == first
