"""Stage two of the prefilter follows the import graph: a file joins when it imports a module holding a
function that reaches roots (or the function, or a package re-exporting it), not when it mentions a name."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from migrate_roots import codemods
from migrate_roots.config import Settings
from migrate_roots.engine import Engine, Options
from migrate_roots.follow import Importers, expand

REACHED = {"pkg.workspace.project_dir"}
IMPORTERS = Importers(expand({"pkg.workspace"}, REACHED), REACHED)


def _matches(tmp_path: Path, name: str, text: str) -> bool:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in path.parents:  # `pkg/...` and `pkg/sub/...` are packages
        if folder.name in ("pkg", "sub", "other"):
            (folder / "__init__.py").touch()
    data = textwrap.dedent(text).encode()
    path.write_bytes(data)
    return IMPORTERS.matches(str(path), data)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("app.py", "def find(project_dir):\n    return project_dir.where()\n"),  # mentions, imports nothing
        ("app.py", "from os import path\nimport workspace_tools\n"),
        ("other/mod.py", "from .workspace import project_dir\n"),  # other.workspace: another module
        ("app.py", "# from pkg.workspace import project_dir\n"),
        ("app.py", "from pkg.workspaces import project_dir\nimport pkg.work\n"),
        ("pkg/sub/mod.py", "from .workspace import project_dir\n"),  # pkg.sub.workspace
        ("app.py", "from pkg import other_thing\n"),
    ],
)
def test_does_not_join(tmp_path, name, text):
    assert not _matches(tmp_path, name, text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("app.py", "from pkg.workspace import project_dir\n"),
        ("pkg/server.py", "from .workspace import project_dir\n"),
        ("pkg/server.py", "from . import workspace\n"),
        ("pkg/sub/server.py", "from .. import workspace\n"),
        ("pkg/sub/server.py", "from ..workspace import project_dir as where\n"),
        ("app.py", "from pkg import workspace\n"),
        ("app.py", "import pkg.workspace\n"),
        ("app.py", "import os, pkg.workspace as ws\n"),
        ("app.py", "from pkg import (\n    other,\n    project_dir,\n)\n"),  # re-exported by pkg/__init__
        ("app.py", "from pkg import other, \\\n    project_dir\n"),
        ("app.py", "def where():\n    from pkg.workspace import project_dir\n"),
        (
            "tests/test_x.py",
            'def test(monkeypatch):\n    monkeypatch.setattr("pkg.workspace.project_dir", f)\n',
        ),
    ],
)
def test_joins(tmp_path, name, text):
    assert _matches(tmp_path, name, text)


TOOLS = """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")

    @mcp.tool()
    async def {name}(ctx: Context) -> str:
        return (await ctx.session.list_roots()).roots[0].uri
    """
LIBRARY = """\
    import re

    def find(pattern, text):
        where = re.search(pattern, text)
        return tree(where) if where else get(run(text))
    """


def test_everyday_tool_names_parse_only_the_servers(tmp_path):
    for name in ("find", "tree", "where", "get", "run"):
        (tmp_path / "servers" / name).mkdir(parents=True)
        (tmp_path / "servers" / name / "server.py").write_text(textwrap.dedent(TOOLS.format(name=name)))
    for n in range(30):
        (tmp_path / "lib" / f"m{n}.py").parent.mkdir(exist_ok=True)
        (tmp_path / "lib" / f"m{n}.py").write_text(textwrap.dedent(LIBRARY))
    engine = Engine(Options(settings=Settings(), enabled=codemods.select_codes()))
    results = list(engine.run([tmp_path]))
    assert engine.summary.files_seen == 35
    assert engine.summary.files_parsed == 5
    servers = sorted(Path(r.path).parent.name for r in results if Path(r.path).name == "server.py")
    assert servers == ["find", "get", "run", "tree", "where"]


def test_a_chain_of_helpers_without_the_sdk_is_followed(tmp_path):
    # server.py -> resolve.py -> workspace.py: only workspace.py holds a roots token, and the middle file
    # neither spells mcp nor imports the SDK; each joins by importing the one before.
    from tests.helpers import check_transformed

    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from .resolve import target

        mcp = FastMCP("x")

        @mcp.tool()
        async def find(ctx: Context) -> str:
            return await target(ctx)
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field
        from .resolve import target

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = FastMCP("x")

        @mcp.tool()
        async def find(ctx: Context, root: RootPath = None) -> str:
            return await target(ctx, root=root)
        """,
        extra={
            "resolve.py": "from . import workspace\n\nasync def target(ctx):\n    return await workspace.where(ctx)\n",
            "workspace.py": "async def where(ctx):\n    return (await ctx.session.list_roots()).roots[0].uri\n",
        },
        extra_after={
            "resolve.py": "from . import workspace\n\n"
            "async def target(ctx, root: str | None = None):\n    return await workspace.where(ctx, root=root)\n",
        },
        select=["MR1"],
    )
    assert sorted(f.code for f in findings) == ["MR101", "MR107", "MR107"]


@pytest.mark.parametrize(
    "text",
    [
        "import os\nfrom pkg.workspace import project_dir\n",
        "from pkg import (\n    a,\n    import_b,\n)\nimport c\n",  # a name holding `import` inside a list
        "from pkg import a, \\\n    b\n    import x\n",  # a continued line, then an indented import
        "x = 'import y'\n# import z\nimportlib = 1\n",  # `import` in a string, a comment, a name
        '"""\nimport inside_a_docstring\n"""\nfrom . import here\n',
        "if TYPE_CHECKING:\n\tfrom .a import b; import c\n",
        "no imports at all\n",
        "importimport x\nimport",
    ],
)
def test_import_statements_are_found_as_the_multiline_regex_finds_them(text):
    # `_imports` tries only the lines saying `import`; it must find exactly what `^`-anchored finditer finds.
    from migrate_roots.follow import _IMPORT, _imports

    data = text.encode()
    assert [m.span() for m in _imports(data)] == [m.span() for m in _IMPORT.finditer(data)]
