"""A helper method threaded with the path argument that a subclass of the project overrides (sweep G, r05):
called through a value typed as the base, the override got `root=` it did not take, and every call failed once
the subclass was configured. Marked MR103 unless the override reads roots too (then both take it)."""

from __future__ import annotations

import pytest

from tests import helpers

BASE = """\
from mcp.server.fastmcp import Context


class Workspace:
    async def get(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
"""

FIXED = """\


class FixedWorkspace(Workspace):
    async def get(self, ctx: Context) -> str:
        {body}
"""

SERVER = """\
import os

from mcp.server.fastmcp import Context, FastMCP

{imports}

mcp = FastMCP("t")


def make_workspace() -> Workspace:
    return FixedWorkspace() if os.environ.get("FIXED") else Workspace()


workspace: Workspace = make_workspace()


@mcp.tool()
async def where(ctx: Context) -> str:
    return await workspace.get(ctx)
"""


def _run(tmp_path, body, where):
    fixed = FIXED.format(body=body)
    if where == "same module":
        files = {"base.py": BASE + fixed}
        imports = "from .base import FixedWorkspace, Workspace"
    else:
        files = {
            "base.py": BASE,
            "fixed.py": "from mcp.server.fastmcp import Context\n\nfrom .base import Workspace\n" + fixed,
        }
        imports = "from .base import Workspace\nfrom .fixed import FixedWorkspace"
    root = helpers.package(tmp_path, {**files, "server.py": SERVER.format(imports=imports)})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    return [f for r in results for f in r.findings]


@pytest.mark.parametrize("where", ["same module", "another module"])
def test_an_override_that_reads_roots_itself_is_no_call_the_plan_follows(tmp_path, where):
    """Called through the base's type, the override is reached by no call the plan sees: both reads are marked
    (the override's as unreached), none rewritten."""
    body = "result = await ctx.session.list_roots()\n        return str(result.roots[-1].uri)"
    findings = _run(tmp_path, body, where)
    assert [(f.code, f.action.value) for f in findings] == [("MR103", "marked")] * 2, findings
    assert findings[0].message.startswith("`Workspace.get` is overridden by `FixedWorkspace.get`")


@pytest.mark.parametrize("where", ["same module", "another module"])
def test_an_override_that_would_not_take_the_argument_marks_the_read(tmp_path, where):
    findings = _run(tmp_path, "return '/srv/fixed'", where)
    assert [(f.code, f.action.value) for f in findings] == [("MR103", "marked")], findings
    file = "base.py" if where == "same module" else "fixed.py"
    assert findings[0].message.startswith(f"`Workspace.get` is overridden by `FixedWorkspace.get` ({file}:")
