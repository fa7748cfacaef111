"""The registrar itself handed on as a value (sweep N r07 of session 22): `list(map(app.tool, TOOLS))`, or the
bound method under another name (`reg = app.tool; for fn in TOOLS: reg(fn)`), on an unannotated parameter. The
MR103 on the roots read such tools reach lost the hedge `for fn in TOOLS: app.tool(fn)` gets ("Tools registered
from a value migrate-roots cannot follow ..., such as `...` (...), may be that way"). A name bound to the
registrar and called with a function (`reg = mcp.tool; reg(list_notes)`) registers that function."""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine
from tests.test_registered_in_loop import CREATE, HEAD, HEDGE, TOOLS


def _findings(tmp_path, files, write=False):
    root = package(tmp_path, files)
    return [f for r in run_engine(root, select=["MR1"], write=write) for f in r.findings], root


def test_noop_no_roots(tmp_path):
    register = "\n\ndef register(app) -> None:\n    list(map(app.tool, TOOLS))\n"
    source = (HEAD + TOOLS + register + CREATE).replace("roots = await ctx.list_roots()", "roots = []")
    assert _findings(tmp_path, {"server.py": source})[0] == []


def test_noop_a_method_of_another_name_is_no_registrar(tmp_path):
    """`map(app.prompt, ...)`: no tool, so no hedge about tools."""
    register = "\n\ndef register(app) -> None:\n    list(map(app.prompt, TOOLS))\n"
    findings, _ = _findings(tmp_path, {"server.py": HEAD + TOOLS + register + CREATE})
    assert codes(findings) == ["MR103"], findings
    assert "Tools registered from a value" not in findings[0].message, findings[0].message


@pytest.mark.parametrize(
    ("register", "spelling", "line"),
    [
        ("def register(app) -> None:\n    list(map(app.tool, TOOLS))\n", "map(app.tool, TOOLS)", 23),
        (
            "def register(app) -> None:\n    for _ in map(app.add_tool, TOOLS):\n        pass\n",
            "map(app.add_tool, TOOLS)",
            23,
        ),
        (
            "def register(app) -> None:\n    register_all = app.tool\n    for fn in TOOLS:\n        register_all(fn)\n",
            "register_all(fn)",
            25,
        ),
        (
            "def register(app) -> None:\n    reg = app.tool\n    list(map(reg, TOOLS))\n",
            "map(reg, TOOLS)",
            24,
        ),
    ],
    ids=["map", "map-add-tool", "bound-alias", "bound-alias-mapped"],
)
def test_a_registrar_handed_on_keeps_the_hedge(tmp_path, register, spelling, line):
    findings, _ = _findings(tmp_path, {"server.py": HEAD + TOOLS + "\n\n" + register + CREATE})
    assert codes(findings) == ["MR103"], findings
    message = findings[0].message
    assert "reach only from `list_notes` (pkg/server.py:12), `count_notes` (pkg/server.py:16)" in message, (
        message
    )
    assert HEDGE.format(spelling=spelling, where=f"pkg/server.py:{line}") + ", may be that way" in message, (
        message
    )


def test_a_bound_registrar_called_with_a_function_registers_it(tmp_path):
    register = '\n\nmcp = FastMCP("notes")\nreg = mcp.tool\nreg(list_notes)\n'
    findings, root = _findings(tmp_path, {"server.py": HEAD + TOOLS + register}, write=True)
    assert codes(findings) == ["MR102", "MR107"], findings
    text = (root / "pkg" / "server.py").read_text()
    assert "async def list_notes(ctx: Context, root: RootPath = None) -> list[str]:" in text, text
    assert "async def count_notes(ctx: Context) -> int:" in text, text
