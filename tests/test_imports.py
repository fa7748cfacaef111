"""codemods._imports.ensure_imports: imports added in the file's own style."""

from __future__ import annotations

import textwrap

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


def test_new_statements_after_last_import_grouped_by_module():
    src = '"""Doc."""\nimport os\n\nX = 1\n'
    out = add(src, ("typing", "List"), ("typing", "Optional"), ("pydantic", "Field"))
    assert (
        out
        == '"""Doc."""\nimport os\nfrom pydantic import Field\nfrom typing import List, Optional\n\nX = 1\n'
    )


def test_relative_module_and_no_imports_at_all():
    assert add("X = 1\n", ("._compat", "f")) == "from ._compat import f\nX = 1\n"


def test_future_import_is_not_extended():
    src = "from __future__ import annotations\n"
    assert add(src, ("__future__", "annotations")) == src
    assert add(src, ("typing", "Any")) == "from __future__ import annotations\nfrom typing import Any\n"


def test_late_import_after_a_definition_is_not_the_anchor():
    src = "import os\n\n\ndef f():\n    pass\n\n\nfrom late import thing\n"
    out = add(src, ("typing", "Any"))
    assert out.startswith("import os\nfrom typing import Any\n")
