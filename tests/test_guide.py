"""`migrate-roots guide`: a per-project upgrade guide that reads well to someone new to SEP-2577."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from migrate_roots.cli import app
from tests import helpers
from tests.test_report import SERVER, make_project


def guide(root: Path, *args: str):
    old = os.getcwd()
    os.chdir(root)
    try:
        return CliRunner().invoke(app, ["guide", ".", "--no-progress", "--ignore", "MR2", *args])
    finally:
        os.chdir(old)


def test_guide_for_a_project_with_roots(tmp_path):
    root = make_project(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = guide(root)
    assert result.exit_code == 0, result.output
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before, "guide must write nothing"
    text = result.stdout
    assert not re.search(r"\$\{?[a-z_]+\}?", text), "an unfilled template placeholder"
    # The why: explained from scratch, with the spec's reasoning in two sentences.
    assert text.startswith("# Moving `proj` off MCP roots")
    why = text.split("## What changes, and why", 1)[1].split("##", 1)[0]
    assert "protocol feature\ncalled **roots**" in why
    assert why.index("**roots**") < why.index("SEP-2577")  # the term comes before the jargon
    reasoning = why.split("The specification's reasoning, in two sentences:", 1)[1].split("\n\n", 1)[0]
    assert len(re.findall(r"[.!?](?:\s|$)", reasoning.strip())) == 2
    # Each tool's argument and how clients fill it.
    assert re.search(r"\| `where` \| `pkg/server.py:\d+` \| `root` \(new, optional\) \| absolute path", text)
    assert '"root": "/home/me/project"' in text
    assert "file://" in text and "legacy" in text.lower()
    # The allow-list setting.
    assert "## Keeping the tools inside allowed folders: `MCP_ROOTS_ALLOWED_PATHS`" in text
    assert f'MCP_ROOTS_ALLOWED_PATHS="/home/me/projects{os.pathsep}/srv/data"' in text
    # What remains for a person: the marker and the broken sampling call; deprecated logging listed apart.
    remains = text.split("## What remains for a person", 1)[1].split("## How to verify", 1)[0]
    assert "`MR103` roots-outside-request" in remains and "`MR401` sampling-create-message" in remains
    assert "# migrate-roots: MR103" in remains
    assert "**MR501 context-log** (1)" in remains
    # How to verify: commands to run.
    verify = text.split("## How to verify", 1)[1]
    for command in (
        "migrate-roots apply . --check",
        'grep -rn "# migrate-roots:" .',
        "python -m pytest",
        "migrate-roots verify -- ",
    ):
        assert command in verify


def test_guide_settings_and_output_file(tmp_path):
    root = make_project(tmp_path)
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.migrate-roots]
            allowlist-env = "FILES_ALLOWED_DIRS"
            param-name = "workspace_dir"
            """
        )
    )
    result = guide(root, "--output", "docs/UPGRADE.md")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    text = (root / "docs" / "UPGRADE.md").read_text()
    assert "`FILES_ALLOWED_DIRS`" in text and "MCP_ROOTS_ALLOWED_PATHS" not in text
    assert '"workspace_dir": "/home/me/project"' in text


def test_guide_for_a_clean_project(tmp_path):
    root = make_project(tmp_path, "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n")
    text = guide(root).stdout
    assert "No tool needs a new argument" in text
    assert "Nothing in the roots migration" in text
    assert "No use of deprecated sampling or logging was found." in text


def test_guide_template_has_every_section():
    from importlib.resources import files

    template = (files("migrate_roots.templates") / "guide.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", template, flags=re.M)
    assert headings == [
        "What changes, and why",
        "Each tool's new argument",
        "Keeping the tools inside allowed folders: `$allowlist_env`",
        "What remains for a person",
        "How to verify",
    ]
    assert SERVER  # the fixture shared with the report tests


def test_guide_names_the_tools_whose_bound_is_the_variable(tmp_path):
    """MR110's reads take no argument: the guide says the variable is their bound on 2026-07-28 requests."""
    text = guide(make_project(tmp_path, helpers.BOUND_SERVER)).stdout
    section = text.split("## Keeping the tools inside allowed folders", 1)[1].split("\n## ", 1)[0]
    assert "the tool takes no argument: the caller must not choose its own bound" in section
    assert "| `pkg/server.py:10` | `view` |" in section
    assert "No tool needs a new argument" in text


def test_guide_without_bounds_has_no_bound_paragraph(tmp_path):
    text = guide(make_project(tmp_path)).stdout
    assert "`allowed_roots_compat`" not in text
    assert "\n\n\n" not in text


KEPT_HANDLER = """\
from mcp import types
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")

_seen: list[str] = []


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


@mcp.tool()
async def history() -> list[str]:
    return _seen


async def on_roots_changed(notification: types.RootsListChangedNotification) -> None:
    _seen.append("changed")


mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = on_roots_changed
"""


def test_markers_apply_leaves_are_left_for_a_person_whatever_their_severity(tmp_path):
    """Sweep H, r06: kept list_changed handlers (MR202, deprecated) were "sampling or logging" that still
    works, and the guide said nothing was left, while `apply` left two markers."""
    root = make_project(tmp_path, KEPT_HANDLER)
    old = os.getcwd()
    os.chdir(root)
    try:
        text = CliRunner().invoke(app, ["guide", ".", "--no-progress"]).stdout
    finally:
        os.chdir(old)
    assert "2 places need a person (listed below), and 0 uses of deprecated sampling or logging" in text
    section = text.split("## What remains for a person", 1)[1].split("\n## ", 1)[0]
    assert section.count("`MR202`") == 2 and "Nothing in the roots migration" not in section
