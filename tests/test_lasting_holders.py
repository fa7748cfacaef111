"""Objects that outlive the request reached through the project's own functions (sweep P of session 22): a
classmethod singleton (`ProjectBinding.instance()` returning `cls._instance`, r03), a getter of the lifespan
context (`def app_state(ctx): return ctx.request_context.lifespan_context`, r04), and a setter function that
hands its value on to a module global's method (`def bind_project(r): BINDING.bind(r)`, r02). Roots kept on
them are MR212, as on the object itself; a function that builds a fresh object keeps nothing."""

from __future__ import annotations

import pytest

from tests import helpers

STATE = """\
class Binding:
    _instance = None

    def __init__(self) -> None:
        self.root = None

    def is_bound(self) -> bool:
        return self.root is not None

    def bind(self, root) -> None:
        self.root = root

    @classmethod
    def instance(cls) -> "Binding":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @classmethod
    def fresh(cls) -> "Binding":
        return cls()


BINDING = Binding()


def is_bound() -> bool:
    return BINDING.is_bound()


def bind_project(root) -> None:
    BINDING.bind(root)


def log_project(root) -> None:
    print(root)


def app_state(ctx):
    return ctx.request_context.lifespan_context


def new_state(ctx):
    return Binding()
"""
TOOL = """\
from mcp.server.fastmcp import Context, FastMCP

from pkg.state import {imports}

mcp = FastMCP("proj")


@mcp.tool()
async def where(ctx: Context) -> str:
{body}
"""


def findings(tmp_path, imports: str, body: str) -> list:
    root = helpers._layout(tmp_path, TOOL.format(imports=imports, body=body), {"state.py": STATE}, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


READ = "        result = await ctx.session.list_roots()\n"
HELD = {
    "classmethod-singleton": ("Binding", "    b = Binding.instance()\n    if b.root is None:\n"),
    "lifespan-getter": ("app_state", "    b = app_state(ctx)\n    if b.root is None:\n"),
}
FRESH = {
    "classmethod-factory": ("Binding", "    b = Binding.fresh()\n    if b.root is None:\n"),
    "builder-function": ("new_state", "    b = new_state(ctx)\n    if b.root is None:\n"),
}


@pytest.mark.parametrize("case", sorted(FRESH))
def test_noop_an_object_built_per_call_keeps_nothing(tmp_path, case):
    imports, head = FRESH[case]
    found = findings(
        tmp_path, imports, head + READ + "        b.root = str(result.roots[0].uri)\n    return b.root"
    )
    assert "MR212" not in helpers.codes(found), found
    assert "MR101" in helpers.codes(found), found


@pytest.mark.parametrize("case", sorted(HELD))
def test_an_object_a_project_function_keeps_holds_the_roots(tmp_path, case):
    imports, head = HELD[case]
    found = findings(
        tmp_path, imports, head + READ + "        b.root = str(result.roots[0].uri)\n    return b.root"
    )
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("roots kept on `b.root` outlive the request" in f.message for f in found), found


def test_a_setter_function_handing_on_to_a_global_s_method(tmp_path):
    body = (
        "    if not is_bound():\n" + READ + "        bind_project(str(result.roots[0].uri))\n    return 'ok'"
    )
    found = findings(tmp_path, "bind_project, is_bound", body)
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("roots handed to `bind_project()` stay on `BINDING`" in f.message for f in found), found


def test_noop_a_function_that_only_logs_its_value(tmp_path):
    body = (
        "    if not is_bound():\n" + READ + "        log_project(str(result.roots[0].uri))\n    return 'ok'"
    )
    found = findings(tmp_path, "is_bound, log_project", body)
    assert "MR212" not in helpers.codes(found), found
