"""A module that binds `Field` or `Annotated` to something else: the path argument's `from pydantic import Field`
would replace the module's own (or be replaced by it), so its tools are marked MR104, not rewritten (session 15's
sweep B, r01/r02: the server stopped importing, or a dataclass default became a pydantic FieldInfo). Noop first."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
{imports}
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""


@pytest.mark.parametrize(
    "imports",
    [
        "from pydantic import Field",
        "from typing import Annotated",
        "from typing_extensions import Annotated",
        "",
    ],
)
def test_noop_the_same_names_are_shared(tmp_path, imports):
    root = helpers.package(tmp_path, {"server.py": SERVER.format(imports=imports)})
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    assert helpers.codes(findings) == ["MR101"]
    assert "root: RootPath = None" in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    ("imports", "extra"),
    [
        ("from .schema import Field", {"schema.py": "class Field:\n    pass\n"}),
        ("from dataclasses import field as Field", {}),
        ("from pydantic.v1 import Field", {}),
        ("Annotated = dict", {}),
    ],
)
def test_a_clashing_name_marks_the_tool(tmp_path, imports, extra):
    root = helpers.package(tmp_path, {"server.py": SERVER.format(imports=imports), **extra})
    before = (root / "pkg" / "server.py").read_text()
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    assert helpers.codes(findings) == ["MR104"]
    assert "this module binds `" in findings[0].message and "(server.py:1)" in findings[0].message
    after = (root / "pkg" / "server.py").read_text()
    assert "root" not in after.replace(before, "") or "migrate-roots: MR104" in after
    assert "from pydantic import Field" not in after.replace(before, "")


STARRED = {
    "a class": "class Field:\n    pass\n",
    "another library's": "from dataclasses import field as Field\n",
    "listed in __all__": "__all__ = ['Field', 'Table']\n\n\nclass Field:\n    pass\n\n\nclass Table:\n    pass\n",
}
NOT_STARRED = {
    "pydantic's own": "from pydantic import Field\n\n\nclass Table:\n    pass\n",
    "left out of __all__": "__all__ = ['Table']\n\n\nclass Field:\n    pass\n\n\nclass Table:\n    pass\n",
    "no such name": "class Table:\n    pass\n",
}


@pytest.mark.parametrize("models", sorted(NOT_STARRED))
def test_noop_a_star_import_that_binds_no_field_of_its_own_is_no_clash(tmp_path, models):
    root = helpers.package(
        tmp_path,
        {"server.py": SERVER.format(imports="from .models import *"), "models.py": NOT_STARRED[models]},
    )
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    assert helpers.codes(findings) == ["MR101"]


@pytest.mark.parametrize("spelling", ["from .models import *", "from pkg.models import *"])
@pytest.mark.parametrize("models", sorted(STARRED))
def test_a_star_import_that_binds_its_own_field_marks_the_tool(tmp_path, models, spelling):
    """Sweep F, r04: the rewrite's `from pydantic import Field` sorts above `from .models import *`, which then
    binds the project's `Field`: the migrated server no longer imported."""
    root = helpers.package(
        tmp_path, {"server.py": SERVER.format(imports=spelling), "models.py": STARRED[models]}
    )
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    assert helpers.codes(findings) == ["MR104"]
    assert "this module binds `Field` (server.py:1)" in findings[0].message
