"""A root's name made into a path or a key (session 20, sweep B r02: `NOTES / f"{result.roots[0].name}.md"`):
roots made from a path argument have no name, so every call with the argument wrote to `None.md`. Marked
(MR101 beside the read, and through a helper the roots are handed to); listing the names back, or a name
that only labels output, stays rewritable. Noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
import os
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")
NOTES = Path.home() / ".notes"
STORE: dict = {{}}


def slug(text: object) -> str:
    return str(text).lower()


@mcp.tool()
async def save(text: str, ctx: Context) -> str:
    result = await ctx.session.list_roots()
    {use}
"""


def findings(tmp_path, use: str) -> list:
    root = helpers.package(tmp_path, {"server.py": SERVER.format(use=use)})
    return [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]


@pytest.mark.parametrize(
    "use",
    [
        "return f'saved for {result.roots[0].name}: {text}'",
        "return ', '.join(str(r.name) for r in result.roots)",
        "print(result.roots[0].name)\n    return str(NOTES / 'all.md')",
    ],
    ids=["label", "listed", "printed"],
)
def test_noop_a_name_that_only_labels_output_leaves_the_read_rewritable(tmp_path, use):
    assert [(f.code, f.action.value) for f in findings(tmp_path, use)] == [("MR101", "rewritten")]


@pytest.mark.parametrize(
    "use",
    [
        "return str(NOTES / f'{result.roots[0].name}.md')",
        "return os.path.join(str(NOTES), result.roots[0].name)",
        "STORE[result.roots[0].name] = text\n    return text",
        "return str(NOTES / ('notes-' + result.roots[0].name))",
        "return str(Path(NOTES, result.roots[0].name))",
        "for r in result.roots:\n        STORE[f'{r.name}:last'] = text\n    return text",
    ],
    ids=["f-string-path", "os-path-join", "dict-key", "concatenated", "path-call", "loop-key"],
)
def test_a_name_made_into_a_place_is_marked(tmp_path, use):
    found = findings(tmp_path, use)
    assert [(f.code, f.action.value) for f in found] == [("MR101", "marked")], found
    assert "makes a path or key of the roots' names" in found[0].message
    assert "the one place named `None`" in found[0].message


def test_a_name_made_into_a_place_by_the_helper_the_roots_are_handed_to(tmp_path):
    helper = "def place(roots) -> str:\n    return str(NOTES / f'{roots[0].name}.md')\n\n\n"
    source = SERVER.format(use="return place(result.roots)").replace("@mcp.tool()", helper + "@mcp.tool()")
    root = helpers.package(tmp_path, {"server.py": source})
    found = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in found] == [("MR101", "marked")], found
    assert "makes a path or key of their names" in found[0].message


@pytest.mark.parametrize(
    "use",
    [
        "project = result.roots[0]\n    return str(NOTES / f'{project.name}.md')",
        "return str(NOTES / '{}.md'.format(result.roots[0].name))",
        "return STORE.setdefault(result.roots[0].name, text)",
        "return str(NOTES / f\"{result.roots[0].name or 'default'}.md\")",
        "return str(NOTES / str(result.roots[0].name))",
        "return str(NOTES / slug(result.roots[0].name))",
    ],
    ids=["through-a-local-root", "str-format", "setdefault", "or-default", "str-call", "any-function"],
)
def test_more_spellings_of_a_name_made_into_a_place(tmp_path, use):
    """sweep D r12, r13 (session 20)."""
    found = findings(tmp_path, use)
    assert [(f.code, f.action.value) for f in found] == [("MR101", "marked")], found


LABEL = "def label(root) -> str:\n    return str(root.{attr})\n\n\n"


@pytest.mark.parametrize(
    ("attr", "use"),
    [
        ("name", "return f'saved for {label(result.roots[0])}: {text}'"),  # a label of output
        ("uri", "return str(NOTES / label(result.roots[0]))"),  # the helper makes nothing of the name
    ],
    ids=["labels-output", "not-the-name"],
)
def test_noop_a_helper_handed_one_root_that_makes_no_place_of_its_name(tmp_path, attr, use):
    source = SERVER.format(use=use).replace("@mcp.tool()", LABEL.format(attr=attr) + "@mcp.tool()")
    root = helpers.package(tmp_path, {"server.py": source})
    found = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in found] == [("MR101", "rewritten")], found


@pytest.mark.parametrize(
    "use",
    [
        "project = result.roots[0]\n    return str(NOTES / f'{label(project)}.md')",
        "return str(NOTES / label(result.roots[0]))",
        "for r in result.roots:\n        STORE[label(r)] = text\n    return text",
    ],
    ids=["local-root", "subscript", "loop"],
)
def test_a_name_made_into_a_place_through_a_helper_handed_one_root(tmp_path, use):
    """sweep F r11 (session 20): `def label(root): return str(root.name)`, then `NOTES / label(project)`."""
    source = SERVER.format(use=use).replace("@mcp.tool()", LABEL.format(attr="name") + "@mcp.tool()")
    root = helpers.package(tmp_path, {"server.py": source})
    found = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in found] == [("MR101", "marked")], found
    assert "makes a path or key of the roots' names, `label(" in found[0].message


def _marked(tmp_path, use: str, defs: str = "", extra: dict[str, str] | None = None) -> list:
    source = SERVER.format(use=use).replace("@mcp.tool()", defs + "@mcp.tool()")
    root = helpers.package(tmp_path, {"server.py": source, **(extra or {})})
    return [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]


def test_noop_a_name_held_in_a_local_that_only_labels_output(tmp_path):
    found = _marked(tmp_path, "name = result.roots[0].name\n    return f'saved for {name}: {text}'")
    assert [(f.code, f.action.value) for f in found] == [("MR101", "rewritten")], found


@pytest.mark.parametrize(
    ("use", "defs", "extra"),
    [
        (  # the helper makes the path itself (sweep G r01)
            "path = note_path(result.roots[0])\n    return str(path)",
            "def note_path(root) -> Path:\n    return NOTES / f'{root.name}.md'\n\n\n",
            None,
        ),
        (
            "return str(NOTES / label(root=result.roots[0]))",
            LABEL.format(attr="name"),
            None,
        ),  # by keyword (r02)
        (  # in another module of the project (r03)
            "return str(NOTES / label(result.roots[0]))",
            "",
            {"naming.py": "def label(root) -> str:\n    return str(root.name)\n"},
        ),
        (  # a staticmethod (r03)
            "return str(NOTES / Naming.label(result.roots[0]))",
            "class Naming:\n    @staticmethod\n    def label(root) -> str:\n        return str(root.name)\n\n\n",
            None,
        ),
        (
            "return str(NOTES / label(result.roots[0]))",
            "label = lambda root: str(root.name)\n\n\n",
            None,
        ),  # r03
        (  # the name read into a local of the helper (r04)
            "return str(NOTES / label(result.roots[0]))",
            "def label(root) -> str:\n    name = root.name or 'default'\n    return name.lower()\n\n\n",
            None,
        ),
        ("return str(NOTES / label(result.roots[0]).lower())", LABEL.format(attr="name"), None),  # r05
        (
            "name = label(result.roots[0])\n    return str(NOTES / f'{name}.md')",
            LABEL.format(attr="name"),
            None,
        ),
        ("name = result.roots[0].name\n    return str(NOTES / f'{name}.md')", "", None),  # inline local (r05)
    ],
    ids=[
        "helper-makes-the-path",
        "keyword",
        "another-module",
        "staticmethod",
        "lambda",
        "local-in-helper",
        "method-of-result",
        "local-of-call",
        "inline-local",
    ],
)
def test_more_spellings_of_a_name_made_into_a_place_through_a_helper(tmp_path, use, defs, extra):
    """sweep G r01-r05 (session 21)."""
    if extra:
        defs = "from .naming import label\n\n\n"
    found = _marked(tmp_path, use, defs, extra)
    assert [(f.code, f.action.value) for f in found] == [("MR101", "marked")], found
    assert "makes a path or key of the roots' names" in found[0].message


@pytest.mark.parametrize(
    "defs",
    [
        # the name read for a log line only; the path built from the URI (sweep J r02, session 21)
        "def place(root) -> Path:\n    print('using', root.name)\n    return NOTES / Path(str(root.uri)).name\n\n\n",
        # the parameter rebound to the folder: a later `.name` is the folder's
        "def place(root) -> Path:\n    root = Path(str(root.uri))\n    return NOTES / root.name\n\n\n",
    ],
    ids=["log-line-only", "parameter-rebound"],
)
def test_noop_a_helper_that_makes_its_path_of_something_else(tmp_path, defs):
    found = _marked(tmp_path, "return str(place(result.roots[0]))", defs)
    assert [(f.code, f.action.value) for f in found] == [("MR101", "rewritten")], found
