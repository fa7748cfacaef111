"""Where a project's imports start: the package chain stops at the project's root folder.

A repository root that holds a stray `__init__.py` beside its `pyproject.toml` (telegram-mcp's) is no package:
before, the real package `telegram_mcp` became `tree.telegram_mcp` (named after the checkout) and the shim's
import `from tree._mcp_roots_compat import ...` could not be resolved by any run of the server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate_roots.engine_walk import package_info
from tests import helpers

READ = (
    "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
    "@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
    "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
)


def _repo(tmp_path: Path, name: str, marker: str | None) -> Path:
    repo = tmp_path / name
    (repo / "telegram_mcp").mkdir(parents=True)
    (repo / "__init__.py").write_text("")
    if marker == ".git":
        (repo / ".git").mkdir()
    elif marker == "setup.py":
        (repo / marker).write_text("from setuptools import setup\n\nsetup(name='x')\n")
    elif marker is not None:
        (repo / marker).write_text("")
    (repo / "telegram_mcp" / "__init__.py").write_text("")
    (repo / "telegram_mcp" / "runtime.py").write_text(READ)
    return repo


def test_noop_a_plain_package_keeps_its_chain(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "mod.py").write_text("")
    module, package, root = package_info(tmp_path / "pkg" / "sub" / "mod.py")
    assert (module, package, root) == ("pkg.sub.mod", "pkg.sub", str((tmp_path / "pkg").resolve()))


@pytest.mark.parametrize(
    ("name", "marker"),
    [
        ("tree", "pyproject.toml"),
        ("tree", "setup.py"),
        ("tree", "setup.cfg"),
        ("tree", ".git"),
        ("telegram-mcp", None),
    ],
)
def test_the_chain_stops_at_the_project_root(tmp_path, name, marker):
    repo = _repo(tmp_path, name, marker)
    module, package, root = package_info(repo / "telegram_mcp" / "runtime.py")
    assert (module, package, root) == (
        "telegram_mcp.runtime",
        "telegram_mcp",
        str((repo / "telegram_mcp").resolve()),
    )
    # a loose script beside the stray `__init__.py` (main.py) is a module of its own folder
    (repo / "main.py").write_text("")
    assert package_info(repo / "main.py") == ("main", "", str(repo.resolve()))


def test_the_shim_goes_into_the_real_package(tmp_path):
    repo = _repo(tmp_path, "tree", "pyproject.toml")
    results = helpers.run_engine(repo / "telegram_mcp")
    assert [r for r in results if r.status.value == "failed"] == []
    text = (repo / "telegram_mcp" / "runtime.py").read_text()
    assert "from ._mcp_roots_compat import list_roots_compat" in text or (
        "from telegram_mcp._mcp_roots_compat import list_roots_compat" in text
    ), text
    assert (repo / "telegram_mcp" / "_mcp_roots_compat.py").is_file()
    assert not (repo / "_mcp_roots_compat.py").exists()


def test_a_setup_module_of_the_package_is_no_project_root(tmp_path):
    # Orchard's `orchard/setup.py` is its `orchard setup` command (session 15's sweep D, r05): taking it for a
    # root made the shim's import top-level, and the migrated server stopped importing.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "setup.py").write_text("import argparse\n\n\ndef main():\n    pass\n")
    (tmp_path / "pkg" / "server.py").write_text(READ)
    assert package_info(tmp_path / "pkg" / "server.py")[0] == "pkg.server"
    helpers.run_engine(tmp_path)
    text = (tmp_path / "pkg" / "server.py").read_text()
    assert "from ._mcp_roots_compat import" in text or "from pkg._mcp_roots_compat import" in text, text
