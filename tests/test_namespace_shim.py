"""The shim import of a loose module that its importers name through a folder without `__init__.py`
(codemods/_shim_place.namespace_prefix).

Measured on the field (EnterpriseAI-Client): `mcp_servers/buildin.py` has no `__init__.py` beside it, imports
`from utils.llm_client import ...` where `utils/` sits beside `mcp_servers/`, and the app imports it as
`mcp_servers.buildin`. A bare `from _mcp_roots_compat import ...` would not resolve there; the file's own
imports show the repository root is on `sys.path`, so the shim is imported as `mcp_servers._mcp_roots_compat`.
"""

from __future__ import annotations

import subprocess
import textwrap

import pytest

from tests import helpers

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from {helper_module} import shout

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return shout(str(result.roots[0].uri))
"""

HELPER = "def shout(text: str) -> str:\n    return text.upper()\n"


def _project(tmp_path, helper_at: str, helper_module: str):
    root = tmp_path / "proj"
    (root / "servers").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (root / helper_at).parent.mkdir(parents=True, exist_ok=True)
    (root / helper_at).write_text(HELPER)
    (root / "servers" / "app.py").write_text(textwrap.dedent(SERVER.format(helper_module=helper_module)))
    results = helpers.run_engine(root / "servers")
    assert not [r for r in results if r.status.value == "failed"]
    return root


def test_noop_a_loose_module_whose_imports_resolve_beside_it_imports_the_shim_bare(tmp_path):
    root = _project(tmp_path, "servers/helpers.py", "helpers")
    text = (root / "servers" / "app.py").read_text()
    assert "from _mcp_roots_compat import list_roots_compat" in text, text
    assert (root / "servers" / "_mcp_roots_compat.py").exists()


@pytest.mark.parametrize(
    ("helper_at", "helper_module"),
    [("utils/text.py", "utils.text"), ("utils.py", "utils")],
    ids=["package-beside", "module-beside"],
)
def test_a_loose_module_imported_through_its_folder_imports_the_shim_by_that_name(
    tmp_path, helper_at, helper_module
):
    if helper_at.startswith("utils/"):
        (tmp_path / "proj" / "utils").mkdir(parents=True)
        (tmp_path / "proj" / "utils" / "__init__.py").write_text("")
    root = _project(tmp_path, helper_at, helper_module)
    text = (root / "servers" / "app.py").read_text()
    assert "from servers._mcp_roots_compat import list_roots_compat" in text, text
    assert (root / "servers" / "_mcp_roots_compat.py").exists()
    assert not helpers.flakes(text)


@pytest.mark.sdk
def test_the_namespace_import_resolves_where_the_app_imports_the_module(tmp_path):
    from tests.sdk.envs import sdk_python_or_skip

    python = sdk_python_or_skip("mcp1")
    (tmp_path / "proj" / "utils").mkdir(parents=True)
    (tmp_path / "proj" / "utils" / "__init__.py").write_text("")
    root = _project(tmp_path, "utils/text.py", "utils.text")
    out = subprocess.run(
        [str(python), "-c", "import servers.app as m; print(m.list_roots_compat.__module__)"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "servers._mcp_roots_compat"


NAMESPACED = """\
from mcp.server.fastmcp import Context, FastMCP

from sphinxext.notes.text import shout

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return shout(str(result.roots[0].uri))
"""


def _namespaced(tmp_path, server: str):
    """`sphinxext/` has no `__init__.py` (a PEP 420 namespace package); `sphinxext/notes/` is a package."""
    root = tmp_path / "proj"
    package = root / "sphinxext" / "notes"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (package / "__init__.py").write_text("")
    (package / "text.py").write_text(HELPER)
    (package / "server.py").write_text(server)
    results = helpers.run_engine(root / "sphinxext")
    assert not [r for r in results if r.status.value == "failed"]
    return root, (package / "server.py").read_text()


def test_noop_a_package_in_a_namespace_that_imports_itself_relatively_imports_the_shim_relatively(tmp_path):
    _, text = _namespaced(tmp_path, NAMESPACED.replace("from sphinxext.notes.text", "from .text"))
    assert "from ._mcp_roots_compat import list_roots_compat" in text, text


def test_a_package_in_a_namespace_package_imports_the_shim_through_the_namespace(tmp_path):
    """sphinxcontrib-nexus: `from sphinxcontrib.nexus._serialize import ...`; the shim import had been
    `from nexus._mcp_roots_compat import ...`, which does not resolve."""
    _, text = _namespaced(tmp_path, NAMESPACED)
    assert "from sphinxext.notes._mcp_roots_compat import list_roots_compat" in text, text
    assert not helpers.flakes(text)


@pytest.mark.sdk
def test_the_shim_import_through_the_namespace_resolves(tmp_path):
    from tests.sdk.envs import sdk_python_or_skip

    python = sdk_python_or_skip("mcp1")
    root, _ = _namespaced(tmp_path, NAMESPACED)
    out = subprocess.run(
        [str(python), "-c", "import sphinxext.notes.server as m; print(m.list_roots_compat.__module__)"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "sphinxext.notes._mcp_roots_compat"
