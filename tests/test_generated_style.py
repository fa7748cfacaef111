"""What we write fits the project's own style: line length, exploded signatures, typed helper parameters.

Each migrated file is checked with ruff's `I` and `E501` rules under the project's configuration.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import libcst as cst

from migrate_roots.codemods import _markers
from tests import helpers

BEFORE = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


async def _root_of(
    ctx: Context,
    label: str
) -> str:
    result = await ctx.session.list_roots()
    return label + str(result.roots[0].uri)


async def startup(ctx: Context) -> None:
    print(await ctx.session.list_roots())


@mcp.tool()
async def where(
    ctx: Context,
    label: str
) -> dict:
    return {"r": await _root_of(ctx, label)}
"""
AFTER_60 = """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots
        # (deprecated in MCP 2026-07-28, SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the "
                "directory this tool works in, usually the project "
                "or workspace root. Required when the MCP client "
                "does not provide roots."
            ),
        ]

        mcp = FastMCP("x")


        async def _root_of(
            ctx: Context,
            label: str,
            root: str | None = None
        ) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return label + str(result.roots[0].uri)


        async def startup(ctx: Context) -> None:
            # migrate-roots: MR103: roots read in `startup`, which
            #   is not a tool and which no call migrate-roots can
            #   follow reaches (unused, a handler, called from
            #   outside the package, or called through a value it
            #   cannot type, such as a method of an object a
            #   function returns): if a tool reaches it, give that
            #   tool a path argument by hand
            print(await ctx.session.list_roots())


        @mcp.tool()
        async def where(
            ctx: Context,
            label: str,
            root: RootPath = None
        ) -> dict:
            return {"r": await _root_of(ctx, label, root=root)}
"""


def _ruff(folder: Path, target: str = ".") -> str:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "I,E501,W291,W293", target],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    return out.stdout + out.stderr


def test_line_length_exploded_signatures_and_typed_helpers(tmp_path):
    """The project's line length (60 here) for the markers and the alias; parameters added to exploded
    signatures on their own line, indented like their siblings; the helper's parameter typed."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("[tool.ruff]\nline-length = 60\n")
    helpers.check_transformed(tmp_path, BEFORE, AFTER_60, select=["MR1"])
    # (the shim is laid out for 88 columns, the default: it is checked in the next test)
    found = _ruff(tmp_path / "proj", "pkg/server.py")
    assert "All checks passed" in found, found


def test_black_line_length_and_the_default(tmp_path):
    for name, config, width in (("black", "[tool.black]\nline-length = 70\n", 70), ("none", "", 88)):
        proj = tmp_path / name / "proj"
        proj.mkdir(parents=True)
        if config:
            (proj / "pyproject.toml").write_text(config)
        (proj / "pkg").mkdir()
        (proj / "pkg" / "__init__.py").write_text("")
        (proj / "pkg" / "server.py").write_text(BEFORE)
        helpers.run_engine(proj, select=["MR1"])
        text = (proj / "pkg" / "server.py").read_text()
        assert max(map(len, text.splitlines())) <= width
        assert "#   " in text  # the marker did need wrapping
        if not config:  # ruff's own default is 88 as well
            assert "All checks passed" in _ruff(proj), _ruff(proj)


def test_old_targets_spell_the_helper_type_with_typing(tmp_path):
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(BEFORE)
    helpers.run_engine(proj, select=["MR1"], settings={"target-version": "3.8"})
    text = (proj / "pkg" / "server.py").read_text()
    assert "    root: Optional[str] = None\n" in text
    assert "from typing import Optional\n" in text
    assert helpers.flakes(text) == set()


def test_a_wrapped_marker_reads_back_as_one():
    text = "# migrate-roots: MR103: " + "word " * 30
    lines = _markers.lines(text.strip(), 40)
    assert len(lines) > 3 and all(len(line) <= 40 for line in lines)
    assert all(line.startswith(_markers.CONTINUATION) for line in lines[1:])
    leading = [cst.EmptyLine(comment=cst.Comment(line)) for line in lines]
    assert _markers.read(leading) == {_markers.normal(text)}
    # a plain comment after it is not part of it; a second marker starts its own
    other = [cst.EmptyLine(comment=cst.Comment("# migrate-roots: MR218: short")), cst.EmptyLine()]
    assert _markers.read([*leading, *other]) == {_markers.normal(text), "# migrate-roots: MR218: short"}


def test_a_signature_grown_too_long_is_laid_out_as_ruff_format_would(tmp_path):
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n'
        "async def _a_helper_with_a_rather_long_name(ctx: Context, project_directory: str) -> str:\n"
        "    result = await ctx.session.list_roots()\n"
        "    return str(result.roots[0].uri)\n\n\n"
        "@mcp.tool()\n"
        "async def where(ctx: Context, label: str) -> str:\n"
        "    return await _a_helper_with_a_rather_long_name(ctx, label)\n"
    )
    helpers.run_engine(proj, select=["MR1"])
    text = (proj / "pkg" / "server.py").read_text()
    assert (
        "async def _a_helper_with_a_rather_long_name(\n"
        "    ctx: Context, project_directory: str, root: str | None = None\n"
        ") -> str:\n"
    ) in text
    assert "All checks passed" in _ruff(proj), _ruff(proj)
    assert not [r for r in helpers.run_engine(proj, select=["MR1"]) if r.status.value == "changed"]


def test_a_rerun_types_the_helper_from_the_tools_own_alias(tmp_path):
    """An interrupted run left the tool with `root: RootPath = None` and the helper untouched: the rerun
    types the helper `str | None`, as the first run would have, not the broad union for unknown types."""
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(
        "from typing import Annotated\n\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "from pydantic import Field\n\n"
        'RootPath = Annotated[str | None, Field(description="The directory.")]\n\n'
        'mcp = FastMCP("x")\n\n\n'
        "async def first_dir(ctx: Context) -> str:\n"
        "    result = await ctx.session.list_roots()\n"
        "    return str(result.roots[0].uri)\n\n\n"
        "@mcp.tool()\n"
        "async def where(ctx: Context, root: RootPath = None) -> str:\n"
        "    return await first_dir(ctx)\n"
    )
    helpers.run_engine(proj, select=["MR1"])
    text = (proj / "pkg" / "server.py").read_text()
    assert "async def first_dir(ctx: Context, root: str | None = None) -> str:" in text, text
    assert "return await first_dir(ctx, root=root)" in text, text


def test_low_level_fixtures_gain_no_line_over_the_line_length():
    """The low-level rule's schema property (a module constant), call-site keywords, shim calls, copied
    schemas and model fields stay within 88 columns (issue 19: its fixtures went from 14 lines over 88 to 38)."""
    from pathlib import Path

    fixtures = Path(__file__).resolve().parent / "fixtures" / "lowlevel"
    grown = {}
    for before in sorted(fixtures.glob("*.py")):
        if before.stem.endswith(".after"):
            continue
        after = before.with_name(f"{before.stem}.after.py")
        count = [sum(len(line) > 88 for line in p.read_text().splitlines()) for p in (before, after)]
        if count[1] > count[0]:
            grown[before.name] = count
    assert grown == {}


def test_a_comment_at_the_end_of_the_last_parameter_stays_on_its_line(tmp_path):
    """code-atlas: `ctx: Context = None,  # type: ignore[assignment]` as the last parameter; the new one went
    below it and took the comment along (the ignore then applied to the wrong line), with or without a
    trailing comma."""
    before = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n'
        "@mcp.tool()\nasync def where(\n    name: str,\n    ctx: Context = None,  # type: ignore[assignment]\n"
        ") -> str:\n    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri) + name\n\n\n"
        "@mcp.tool()\nasync def there(\n    name: str,\n    ctx: Context = None  # type: ignore[assignment]\n"
        ") -> str:\n    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri) + name\n"
    )
    root = helpers._layout(tmp_path, before, None, True)
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "server.py").read_text()
    assert (
        text.count("    ctx: Context = None,  # type: ignore[assignment]\n    root: RootPath = None") == 2
    ), text
    assert "root: RootPath = None,  #" not in text and "root: RootPath = None  #" not in text


SIMPLE = """\
\"\"\"A small server.\"\"\"

from typing import Any

from mcp.server.fastmcp import Context
from mcp.server.fastmcp import FastMCP


mcp = FastMCP("demo")


@mcp.tool()
async def where(ctx: Context) -> Any:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""


def _project(tmp_path: Path, configs: dict[str, str], source: str = BEFORE) -> Path:
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    for name, text in configs.items():
        (proj / name).write_text(text)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(source)
    helpers.run_engine(proj, select=["MR1"])
    return proj


def test_flake8_and_isort_line_lengths_are_the_projects_without_ruff_or_black(tmp_path):
    """Sweep H, r02: a setup.cfg project at 79 columns got 88-column lines (four new E501 under flake8)."""
    for name, config in (
        ("setup.cfg", "[flake8]\nmax-line-length = 72\n"),
        (".flake8", "[flake8]\nmax_line_length = 72\n"),
        ("tox.ini", "[pycodestyle]\nmax-line-length = 72\n"),
        ("setup.cfg", "[isort]\nline_length = 72\n"),
    ):
        proj = _project(tmp_path / name.replace(".", "_") / config[1:4], {name: config})
        text = (proj / "pkg" / "server.py").read_text()
        assert max(map(len, text.splitlines())) <= 72, (name, config)


def test_a_shim_for_another_line_length_keeps_the_projects_checks_off(tmp_path):
    """Sweep H, r03: the compatibility module is laid out for 88 columns; at 79 it had 85 E501 and failed the
    project's `ruff format --check`. It now says so and carries the formatter's and linters' off switches."""
    proj = _project(tmp_path / "79", {"pyproject.toml": "[tool.ruff]\nline-length = 79\n"})
    shim = (proj / "pkg" / "_mcp_roots_compat.py").read_text()
    assert "# Laid out for 88 columns by migrate-roots; this project uses 79.\n" in shim
    assert "# fmt: off\n# ruff: noqa: E501\n# flake8: noqa\n" in shim
    check = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "pkg/_mcp_roots_compat.py"],
        cwd=proj,
        capture_output=True,
    )
    assert check.returncode == 0, check.stdout
    assert "All checks passed" in _ruff(proj, "pkg"), _ruff(proj, "pkg")
    # At 88 the module is as it is: nothing to switch off.
    plain = _project(tmp_path / "88", {})
    assert "# fmt: off" not in (plain / "pkg" / "_mcp_roots_compat.py").read_text()


def test_isort_single_lines_and_blank_lines_after_imports_are_kept(tmp_path):
    """Sweep H, r01: `force-single-line` and `lines-after-imports = 2` were ignored (a new I001)."""
    config = (
        "[tool.ruff]\nline-length = 88\n\n[tool.ruff.lint.isort]\nforce-single-line = true\n"
        "lines-after-imports = 2\n"
    )
    proj = _project(tmp_path, {"pyproject.toml": config}, SIMPLE)
    text = (proj / "pkg" / "server.py").read_text()
    assert "from typing import Annotated\nfrom typing import Any\n" in text
    assert "from pkg._mcp_roots_compat import list_roots_compat\n\n\n# Explicit" in text
    assert "All checks passed" in _ruff(proj, "pkg/server.py"), _ruff(proj, "pkg/server.py")


def test_noop_the_shim_keeps_its_grouped_imports_without_single_lines(tmp_path):
    proj = _project(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 88\n"})
    shim = (proj / "pkg" / "_mcp_roots_compat.py").read_text()
    assert "    from mcp.types import ListRootsResult, Root\n" in shim


def test_the_shim_has_one_name_an_import_under_single_lines_and_stays_on_a_rerun(tmp_path):
    """Sweep I, r14: under `force-single-line = true` the compatibility module itself failed `ruff check`
    (I001 twice: its `from x import a, b` lines); the project's own files were fine."""
    config = (
        "[tool.ruff]\nline-length = 88\n\n[tool.ruff.lint]\nselect = ['E', 'F', 'I']\n\n"
        "[tool.ruff.lint.isort]\nforce-single-line = true\n"
    )
    proj = _project(tmp_path, {"pyproject.toml": config}, SIMPLE)
    shim = proj / "pkg" / "_mcp_roots_compat.py"
    text = shim.read_text()
    assert "    from mcp.types import ListRootsResult\n    from mcp.types import Root\n" in text
    assert "from typing import TYPE_CHECKING\nfrom typing import Literal\n" in text
    assert not re.search(r"^ *from \S+ import \w+,", text, re.M)
    for command in (
        ["check", "--no-cache", "pkg"],
        ["format", "--check", "--no-cache", "pkg/_mcp_roots_compat.py"],
    ):
        found = subprocess.run(
            [sys.executable, "-m", "ruff", *command], cwd=proj, capture_output=True, text=True
        )
        assert found.returncode == 0, found.stdout
    results = helpers.run_engine(proj, select=["MR1"])
    assert not [f for r in results for f in r.findings if f.code == "MR906"]
    assert shim.read_text() == text


def test_markers_in_a_tab_indented_file_fit_with_tabs_counted_as_ruff_counts_them(tmp_path):
    """Sweep H, r09: a tab counted as one column, so markers under two tabs ran past 79."""
    source = BEFORE.replace("    ", "\t")
    proj = _project(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 79\n"}, source)
    text = (proj / "pkg" / "server.py").read_text()
    markers = [
        line for line in text.splitlines() if line.lstrip().startswith("# migrate-roots:") or "#   " in line
    ]
    assert markers, text
    assert max(len(line.expandtabs(4)) for line in markers) <= 79


def test_a_longer_flake8_maximum_does_not_widen_what_we_write(tmp_path):
    """gr-mcp (field check): `[flake8] max-line-length = 120` in tox.ini beside black (88) and a pre-commit
    flake8 at 88: lines written to 120 were new E501s. A linter's maximum never widens past 88."""
    proj = _project(tmp_path, {"tox.ini": "[flake8]\nmax-line-length = 120\n"})
    text = (proj / "pkg" / "server.py").read_text()
    assert max(map(len, text.splitlines())) <= 88
    assert "# fmt: off" not in (proj / "pkg" / "_mcp_roots_compat.py").read_text()
