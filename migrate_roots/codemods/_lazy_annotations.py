"""Whether a tool's new parameter must be spelled with builtins only (`root: str | None = None`).

fastmcp 2 builds a tool's schema from a wrapper it makes when the tool takes a `Context` (or a `Depends(...)`
default): `without_injected_parameters` copies the tool's annotations onto a function of its own module, and
pydantic resolves string annotations in that module. Under `from __future__ import annotations` every
annotation is a string, so `root: RootPath = None` raises `NameError: name 'RootPath' is not defined` when the
server starts (fastmcp 2.14.7; fixed in fastmcp 3.0, PrefectHQ/fastmcp#3243; sweep A of session 20, r03).
Builtins resolve anywhere, and the SDKs need Python 3.10+, so `str | None` is safe on every line; the parameter
then has no description in the schema. `RootPath` stays where fastmcp 2 cannot be the one reading it: the
project asks for fastmcp 3 or later, or the module is plainly the mcp SDK's in a project without fastmcp.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

import libcst as cst

from migrate_roots.codemods.base import FileState


def lazy(state: FileState) -> bool:
    """`from __future__ import annotations` at the top of the module (every annotation a string)."""
    found = state.extra.get("lazy_annotations")
    if found is None:
        found = state.extra["lazy_annotations"] = any(
            isinstance(small, cst.ImportFrom)
            and isinstance(small.module, cst.Name)
            and small.module.value == "__future__"
            and not isinstance(small.names, cst.ImportStar)
            and any(isinstance(a.name, cst.Name) and a.name.value == "annotations" for a in small.names)
            for statement in state.wrapper.module.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
        )
    return bool(found)


def builtins_only(state: FileState, tool: cst.FunctionDef) -> bool:
    """Whether `tool`, a tool of `state`'s module gaining a parameter, must spell it with builtins only: its
    annotations are strings and fastmcp 2 may build its schema, unless the module is plainly the mcp SDK's (it
    imports `mcp.server...` and nothing of fastmcp) in a project that does not depend on fastmcp, or the project
    asks for fastmcp 3 or later. Whether the tool takes an injected parameter is not asked: a Context has
    many spellings (an alias, a subclass of the project, `CurrentContext()` held in a name: session 20, sweep C
    r01, r02), and builtins are right on every SDK line (only the description is lost)."""
    if not lazy(state):
        return False
    floor = _fastmcp_floor(str(Path(state.path).resolve().parent))
    if floor is _NO_FASTMCP and _mcp_only(state.wrapper.module):
        return False
    return floor is None or floor is _NO_FASTMCP or floor < (3, 0)


def _mcp_only(module: cst.Module) -> bool:
    """The module imports the mcp SDK's server (`mcp.server.fastmcp`, `mcp.server.mcpserver`, ...) and no
    fastmcp, anywhere in it (a `try: from fastmcp import ... except ImportError:` counts)."""
    heads: set[str] = set()

    class Imports(cst.CSTVisitor):
        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if not node.relative and node.module is not None:
                heads.add(cst.Module([]).code_for_node(node.module))

        def visit_Import(self, node: cst.Import) -> None:
            heads.update(cst.Module([]).code_for_node(a.name) for a in node.names)

    module.visit(Imports())
    if any(h == "fastmcp" or h.startswith("fastmcp.") for h in heads):
        return False
    # The SDK's server modules, not `mcp.types` alone (its Context may come from the project: sweep E r01).
    return any(h == "mcp.server" or h.startswith("mcp.server.") for h in heads)


_REQUIREMENT = re.compile(r"^\s*fastmcp\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;]*)", re.IGNORECASE)
_LOWER = re.compile(r"(?:>=|==|~=|\^|>)\s*(\d+)(?:\.(\d+))?")


# `_fastmcp_floor` when the project names no fastmcp requirement at all.
_NO_FASTMCP = (-1, -1)


@lru_cache(maxsize=256)
def _fastmcp_floor(folder: str) -> tuple[int, int] | None:
    """The lowest fastmcp the nearest pyproject.toml above `folder` admits (`fastmcp>=3.2` gives (3, 2)), from
    `[project]` dependencies, its optional dependencies, or Poetry's; None when a requirement names no lower
    bound, `_NO_FASTMCP` when none names fastmcp (or there is no pyproject.toml)."""
    from migrate_roots.config import find_pyproject

    source = find_pyproject(Path(folder))
    if source is None:
        return _NO_FASTMCP
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - 3.10 only
        import tomli as tomllib
    try:
        doc = tomllib.loads(source.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
        return None
    project = doc.get("project", {})
    specs: list[str] = []
    for requirement in [
        *project.get("dependencies", []),
        *_flatten(project.get("optional-dependencies", {})),
    ]:
        found = _REQUIREMENT.match(requirement) if isinstance(requirement, str) else None
        if found is not None and re.match(r"^\s*fastmcp\b(?![-_.\w])", requirement, re.IGNORECASE):
            specs.append(found.group("spec"))
    poetry = doc.get("tool", {}).get("poetry", {}).get("dependencies", {})
    value = poetry.get("fastmcp") if isinstance(poetry, dict) else None
    if isinstance(value, dict):
        value = value.get("version")
    if isinstance(value, str):
        specs.append(value)
    if not specs:
        return _NO_FASTMCP
    floors = []
    for spec in specs:
        # Poetry's `||` admits either side: the lowest side's bound counts (`^2.14 || ^3.0` admits 2.14).
        for alternative in spec.split("||"):
            bounds = [(int(m.group(1)), int(m.group(2) or 0)) for m in _LOWER.finditer(alternative)]
            if not bounds:
                return None  # one requirement without a lower bound admits fastmcp 2
            floors.append(max(bounds))
    return min(floors)


def _flatten(groups: object) -> list[object]:
    return [item for group in groups.values() for item in group] if isinstance(groups, dict) else []
