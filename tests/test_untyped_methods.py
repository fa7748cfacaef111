"""A tool method's call of a roots-reaching method on an attribute of `self` (sweeps C r07 and E r05 of session
20): followed when the class body declares the attribute's type (`paths: Resolver`, built by a classmethod);
else, where the value cannot be typed (a dataclass field, a property), said at the call (MR103) where a method
of that name now takes the argument; and a bound-method tool a project subclass overrides is marked, with the
reads only it reaches. Before, each was silent: the tool kept no argument while its helper took one."""

from __future__ import annotations

import pytest

from tests import helpers

PATHS = """\
from mcp.server.fastmcp import Context


class Resolver:
    @classmethod
    def from_env(cls) -> "Resolver":
        return cls()

    async def workspace(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
"""
HEAD = """\
from dataclasses import dataclass, field

from mcp.server.fastmcp import Context, FastMCP

from .paths import Resolver


"""
TOOL = """
    async def info(self, ctx: Context) -> str:
        return await self.paths.workspace(ctx)


app = App()
mcp = app.mcp


other = FastMCP("other")


@other.tool()
async def where(ctx: Context) -> str:
    return await Resolver().workspace(ctx)
"""
DECLARED = """\
class App:
    paths: Resolver

    def __init__(self) -> None:
        self.mcp = FastMCP("app")
        self.paths = Resolver.from_env()
        self.mcp.tool()(self.info)
"""
FIELD = """\
@dataclass
class App:
    mcp: FastMCP = field(default_factory=lambda: FastMCP("app"))
    paths: Resolver = field(default_factory=Resolver)

    def __post_init__(self) -> None:
        self.mcp.tool()(self.info)
"""
PROPERTY = """\
class App:
    def __init__(self) -> None:
        self.mcp = FastMCP("app")
        self._paths = Resolver()
        self.mcp.tool()(self.info)

    @property
    def paths(self) -> Resolver:
        return self._paths
"""


def _run(tmp_path, cls: str) -> tuple[list, str]:
    root = helpers.package(tmp_path, {"paths.py": PATHS, "server.py": HEAD + cls + TOOL})
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "server.py").read_text()


def test_a_declared_attribute_built_by_a_classmethod_is_followed(tmp_path):
    findings, text = _run(tmp_path, DECLARED)
    assert "async def info(self, ctx: Context, root: RootPath = None) -> str:" in text, text
    assert "return await self.paths.workspace(ctx, root=root)" in text
    assert "MR103" not in helpers.codes(findings)
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("cls", [FIELD, PROPERTY], ids=["dataclass-field", "property"])
def test_a_call_on_a_value_that_cannot_be_typed_is_said(tmp_path, cls):
    findings, text = _run(tmp_path, cls)
    said = [f for f in findings if f.code == "MR103"]
    assert len(said) == 1, findings
    assert said[0].message.startswith("`self.paths.workspace(...)` is handed the context on a value")
    assert "`Resolver.workspace` (paths.py:9) of that name now takes `root`" in said[0].message
    assert "give `info` a path argument" in said[0].message
    assert "async def info(self, ctx: Context) -> str:" in text  # left to the reader of the marker


OVERRIDDEN = """\
from mcp.server.fastmcp import Context, FastMCP


class App:
    def __init__(self) -> None:
        self.mcp = FastMCP("app")
        self.mcp.tool()(self.info)

    async def info(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
"""
VERBOSE = """\
from mcp.server.fastmcp import Context

from .server import App


class VerboseApp(App):
    async def info(self, ctx: Context) -> str:
        return f"workspace: {await super().info(ctx)}"


app = VerboseApp()
mcp = app.mcp
"""


def test_a_bound_method_tool_a_subclass_overrides_is_marked(tmp_path):
    root = helpers.package(tmp_path, {"server.py": OVERRIDDEN, "verbose.py": VERBOSE})
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR103", "marked")], findings
    assert findings[0].message.startswith("`App.info` is overridden by `VerboseApp.info` (verbose.py:7)")
