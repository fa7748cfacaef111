"""Roots handed to a function that chooses among them by name or URI host (sweep E, r01: a research server's
`select_cache_root(result.roots)`, which wants the root named `secure-research-cache`): roots made from a path
argument have neither, so the argument could never work. Marked (MR101), as when the names are read beside
the read (tests/test_roots_call.py); noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

{imports}mcp = FastMCP("notes")
{helper}

@mcp.tool()
async def research(query: str, ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return f"{{query}}: {{pick(result.roots)}}"
"""

CHOOSERS = {
    "name test": "def pick(roots) -> str:\n    for r in roots:\n        if r.name == 'notes-cache':\n"
    "            return str(r.uri)\n    raise ValueError('no root named notes-cache')\n",
    "name in a comprehension": "def pick(roots) -> str:\n"
    "    return next(str(r.uri) for r in roots if r.name and r.name.startswith('notes'))\n",
    "host test": "def pick(items) -> str:\n    for r in items:\n        if r.uri.host == 'cache':\n"
    "            return str(r.uri)\n    return ''\n",
}

LISTERS = {
    "names listed back": "def pick(roots) -> str:\n    return ', '.join(str(r.name) for r in roots)\n",
    "first uri": "def pick(roots) -> str:\n    return str(roots[0].uri)\n",
}


def _findings(tmp_path, helper, where):
    if where == "same module":
        files = {"server.py": SERVER.format(imports="", helper="\n\n" + helper)}
    else:
        files = {
            "server.py": SERVER.format(imports="from .choose import pick\n\n", helper=""),
            "choose.py": helper,
        }
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root, select=["MR1"], write=False)
    return [f for r in results for f in r.findings]


@pytest.mark.parametrize("where", ["same module", "another module"])
@pytest.mark.parametrize("helper", sorted(LISTERS))
def test_noop_a_function_that_does_not_choose_by_name_leaves_the_read_rewritable(tmp_path, helper, where):
    findings = _findings(tmp_path, LISTERS[helper], where)
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")], findings


@pytest.mark.parametrize("where", ["same module", "another module"])
@pytest.mark.parametrize("helper", sorted(CHOOSERS))
def test_roots_handed_to_a_function_that_chooses_by_name_are_marked(tmp_path, helper, where):
    findings = _findings(tmp_path, CHOOSERS[helper], where)
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "marked")], findings
    message = findings[0].message
    assert message.startswith("this function hands the roots to `pick`, which "), message
    file = "server.py" if where == "same module" else "choose.py"
    assert f"({file}:" in message
    assert ("have no name" if "name" in helper else "with no host") in message


RETURNED = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")
{helper}

async def client_roots(ctx: Context) -> list:
    result = await ctx.session.list_roots()
    return result.roots


@mcp.tool()
async def research(query: str, ctx: Context) -> str:
    roots = await client_roots(ctx)
    {use}
"""


@pytest.mark.parametrize(
    ("helper", "use", "start"),
    [
        (
            "",
            "return next(str(r.uri) for r in roots if r.name == 'notes-cache')",
            "takes the roots this function",
        ),
        (CHOOSERS["name test"], "return pick(roots)", "hands the roots this function returns to `pick`"),
    ],
)
def test_roots_a_helper_returns_to_a_caller_that_chooses_by_name_are_marked(tmp_path, helper, use, start):
    """Sweep I, r10: the name test in the caller of the helper holding the read (itself, or one call on)."""
    (tmp_path / "server.py").write_text(RETURNED.format(helper="\n\n" + helper if helper else "", use=use))
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "marked")], findings
    assert findings[0].message.startswith("`research` (server.py:") and start in findings[0].message


def test_noop_roots_a_helper_returns_that_the_caller_lists_are_rewritten(tmp_path):
    (tmp_path / "server.py").write_text(
        RETURNED.format(helper="", use="return ', '.join(str(r.uri) for r in roots)")
    )
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"], write=False) for f in r.findings]
    assert all(f.action.value == "rewritten" for f in findings) and findings, findings


def test_noop_names_of_other_roots_or_a_label_with_a_fallback_are_no_choice(tmp_path):
    """Sweep N, r06: a helper that makes a folder of the first root, whose caller reads an index's own `roots`
    by name; and `r.name if r.name else str(r.uri)`, a label."""
    folder = RETURNED.replace("    return result.roots\n", "    return result.roots[0].uri.path\n").format(
        helper="",
        use="index = {'roots': []}\n    for node in index['roots']:\n        if node.name == query:\n"
        "            return node.file\n    return roots",
    )
    label = RETURNED.format(
        helper="", use="return ', '.join(r.name if r.name else str(r.uri) for r in roots)"
    )
    for name, source in (("folder", folder), ("label", label)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "server.py").write_text(source)
        results = helpers.run_engine(tmp_path / name, select=["MR1"], write=False)
        findings = [f for r in results for f in r.findings]
        assert findings and all(f.action.value == "rewritten" for f in findings), (name, findings)
