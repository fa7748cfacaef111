"""Roots hashed into a key (`_roots_keyed`): the roots choose which stored data a session reaches, so a path
argument in their place would let the caller pick another project's; marked, never rewritten. Noop first."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"])

SERVER = """\
    import hashlib
    import uuid

    from fastmcp import Context, FastMCP

    mcp = FastMCP("notes")
    NOTES: dict[str, list[str]] = {{}}


    def scope_of(root_uri: str | None) -> str:
        if not root_uri:
            return "default"
        return "project:" + hashlib.sha256(root_uri.encode()).hexdigest()[:8]


    async def _scope(ctx: Context) -> str:
        roots = await ctx.list_roots()
        return {scope}


    @mcp.tool
    async def forget_all(ctx: Context) -> int:
        return len(NOTES.pop(await _scope(ctx), []))
    """


def test_noop_a_hash_of_something_else_is_no_key(tmp_path):
    # The roots give a folder; the hash names a cache file of the prompt: rewritten as usual.
    source = SERVER.format(scope='str(roots[0].uri) + hashlib.md5(b"prompt").hexdigest()')
    findings = helpers.run_engine(helpers._layout(tmp_path, source, None, True), select=["MR1"], write=False)
    assert "MR102" in [f.code for r in findings for f in r.findings if f.action.value == "rewritten"]
    assert all("hashes" not in f.message for r in findings for f in r.findings)


@pytest.mark.parametrize(
    "scope",
    [
        "scope_of(str(roots[0].uri) if roots else None)",  # hypermnesia: a module function hashes it
        "hashlib.sha1(str(roots[0].uri).encode()).hexdigest()",
        "str(uuid.uuid5(uuid.NAMESPACE_URL, str(roots[0].uri)))",
        "f'project:{hash(str(roots[0].uri))}'",
    ],
)
def test_roots_hashed_into_a_key_are_marked(tmp_path, scope):
    findings = check_noop(tmp_path, SERVER.format(scope=scope), write=False)
    assert [f.code for f in findings] == ["MR102"]
    assert "this function hashes the roots' URI into a key" in findings[0].message
    assert "would let the caller choose another project's" in findings[0].message


SCOPING = """\
    import hashlib
    from urllib.parse import unquote, urlparse


    def project_id(root_uri: str) -> str:
        path = unquote(urlparse(root_uri).path).rstrip("/")
        return path.rsplit("/", 1)[-1] + "-" + {digest}


    def derive_scope(roots: list[str], override: str | None) -> str:
        if override:
            return "project:" + override
        return "project:" + project_id(roots[0]) if roots else "default"
    """

MEMORY = """\
    from fastmcp import Context, FastMCP

    from pkg.scoping import derive_scope

    mcp = FastMCP("notes")
    NOTES: dict[str, list[str]] = {}


    async def _scope(ctx: Context) -> str:
        result = await ctx.list_roots()
        raw = getattr(result, "roots", result)
        roots = [str(getattr(r, "uri", r)) for r in raw]
        return derive_scope(roots, None)


    @mcp.tool
    async def forget_all(ctx: Context) -> int:
        return len(NOTES.pop(await _scope(ctx), []))
    """


def test_noop_a_uri_handed_to_another_module_that_does_not_hash_it_is_rewritten(tmp_path):
    extra = {"scoping.py": SCOPING.format(digest="str(len(path))")}
    findings = helpers.run_engine(helpers._layout(tmp_path, MEMORY, extra, True), select=["MR1"], write=False)
    assert "MR102" in [f.code for r in findings for f in r.findings if f.action.value == "rewritten"]


def test_a_uri_hashed_in_another_module_through_its_helpers_is_marked(tmp_path):
    # hypermnesia: `roots = [str(getattr(r, "uri", r)) ...]` goes to `derive_project_scope` in scoping.py,
    # which hands it to `project_id_from_root`, which hashes a local made from it: it was rewritten.
    extra = {"scoping.py": SCOPING.format(digest="hashlib.sha256(path.encode()).hexdigest()[:8]")}
    findings = check_noop(tmp_path, MEMORY, extra=extra, write=False)
    assert [f.code for f in findings] == ["MR102"], findings
    assert "this function hands the roots' URI to `derive_scope` (scoping.py:10), which hashes it" in (
        findings[0].message
    )
