"""codemods._imports.ensure_imports: imports added in the file's own style."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from migrate_roots.codemods._imports import ensure_imports


def add(src: str, *needs: tuple[str, str]) -> str:
    module = cst.parse_module(textwrap.dedent(src))
    return ensure_imports(needs)(module).code  # type: ignore[attr-defined]


def test_noop_when_already_imported():
    src = "from typing import Annotated\nx = 1\n"
    assert add(src, ("typing", "Annotated")) == src


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("from typing import Optional\n", "from typing import Annotated, Optional\n"),
        ("from typing import Optional, Any\n", "from typing import Optional, Any, Annotated\n"),
        (
            "from typing import (\n    Any,\n    Optional,\n)\n",
            "from typing import (\n    Annotated,\n    Any,\n    Optional,\n)\n",
        ),
    ],
    ids=["joins-sorted", "appends-unsorted", "parenthesized"],
)
def test_joins_existing_statement(src, expected):
    assert add(src, ("typing", "Annotated")) == expected


def test_new_statements_in_their_sections():
    src = '"""Doc."""\nimport os\n\nX = 1\n'
    out = add(src, ("typing", "List"), ("typing", "Optional"), ("pydantic", "Field"))
    assert out == (
        '"""Doc."""\nimport os\nfrom typing import List, Optional\n\nfrom pydantic import Field\n\nX = 1\n'
    )


def test_relative_module_and_no_imports_at_all():
    assert add("X = 1\n", ("._compat", "f")) == "from ._compat import f\n\nX = 1\n"
    assert add("def f():\n    pass\n", ("x", "y")) == "from x import y\n\n\ndef f():\n    pass\n"


def test_future_import_is_not_extended():
    src = "from __future__ import annotations\n"
    assert add(src, ("__future__", "annotations")) == src
    assert add(src, ("typing", "Any")) == "from __future__ import annotations\n\nfrom typing import Any\n"


SORTED = """\
\"\"\"A server.\"\"\"

from __future__ import annotations

# the standard library
import logging
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from starlette.requests import Request

from pkg.config import Settings

from .helpers import tidy

log = logging.getLogger(__name__)
"""


NEEDS = [
    ("typing", "Annotated"),
    ("abc", "ABC"),
    ("pydantic", "Field"),
    ("zzz", "Z"),
    ("aaa", "A"),
    ("pkg._mcp_roots_compat", "f"),
    ("pkg.aaa", "f"),
    ("pkg.zzz", "f"),
    ("._mcp_roots_compat", "f"),
    ("..up", "f"),
    ("mcp.types", "Root"),
    ("Mcp2", "X"),
]


def _ruff_isort(files: list[Path]) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select", "I"]
        + [
            "--config",
            "lint.isort.known-first-party=['pkg']",
            "--output-format",
            "concise",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
    )
    return out.stdout + out.stderr


def test_each_new_import_goes_where_ruff_sorts_it(tmp_path):
    """One new import at a time into a sorted file: ruff's `I` rules still find nothing, nothing else moved."""
    files = []
    for n, need in enumerate(NEEDS):
        module = cst.parse_module(SORTED)
        out = ensure_imports([need], first_party=lambda top: top == "pkg")(module).code  # type: ignore[attr-defined]
        new = f"from {need[0]} import {need[1]}\n"
        assert new in out
        assert out.replace(new, "", 1) == SORTED, out
        files.append(tmp_path / f"case{n}.py")
        files[-1].write_text(out)
    module = cst.parse_module(SORTED)
    files.append(tmp_path / "all.py")
    files[-1].write_text(ensure_imports(NEEDS, first_party=lambda top: top == "pkg")(module).code)  # type: ignore[attr-defined]
    assert "All checks passed" in _ruff_isort(files), _ruff_isort(files)


def test_new_sections_open_their_own_groups():
    src = "import os\n\nfrom .helpers import tidy\n\nX = 1\n"
    out = add(src, ("pydantic", "Field"), ("pkg._compat", "f"))
    assert (
        out
        == "import os\n\nfrom pkg._compat import f\nfrom pydantic import Field\n\nfrom .helpers import tidy\n\nX = 1\n"
    )
    module = cst.parse_module(src)
    out = ensure_imports([("pydantic", "Field"), ("pkg._compat", "f")], first_party=lambda top: top == "pkg")(
        module
    )
    assert out.code == (  # type: ignore[attr-defined]
        "import os\n\nfrom pydantic import Field\n\nfrom pkg._compat import f\n\nfrom .helpers import tidy\n\nX = 1\n"
    )


def test_names_join_in_ruffs_order():
    assert add("from typing import TYPE_CHECKING, Any\n", ("typing", "Annotated")) == (
        "from typing import TYPE_CHECKING, Annotated, Any\n"
    )
    assert (
        add("from typing import Any, cast\n", ("typing", "Literal"))
        == "from typing import Any, Literal, cast\n"
    )


def test_late_import_after_a_definition_is_not_the_anchor():
    src = "import os\n\n\ndef f():\n    pass\n\n\nfrom late import thing\n"
    out = add(src, ("typing", "Any"))
    assert out.startswith("import os\nfrom typing import Any\n")


def test_an_import_of_the_project_goes_after_the_scripts_sys_path_change():
    """sweep J r03 (session 21): `sys.path.insert(0, ...)` then `from pkg.config import X`: an import of the
    project above that line would not resolve when the script is run by its path."""
    import libcst as cst

    from migrate_roots.codemods._imports import ensure_imports

    source = (
        "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parent.parent))\n\n"
        "from pkg.config import NAME\n\nprint(NAME)\n"
    )
    module = cst.parse_module(source)
    edited = ensure_imports([("pkg._compat", "f")], lambda top: top == "pkg")(module)
    assert isinstance(edited, cst.Module)
    assert (
        "sys.path.insert(0, str(Path(__file__).parent.parent))\n\nfrom pkg._compat import f\nfrom pkg.config"
        in (edited.code)
    )
    # ... and an import of the standard library stays in the first block
    edited = ensure_imports([("os", "sep")], lambda top: top == "pkg")(module)
    assert isinstance(edited, cst.Module)
    assert edited.code.startswith("import sys\nfrom os import sep\nfrom pathlib import Path\n")
