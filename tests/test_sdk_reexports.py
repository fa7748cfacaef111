"""SDK classes imported through a re-export (issue 17) are the classes themselves.

`from mcp.server import ServerRequestContext` is mcp 2.x's `mcp.server.context.ServerRequestContext`, and
`from mcp.server import FastMCP` mcp 1.x's `mcp.server.fastmcp.FastMCP`: the same source spelled either way
migrates the same (modulo that import). The tables behind it are pinned by tests/test_ratchet.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import SERVER, check_noop, check_transformed, codes, run_engine

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lowlevel"

# The mcp 2.x low-level server of tests/fixtures/lowlevel/mcp2_branches.py, whose handler is annotated
# `ctx: ServerRequestContext` and reads `await ctx.session.list_roots()`.
MCP2_IMPORTS = "from mcp.server import Server\nfrom mcp.server.context import ServerRequestContext\n"


def _migrated(tmp: Path, source: str) -> tuple[str, list[str]]:
    pkg = tmp / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(source)
    results = run_engine(tmp)
    return (pkg / "server.py").read_text(), codes(f for r in results for f in r.findings)


@pytest.mark.parametrize(
    "imports",
    [
        "from mcp.server import Server, ServerRequestContext\n",  # the spelling of issue 17
        "from mcp.server import Server\nfrom mcp.server.lowlevel.server import ServerRequestContext\n",
        "from mcp.server.lowlevel import Server\nfrom mcp.server.mcpserver.context import ServerRequestContext\n",
    ],
    ids=["mcp.server", "mcp.server.lowlevel.server", "mcp.server.mcpserver.context"],
)
def test_mcp2_lowlevel_handler_annotated_through_a_reexport(tmp_path, imports):
    before = (FIXTURES / "mcp2_branches.py").read_text()
    after = (FIXTURES / "mcp2_branches.after.py").read_text()
    assert MCP2_IMPORTS in before and MCP2_IMPORTS in after
    canonical = check_transformed(tmp_path / "canonical", before, after)
    findings = check_transformed(
        tmp_path / "reexport", before.replace(MCP2_IMPORTS, imports), after.replace(MCP2_IMPORTS, imports)
    )
    assert codes(findings) == codes(canonical)
    assert "list_roots_compat(" in after


def test_a_project_class_of_the_same_name_is_not_the_sdk_one(tmp_path):
    # Negative control: the name alone does not match, the import does.
    before = (FIXTURES / "mcp2_branches.py").read_text()
    own = "from mcp.server import Server\nfrom pkg.contexts import ServerRequestContext\n"
    extra = {"contexts.py": "class ServerRequestContext:\n    session: object\n"}
    check_noop(tmp_path, before.replace(MCP2_IMPORTS, own), extra=extra)


def test_mcp1_server_imported_from_mcp_server(tmp_path):
    # mcp 1.x exports FastMCP from `mcp.server` too; before, its `@mcp.tool()` was not seen as a tool (MR103).
    canonical_imports = "from mcp.server.fastmcp import Context, FastMCP\n"
    reexported = "from mcp.server import FastMCP\nfrom mcp.server.fastmcp import Context\n"
    assert SERVER.startswith(canonical_imports)
    expected, expected_codes = _migrated(tmp_path / "canonical", SERVER)
    assert "list_roots_compat(" in expected and "MR103" not in expected_codes
    findings = check_transformed(
        tmp_path / "reexport",
        SERVER.replace(canonical_imports, reexported),
        expected.replace(canonical_imports, reexported),
    )
    assert codes(findings) == expected_codes
