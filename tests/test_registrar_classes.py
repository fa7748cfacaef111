"""A registrar held by an object: a method of the project's class registers what it decorates on the server
object the instance was built with, possibly through a signature-keeping wrapper of another module
(codemods/program/registrar_classes.py). The field shape (stealth-chrome-devtools-mcp):

    registry = ToolRegistry(mcp)
    section_tool = registry.section_tool
    @section_tool("browser-management")                 # -> self._mcp.tool(with_correlation_id(func))

Before, such tools were "decorated by a registrar the rules do not know" (MR103). A class whose method
registers something else, on something else, or through a wrapper that changes the signature keeps that
marker. SDK e2e: tests/e2e/heldregistrar in tests/test_registrar_classes_e2e.py.
"""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

WRAPPER = """\
    import functools
    import inspect


    def stamped(func):
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args, **kwargs):
                return await func(*args, **kwargs)

            return async_wrapper

        @functools.wraps(func)
        def sync_wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return sync_wrapper
    """
REGISTRY = """\
    from .stamp import stamped


    class ToolRegistry:
        def __init__(self, mcp) -> None:
            self._mcp = mcp

        def section_tool(self, section):
            def decorator(func):
                return self._mcp.tool()(stamped(func))

            return decorator

        def tool(self, func):
            return self._mcp.tool()(func)
    """
SERVER = """\
    from mcp.server.fastmcp import Context, FastMCP

    from .registry import ToolRegistry

    mcp = FastMCP("x")
    registry = ToolRegistry({built})
    section_tool = registry.section_tool


    @{decorator}
    async def where(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
    """


def _run(tmp_path, decorator: str, registry: str = REGISTRY, wrapper: str = WRAPPER, built: str = "mcp"):
    files = {
        "stamp.py": wrapper,
        "registry.py": registry,
        "server.py": SERVER.replace("{decorator}", decorator).replace("{built}", built),
    }
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root, select=["MR1"])
    findings = [(f.code, f.action.value, f.message) for r in results for f in r.findings]
    return findings, (root / "pkg" / "server.py").read_text()


ADDS_A_PARAMETER = WRAPPER.replace("async def async_wrapper(*args", "async def async_wrapper(trace_id, *args")


@pytest.mark.parametrize(
    ("decorator", "registry", "wrapper", "built"),
    [
        ('section_tool("files")', REGISTRY, ADDS_A_PARAMETER, "mcp"),
        ('section_tool("files")', REGISTRY.replace("stamped(func)", "other(func)"), WRAPPER, "mcp"),
        (
            'section_tool("files")',
            REGISTRY.replace("self._mcp.tool()(", "self._other.tool()("),
            WRAPPER,
            "mcp",
        ),
        ('section_tool("files")', REGISTRY, WRAPPER, "settings"),
        ("registry.section_tool", REGISTRY, WRAPPER, "mcp"),
        ('registry.tool("files")', REGISTRY, WRAPPER, "mcp"),
    ],
    ids=[
        "wrapper-adds-a-parameter",
        "unknown-wrapper",
        "another-attribute",
        "built-with-no-server",
        "factory-used-bare",
        "decorator-called",
    ],
)
def test_noop_a_held_registrar_that_cannot_be_proven_keeps_the_marker(
    tmp_path, decorator, registry, wrapper, built
):
    findings, text = _run(tmp_path, decorator, registry, wrapper, built.replace("settings", '{"x": 1}'))
    assert [f[:2] for f in findings] == [("MR103", "marked")], findings
    assert "async def where(ctx: Context) -> str:" in text


@pytest.mark.parametrize(
    "decorator",
    ['section_tool("files")', 'registry.section_tool("files")', "registry.tool"],
    ids=["through-an-alias", "on-the-instance", "decorator-method"],
)
def test_a_held_registrar_registers_a_tool(tmp_path, decorator):
    findings, text = _run(tmp_path, decorator)
    assert [f[:2] for f in findings] == [("MR101", "rewritten")], findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text
    assert {m for m in helpers.flakes(text) if "imported but unused" not in m} == set()


def test_a_held_registrar_of_the_same_module_with_a_local_wrapper(tmp_path):
    """The class and the wrapper in the server's own module; the server passed by keyword."""
    wrapper = WRAPPER.replace("import functools\n    import inspect\n", "")
    registry = REGISTRY.replace("    from .stamp import stamped\n", "").replace(
        "def __init__(self, mcp)", "def __init__(self, mcp=None)"
    )
    server = (
        "import functools\nimport inspect\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        + textwrap.dedent(wrapper)
        + "\n\n"
        + textwrap.dedent(registry)
        + '\n\nmcp = FastMCP("x")\nregistry = ToolRegistry(mcp=mcp)\n\n\n@registry.section_tool("files")\n'
        + "async def where(ctx: Context) -> str:\n"
        + "    result = await ctx.session.list_roots()\n"
        + "    return str(result.roots[0].uri)\n"
    )
    root = helpers.package(tmp_path, {"server.py": server})
    results = helpers.run_engine(root, select=["MR1"])
    assert [(f.code, f.action.value) for r in results for f in r.findings] == [("MR101", "rewritten")]
    assert (
        "async def where(ctx: Context, root: RootPath = None) -> str:"
        in (root / "pkg" / "server.py").read_text()
    )


LAZY = "    from __future__ import annotations\n\n"


@pytest.mark.parametrize(
    "decorator", ['section_tool("files")', 'registry.section_tool("files")'], ids=["alias", "instance"]
)
def test_noop_string_annotations_read_through_a_wrapper_of_another_module_keep_the_marker(
    tmp_path, decorator
):
    """Sweep U, r01: fastmcp 2 resolves the tool's string annotations in the wrapper's module, where the new
    `RootPath` alias is unknown: the migrated server failed to start. Not followed: the marker stays."""
    files = {
        "stamp.py": WRAPPER,
        "registry.py": REGISTRY,
        "server.py": LAZY + SERVER.replace("{decorator}", decorator),
    }
    root = helpers.package(tmp_path, {k: textwrap.dedent(v) for k, v in files.items()})
    results = helpers.run_engine(root, select=["MR1"])
    assert [(f.code, f.action.value) for r in results for f in r.findings] == [("MR103", "marked")]


def test_string_annotations_with_no_wrapper_are_rewritten(tmp_path):
    """`self._mcp.tool()(func)` registers the function itself: its annotations resolve in its own module."""
    files = {
        "stamp.py": WRAPPER,
        "registry.py": REGISTRY,
        "server.py": LAZY + SERVER.replace("{decorator}", "registry.tool").replace("{built}", "mcp"),
    }
    root = helpers.package(tmp_path, {k: textwrap.dedent(v) for k, v in files.items()})
    results = helpers.run_engine(root, select=["MR1"])
    assert [(f.code, f.action.value) for r in results for f in r.findings] == [("MR101", "rewritten")]
