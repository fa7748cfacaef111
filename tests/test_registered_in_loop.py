"""Tools registered from a value on an object the file does not show: `def register(app): for fn in TOOLS:
app.tool(fn)` (also `app.tool()(fn)`, `app.add_tool(fn)`, the list or the loop in another module). The MR103 on
the roots read they reach must not say "none of them a tool" without the hedge the same loop gets on a server
object of the file: "Tools registered from a value migrate-roots cannot follow ..., such as `app.tool(fn)`
(...), may be that way" (sweep L r02 of session 22)."""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

HEAD = """\
from pathlib import Path

from fastmcp import Context, FastMCP
"""
TOOLS = """

async def notes_dir(ctx: Context) -> Path:
    roots = await ctx.list_roots()
    return Path(str(roots[0].uri))


async def list_notes(ctx: Context) -> list[str]:
    return sorted(p.stem for p in (await notes_dir(ctx)).glob("*.md"))


async def count_notes(ctx: Context) -> int:
    return len(list((await notes_dir(ctx)).glob("*.md")))


TOOLS = [list_notes, count_notes]
"""
CREATE = """

def create_app() -> FastMCP:
    app = FastMCP("notes")
    register(app)
    return app
"""
HEDGE = (
    "Tools registered from a value migrate-roots cannot follow to a function, such as `{spelling}` ({where})"
)


def _findings(tmp_path, files):
    root = package(tmp_path, files)
    return [f for r in run_engine(root, select=["MR1"], write=False) for f in r.findings]


def test_noop_named_function_on_an_unresolved_object(tmp_path):
    """`app.tool(list_notes)`: the function is followed, and its server object cannot be resolved (true)."""
    register = "\n\ndef register(app) -> None:\n    app.tool(list_notes)\n"
    findings = _findings(tmp_path, {"server.py": HEAD + TOOLS + register + CREATE})
    assert codes(findings) == ["MR103"], findings
    message = findings[0].message
    assert (
        "is registered by `app.tool(list_notes)` (pkg/server.py:23), whose server object cannot be "
        in message
    )
    assert "Tools registered from a value" not in message, message


def test_noop_no_roots(tmp_path):
    register = "\n\ndef register(app) -> None:\n    for fn in TOOLS:\n        app.tool(fn)\n"
    source = (HEAD + TOOLS + register + CREATE).replace("roots = await ctx.list_roots()", "roots = []")
    assert _findings(tmp_path, {"server.py": source}) == []


@pytest.mark.parametrize(
    ("register", "spelling"),
    [
        ("def register(app) -> None:\n    for fn in TOOLS:\n        app.tool(fn)\n", "app.tool(fn)"),
        ("def register(app) -> None:\n    for fn in TOOLS:\n        app.tool()(fn)\n", "app.tool()(fn)"),
        ("def register(app) -> None:\n    for fn in TOOLS:\n        app.add_tool(fn)\n", "app.add_tool(fn)"),
        ("def register(app, fn) -> None:\n    app.tool(fn)\n", "app.tool(fn)"),  # a parameter's value
        (
            "def register(app) -> None:\n    for i in range(2):\n        app.tool(TOOLS[i])\n",
            "app.tool(TOOLS[i])",
        ),
        # the annotated and module-level spellings, which had the hedge already
        ("def register(app: FastMCP) -> None:\n    for fn in TOOLS:\n        app.tool(fn)\n", "app.tool(fn)"),
    ],
    ids=["loop", "loop-factory", "loop-add-tool", "parameter", "subscript", "annotated"],
)
def test_loop_on_an_unannotated_parameter_keeps_the_hedge(tmp_path, register, spelling):
    findings = _findings(tmp_path, {"server.py": HEAD + TOOLS + "\n\n" + register + CREATE})
    assert codes(findings) == ["MR103"], findings
    message = findings[0].message
    assert "reach only from `list_notes` (pkg/server.py:12), `count_notes` (pkg/server.py:16)" in message, (
        message
    )
    line = 23 if "app, fn" in register else 24
    assert HEDGE.format(spelling=spelling, where=f"pkg/server.py:{line}") + ", may be that way" in message, (
        message
    )


def test_loop_in_another_module(tmp_path):
    """The tools and their list in `tools.py`, the loop on an unannotated parameter in `server.py`."""
    server = (
        "from fastmcp import FastMCP\n\nfrom .tools import TOOLS\n\n\n"
        "def register(app) -> None:\n    for fn in TOOLS:\n        app.tool(fn)\n" + CREATE
    )
    findings = _findings(tmp_path, {"tools.py": HEAD + TOOLS, "server.py": server})
    assert codes(findings) == ["MR103"], findings
    message = findings[0].message
    assert findings[0].path.endswith("tools.py"), findings[0].path
    assert "none of them a tool or called from one" in message, message
    assert HEDGE.format(spelling="app.tool(fn)", where="pkg/server.py:8") + ", may be that way" in message, (
        message
    )


def test_loop_in_a_module_of_its_own(tmp_path):
    """sweep L s4: `register(app)` of a tools module, reached from `register_all(app)` of the package."""
    tools = HEAD + TOOLS + "\n\ndef register(app) -> None:\n    for fn in TOOLS:\n        app.tool(fn)\n"
    init = "from . import notes\n\n\ndef register_all(app) -> None:\n    notes.register(app)\n"
    server = "from fastmcp import FastMCP\n\nfrom .tools import register_all\n\n\nmcp = FastMCP('x')\nregister_all(mcp)\n"
    findings = _findings(tmp_path, {"tools/__init__.py": init, "tools/notes.py": tools, "server.py": server})
    assert codes(findings) == ["MR103"], findings
    message = findings[0].message
    assert (
        HEDGE.format(spelling="app.tool(fn)", where="tools/notes.py:24") + ", may be that way" in message
    ), message
