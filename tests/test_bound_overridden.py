"""A class of the project that derives from a bounding class and overrides its check (sweep I r03 of session
21): `class Unconfined(Sandbox)` whose `check` returns the path unchecked holds no bound, though its base's
`check` tests `is_relative_to(self.root)` and the inherited `read` calls `self.check`. Before: MR110, naming the
base's check (false), and the tool lost its path argument. An override that calls `super()`, or checks on its
own, still bounds; so does a derived class that overrides some other method only."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

BASE = """\
    class Sandbox:
        def __init__(self, root: Path) -> None:
            self.root = root.resolve()

        def check(self, rel: str) -> Path:
            target = (self.root / rel).resolve()
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{rel} is outside the workspace")
            return target

        def read(self, rel: str) -> str:
            return self.check(rel).read_text()


"""
SERVER = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


{classes}

    async def box_of(ctx: Context) -> Path:
        result = await ctx.session.list_roots()
        return Path(result.roots[0].uri.path)


    @mcp.tool()
    async def read_note(path: str, ctx: Context) -> str:
        box = {made}
        return box.read(path)
"""
UNCHECKED = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            return self.root / rel
"""
UNCHECKED_TWO_DEEP = """\
    class Middle(Sandbox):
        def check(self, rel: str) -> Path:
            return self.root / rel


    class Derived(Middle):
        pass
"""
SUPER = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            print("checking", rel)
            return super().check(rel)
"""
OWN_CHECK = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            target = (self.root / rel).resolve()
            if self.root not in target.parents:
                raise PermissionError(f"{rel} escapes {self.root}")
            return target
"""
OTHER_METHOD = """\
    class Derived(Sandbox):
        def describe(self) -> str:
            return f"notes in {self.root}"
"""
MADE = ["Derived(await box_of(ctx))", "Derived(root=await box_of(ctx))"]


def _run(tmp_path, classes: str, made: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    body = textwrap.indent(textwrap.dedent(BASE + classes), "    ")
    server.write_text(textwrap.dedent(SERVER.format(classes=body.rstrip() + "\n", made=made)))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize("classes", [UNCHECKED, UNCHECKED_TWO_DEEP], ids=["override", "override-two-deep"])
def test_an_override_that_checks_nothing_holds_no_bound(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "async def read_note(path: str, ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize(
    ("classes", "where"),
    [(SUPER, "check"), (OWN_CHECK, "check"), (OTHER_METHOD, "check")],
    ids=["override-calls-super", "override-checks-itself", "overrides-another-method"],
)
def test_a_derived_class_that_still_checks_keeps_the_bound(tmp_path, classes, where, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert f"in `{where}`" in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text
