"""A project's own registrar that hands the SDK the decorated function's own signature is a tool registration
(codemods/program/registrars.py): `@nexus_tool` (a `functools.wraps` wrapper passing `*args, **kwargs` on, then
`_mcp.tool()(wrapper)`; sphinxcontrib-nexus) and `@register_tool(mcp, "name")` (a factory whose decorator
registers `fn` itself; obsidian-mcp-server). Before, their functions were "not a tool" (MR103) and stayed
unmigrated. A registrar that builds another signature keeps the "decorated by" marker. SDK e2e:
tests/e2e/mcp1_registrar.py in tests/test_e2e_decorator.py."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
import functools

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")

{registrar}

@{decorator}
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

WRAPS = """\
def nexus_tool(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await fn(*args, **kwargs)

    return mcp.tool()(wrapper)
"""
BOTH_KINDS = """\
def nexus_tool(fn):
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def async_wrapper(*args, **kwargs):
            return await fn(*args, **kwargs)
        return mcp.tool()(async_wrapper)

    @functools.wraps(fn)
    def sync_wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return mcp.tool()(sync_wrapper)
"""
ADD_THEN_RETURN = """\
def nexus_tool(fn):
    mcp.add_tool(fn, title=fn.__name__)
    return fn
"""
FACTORY = """\
ENABLED = {"where"}


def nexus_tool(server: FastMCP, name: str):
    def decorator(fn):
        if name not in ENABLED:
            return fn
        return server.tool(
            name=name,
            title=name,
        )(fn)

    return decorator
"""
# Registrars that build another signature than the function's own.
OWN_PARAMS = WRAPS.replace(
    "(*args, **kwargs):\n        return await fn(*args, **kwargs)", "(ctx):\n        return await fn(ctx)"
)
SIGNATURE = WRAPS.replace(
    "    return mcp.tool()(wrapper)", "    wrapper.__signature__ = None\n    return mcp.tool()(wrapper)"
)
OTHER_VALUE = WRAPS.replace("mcp.tool()(wrapper)", "mcp.tool()(stamp(wrapper))")
NOTHING = "def nexus_tool(fn):\n    return fn\n"


def _run(tmp_path, registrar: str, decorator: str = "nexus_tool"):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    text = SERVER.format(registrar=textwrap.dedent(registrar), decorator=decorator)
    server.write_text(text.replace("import functools\n", "import functools\nimport inspect\n"))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize(
    "registrar",
    [OWN_PARAMS, SIGNATURE, OTHER_VALUE, NOTHING],
    ids=["wrapper-with-own-params", "signature-set", "registers-another-value", "registers-nothing"],
)
def test_noop_a_registrar_that_builds_another_signature_keeps_the_marker(tmp_path, registrar):
    findings, text = _run(tmp_path, registrar)
    assert [f[:2] for f in findings] == [("MR103", "marked")], findings
    assert "decorated by `@nexus_tool`" in findings[0][2]
    assert "async def where(ctx: Context) -> str:" in text


def test_noop_a_factory_used_bare_is_no_registration(tmp_path):
    findings, _ = _run(tmp_path, FACTORY)
    assert [f[:2] for f in findings] == [("MR103", "marked")], findings


@pytest.mark.parametrize(
    ("registrar", "decorator"),
    [
        (WRAPS, "nexus_tool"),
        (BOTH_KINDS, "nexus_tool"),
        (ADD_THEN_RETURN, "nexus_tool"),
        (FACTORY, 'nexus_tool(mcp, "where")'),
    ],
    ids=["wraps", "async-and-sync-wrappers", "add-tool-then-return", "factory"],
)
def test_a_registrar_that_keeps_the_signature_registers_a_tool(tmp_path, registrar, decorator):
    findings, text = _run(tmp_path, registrar, decorator)
    assert [f[:2] for f in findings] == [("MR101", "rewritten")], findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text
    assert {m for m in helpers.flakes(text) if "imported but unused" not in m} == set()


REGISTRY = """\
from fastmcp import FastMCP

ENABLED = {"where"}


def register_tool(mcp: FastMCP, name: str):
    def decorator(fn):
        if name not in ENABLED:
            return fn
        return mcp.tool(
            name=name,
            title=name,
        )(fn)

    return decorator
"""
TOOLS = """\
from fastmcp import Context, FastMCP

{imports}


def register(mcp: FastMCP) -> None:
    @{decorator}(mcp, "where")
    async def where(ctx: Context) -> list[str]:
        roots = await ctx.list_roots()
        return [str(r.uri) for r in roots]
"""


def _other_module(tmp_path, registry: str, imports: str, decorator: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "registry.py").write_text(registry)
    tools = root / "pkg" / "tools.py"
    tools.write_text(TOOLS.format(imports=imports, decorator=decorator))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], tools.read_text()


def test_noop_a_registrar_of_another_module_on_an_unannotated_parameter_keeps_the_marker(tmp_path):
    """The other module does not show that `mcp` is a server object: not followed (the marker names it)."""
    registry = REGISTRY.replace("mcp: FastMCP", "mcp")
    findings, _ = _other_module(tmp_path, registry, "from .registry import register_tool", "register_tool")
    assert [f[:2] for f in findings] == [("MR103", "marked")], findings
    assert 'decorated by `@register_tool(mcp, "where")`' in findings[0][2]


@pytest.mark.parametrize(
    ("imports", "decorator"),
    [
        ("from .registry import register_tool", "register_tool"),
        ("from pkg.registry import register_tool as tool", "tool"),
    ],
)
def test_a_registrar_of_another_module_registers_a_tool(tmp_path, imports, decorator):
    """obsidian-mcp-server's shape: `@register_tool(mcp, "client.roots")` from `registry.py`, which holds no
    roots token (the run does not parse it: the rule reads it)."""
    findings, text = _other_module(tmp_path, REGISTRY, imports, decorator)
    assert [f[:2] for f in findings] == [("MR102", "rewritten")], findings
    assert "async def where(ctx: Context, root: RootPaths = None) -> list[str]:" in text
    assert {m for m in helpers.flakes(text) if "imported but unused" not in m} == set()


WRAPPING_REGISTRY = """\
import functools

from fastmcp import FastMCP

mcp = FastMCP("x")


def nexus_tool(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await fn(*args, **kwargs)

    return mcp.tool()(wrapper)
"""


@pytest.mark.parametrize("lazy", [False, True], ids=["annotations", "string-annotations"])
def test_a_wrapping_registrar_of_another_module_and_string_annotations(tmp_path, lazy):
    """fastmcp 2 resolves string annotations in the wrapper's module (sweep U, r01): there the new parameter's
    alias is unknown, so with `from __future__ import annotations` the registration is not followed."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "registry.py").write_text(WRAPPING_REGISTRY)
    head = "from __future__ import annotations\n\n" if lazy else ""
    (root / "pkg" / "tools.py").write_text(
        head
        + "from fastmcp import Context\n\nfrom .registry import nexus_tool\n\n\n@nexus_tool\n"
        + "async def where(ctx: Context) -> str:\n    roots = await ctx.list_roots()\n    return str(roots[0].uri)\n"
    )
    results = helpers.run_engine(root, select=["MR1"])
    found = [(f.code, f.action.value) for r in results for f in r.findings if f.path.endswith("tools.py")]
    assert found == ([("MR103", "marked")] if lazy else [("MR102", "rewritten")]), found
