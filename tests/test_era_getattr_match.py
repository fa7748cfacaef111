"""Era tests spelled through `getattr` or a `match` in front of a roots read (sweep T, r02, mcp 2.x): the
explicit argument must get past them. `getattr(ctx, "protocol_version", "") >= "2026-07-28"` is widened like
`ctx.protocol_version >= ...`; a `match` on the era is marked MR105 (a case pattern is no test to widen)."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = "import os\n\nfrom mcp.server.mcpserver import Context, MCPServer\n\nLIMIT = 5\nmcp = MCPServer('x')\n\n\n"
READ = "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
LEAVE = "        return os.getcwd()\n"


def _run(tmp_path, body: str) -> tuple[str, list]:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "server.py").write_text(HEAD + "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"]) for f in r.findings]
    return (tmp_path / "server.py").read_text(), findings


@pytest.mark.parametrize(
    "test",
    [
        'getattr(ctx, "protocol_version", "") >= LIMIT',  # not a date
        'getattr(ctx, "name", "") >= "2026-07-28"',  # not the era
        'getattr(ctx, "protocol_version") is None',  # no date
    ],
)
def test_noop_a_getattr_beside_no_date_or_no_era_is_no_check(tmp_path, test):
    text, _ = _run(tmp_path, f"    if {test}:\n{LEAVE}{READ}")
    assert f"    if {test}:\n" in text
    assert 'list_roots_compat(ctx, root, name="root")' in text


def test_noop_a_match_on_something_else_is_no_check(tmp_path):
    body = (
        "    match os.environ.get('MODE'):\n        case 'cwd':\n            return os.getcwd()\n"
        "        case _:\n            result = await ctx.session.list_roots()\n"
        "            return str(result.roots[0].uri)\n"
    )
    text, findings = _run(tmp_path, body)
    assert 'list_roots_compat(ctx, root, name="root")' in text
    assert "MR105" not in helpers.codes(findings)


@pytest.mark.parametrize(
    ("body", "test"),
    [
        ("", 'getattr(ctx, "protocol_version", "") >= "2026-07-28"'),
        ("", "getattr(ctx.session, 'protocol_version') == '2026-07-28'"),
        ("", 'getattr(ctx, "protocolVersion", "") not in ("2025-11-25",)'),
        ('    version = getattr(ctx, "protocol_version", None) or "2025-06-18"\n', 'version >= "2026-07-28"'),
        ('    version = getattr(ctx, "protocolVersion", "")\n', 'version >= "2026-07-28"'),
    ],
)
def test_an_era_test_through_getattr_is_widened(tmp_path, body, test):
    text, findings = _run(tmp_path, f"{body}    if {test}:\n{LEAVE}{READ}")
    assert f"    if root is None and {test}:\n" in text
    assert 'list_roots_compat(ctx, root, name="root")' in text
    assert "MR105" not in helpers.codes(findings)


@pytest.mark.parametrize(
    ("before", "subject"),
    [
        ("", "ctx.protocol_version"),
        ("", 'getattr(ctx, "protocol_version", "")'),
        ("    version = ctx.session.protocol_version\n", "version"),
    ],
)
@pytest.mark.parametrize("inside", [True, False])
def test_a_match_on_the_era_is_marked(tmp_path, before, subject, inside):
    if inside:  # the read in the legacy case
        body = (
            f"{before}    match {subject}:\n        case '2026-07-28':\n            return os.getcwd()\n"
            "        case _:\n            result = await ctx.session.list_roots()\n"
            "            return str(result.roots[0].uri)\n"
        )
    else:  # the modern case leaves, the read follows the match
        body = f"{before}    match {subject}:\n        case '2026-07-28' | '2026-09-01':\n{LEAVE}{READ}"
        body = body.replace(LEAVE, "            return os.getcwd()\n")
    text, findings = _run(tmp_path, body)
    assert helpers.codes(findings) == ["MR105"]
    (marker,) = findings
    assert marker.message.startswith(f"`match {subject}:` picks a case by the client's protocol era")
    assert "a 2026-07-28 client passing the path argument is still sent to its era's case" in marker.message
    assert "list_roots_compat" not in text
