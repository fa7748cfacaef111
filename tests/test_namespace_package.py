"""Never silent across files: a roots helper in a folder without `__init__.py` inside a package (a PEP 420
namespace portion, `pkg/sub/ns.py` imported as `.sub.ns`), and a roots helper no tool is seen to reach in a
package that imports the SDK elsewhere. Noop cases first."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate_roots.engine_walk import package_info
from tests import helpers

HELPER = """\
async def project_dir(ctx):
    result = await ctx.session.list_roots()
    return result.roots[0].uri
"""

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

{imp}

mcp = FastMCP("demo")


@mcp.tool()
async def where(ctx: Context) -> str:
    return str(await {call}(ctx))
"""


def test_noop_a_loose_folder_stays_a_sys_path_entry(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text("")
    module, package, root = package_info(tmp_path / "scripts" / "run.py")
    assert (module, package, root) == ("run", "", str((tmp_path / "scripts").resolve()))


def test_noop_a_folder_with_a_project_marker_is_no_portion(tmp_path):
    (tmp_path / "pkg" / "vendored").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "vendored" / "pyproject.toml").write_text("")
    (tmp_path / "pkg" / "vendored" / "mod.py").write_text("")
    assert package_info(tmp_path / "pkg" / "vendored" / "mod.py")[0] == "mod"


def test_noop_a_helper_of_a_project_without_the_sdk_is_not_mcp(tmp_path):
    # No module of the package imports the SDK: `ctx.session.list_roots()` is some other library's method.
    root = helpers.package(tmp_path, {"helper.py": HELPER, "other.py": "VALUE = 1\n"})
    results = helpers.run_engine(root, write=False)
    assert [f for r in results for f in r.findings] == []


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("pkg", "sub", "ns.py"), "pkg.sub.ns"),
        (("pkg", "a", "b", "ns.py"), "pkg.a.b.ns"),
        (("pkg", "sub", "inner", "__init__.py"), "pkg.sub.inner"),
    ],
)
def test_a_namespace_portion_inside_a_package_is_named_by_its_import(tmp_path, parts, expected):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    path = tmp_path.joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    assert package_info(path)[0] == expected


@pytest.mark.parametrize(
    ("imp", "call", "where"),
    [
        ("from .sub.ns import project_dir", "project_dir", "sub/ns.py"),
        ("from pkg.sub.ns import project_dir", "project_dir", "sub/ns.py"),
        ("from .sub import ns", "ns.project_dir", "sub/ns.py"),
        ("from .a.b.ns import project_dir", "project_dir", "a/b/ns.py"),
    ],
)
def test_a_helper_in_a_namespace_portion_is_rewritten(tmp_path, imp, call, where):
    root = helpers.package(tmp_path, {"server.py": SERVER.format(imp=imp, call=call), where: HELPER})
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    pkg = Path(root, "pkg")
    assert "root: RootPath = None" in (pkg / "server.py").read_text()
    assert f"{call}(ctx, root=root)" in (pkg / "server.py").read_text()
    helper = (pkg / where).read_text()
    assert 'await list_roots_compat(ctx, root, name="root")' in helper
    assert helpers.flakes(helper) == set()
    again = helpers.run_engine(root)
    assert not [r for r in again if r.status.value == "changed"]


def test_a_helper_no_tool_reaches_in_an_mcp_package_is_reported(tmp_path):
    server = SERVER.format(imp="", call="str")
    root = helpers.package(tmp_path, {"server.py": server, "helper.py": HELPER})
    findings = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(findings) == ["MR103"]
    assert "roots read in `project_dir`, which is not a tool" in findings[0].message
    assert findings[0].path.endswith("helper.py")


TYPED_HELPER = "from mcp.server.fastmcp import Context\n\n\n" + HELPER.replace("(ctx)", "(ctx: Context)")


@pytest.mark.parametrize("helper", [HELPER, TYPED_HELPER], ids=["untyped", "typed"])
@pytest.mark.parametrize("init", [False, True], ids=["portion", "package"])
def test_a_script_importing_its_sibling_by_bare_name_is_followed(tmp_path, helper, init):
    # `python pkg/scripts/run.py` puts `pkg/scripts` first on sys.path: `helper` is the sibling file.
    files = {
        "scripts/run.py": SERVER.format(imp="from helper import project_dir", call="project_dir"),
        "scripts/helper.py": helper,
    }
    if init:
        files["scripts/__init__.py"] = ""
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    scripts = Path(root, "pkg", "scripts")
    assert "project_dir(ctx, root=root)" in (scripts / "run.py").read_text()
    assert "list_roots_compat(ctx, root" in (scripts / "helper.py").read_text()
