"""Roots handed to a class chosen at run time (sweep P r01 of session 22): `BOXES[area](<roots>)` with `BOXES =
{"notes": Sandbox, "docs": DocsSandbox}`, `BOXES.get(area, Sandbox)(...)`, `(DocsSandbox if docs else
Sandbox)(...)`, a local bound to such a choice. Before: no callee, no bound; the read was rewritten and a caller's
`root` chose the bound (measured: `{"path": "secret.txt", "root": ["data"]}` read a file outside the client's
root). The call is a call of each candidate: the bound holds if any of them holds one.

A value migrate-roots cannot tell at all (a parameter, a call's result, a collection changed in place) may be a
bounding class when the project has one: the read is marked MR109, not rewritten into the caller's choice."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


    class Sandbox:
        def __init__(self, root: Path) -> None:
            self.root = root.resolve()

        def check(self, rel: str) -> Path:
            target = (self.root / rel).resolve()
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{{rel}} is outside the workspace")
            return target

        def read(self, rel: str) -> str:
            return self.check(rel).read_text()


    class DocsSandbox(Sandbox):
        def __init__(self, root: Path) -> None:
            super().__init__(root / "docs")


    class Plain:
        def __init__(self, root: Path) -> None:
            self.root = root

        def read(self, rel: str) -> str:
            return (self.root / rel).read_text()


    class PlainDocs(Plain):
        def __init__(self, root: Path) -> None:
            super().__init__(root / "docs")


    {table}


    async def box_of(ctx: Context) -> Path:
        result = await ctx.session.list_roots()
        return Path(result.roots[0].uri.path)


    @mcp.tool()
    async def read_note(path: str, ctx: Context, area: str = "notes") -> str:
        where = await box_of(ctx)
{made}
        return box.read(path)
"""
TABLE = 'BOXES = {{"notes": {a}, "docs": {b}}}\nKINDS = [{a}, {b}]'
MADE = {
    "subscript": "box = BOXES[area](where)",
    "get": "box = BOXES.get(area, {a})(where)",
    "get-no-default": "box = BOXES.get(area)(where)",
    "conditional": 'box = ({b} if area == "docs" else {a})(where)',
    "local-conditional": 'cls = {b} if area == "docs" else {a}\nbox = cls(where)',
    "local-branches": 'cls = {a}\nif area == "docs":\n    cls = {b}\nbox = cls(where)',
    "local-subscript": "cls = BOXES[area]\nbox = cls(where)",
    "list": 'box = KINDS[int(area == "docs")](where)',
    "or": "box = (BOXES.get(area) or {a})(where)",
}


def _run(tmp_path, a: str, b: str, made: str, table: str = TABLE, bounding: bool = True):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    body = textwrap.indent(made.format(a=a, b=b), " " * 8)
    # the body is indented past the template's own dedent
    text = textwrap.dedent(SERVER.format(table=table.format(a=a, b=b).replace("\n", "\n    "), made=body))
    if not bounding:  # no class of the project checks anything
        text = text[: text.index("class Sandbox")] + text[text.index("class Plain:") :]
    server.write_text(text)
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize("made", sorted(MADE))
def test_noop_a_choice_among_classes_that_check_nothing_holds_no_bound(tmp_path, made):
    findings, text = _run(tmp_path, "Plain", "PlainDocs", MADE[made])
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert 'path: str, ctx: Context, area: str = "notes", root: RootPath = None' in text
    assert "where = await box_of(ctx, root=root)" in text


@pytest.mark.parametrize("made", sorted(MADE))
@pytest.mark.parametrize(
    ("a", "b"), [("Sandbox", "DocsSandbox"), ("Plain", "Sandbox"), ("DocsSandbox", "Plain")]
)
def test_a_choice_among_classes_holds_the_bound_any_of_them_holds(tmp_path, made, a, b):
    findings, text = _run(tmp_path, a, b, MADE[made])
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")], findings
    assert "roots bound what this tool may touch (`is_relative_to` in `check`)" in findings[0][2]
    assert "result = await allowed_roots_compat(ctx.session)" in text
    assert 'async def read_note(path: str, ctx: Context, area: str = "notes") -> str:' in text


UNKNOWN = {
    # a parameter of a helper: whatever its callers hand it
    "parameter": ("", "box = build(Sandbox if area == 'x' else Plain, where)", "factory"),
    # a call's result, an attribute looked up by name
    "call-result": ("", "box = pick(area)(where)", "pick(area)"),
    "getattr": ("", "box = getattr(KINDS_MOD, area)(where)", "getattr(KINDS_MOD, area)"),
    # a table the module fills in place: its literal is not all it holds
    "changed-table": ('BOXES["extra"] = Plain', "box = BOXES[area](where)", "BOXES[area]"),
}
HELPERS = """\
def build(factory, where: Path):
    return factory(where)


def pick(area: str):
    return Plain


KINDS_MOD = None
"""


@pytest.mark.parametrize("case", sorted(UNKNOWN))
def test_roots_handed_to_a_value_it_cannot_tell_are_marked_when_a_class_holds_a_bound(tmp_path, case):
    extra, made, said = UNKNOWN[case]
    table = 'BOXES = {{"notes": Plain, "docs": PlainDocs}}\n' + extra + "\n\n\n" + HELPERS
    findings, text = _run(tmp_path, "Plain", "PlainDocs", made, table)
    assert [(code, action) for code, action, _ in findings] == [("MR109", "marked")], findings
    message = findings[0][2]
    assert (
        f"roots are handed to `{said}`, a value migrate-roots cannot tell, and `Sandbox` of this" in message
    )
    assert "holds a bound (`is_relative_to` in `check`)" in message
    assert "result = await ctx.session.list_roots()" in text


def test_noop_roots_handed_to_a_value_it_cannot_tell_without_a_bounding_class(tmp_path):
    """No class of the project holds a bound: the value cannot be one, and the read is rewritten as before."""
    table = 'BOXES = {{"notes": Plain}}\n\n\n' + HELPERS
    findings, text = _run(tmp_path, "Plain", "PlainDocs", "box = pick(area)(where)", table, bounding=False)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "where = await box_of(ctx, root=root)" in text
