"""Whether a tool's new parameter must be spelled with builtins only (`root: str | None = None`).

fastmcp 2 builds a tool's schema from a wrapper it makes when the tool takes a `Context` (or a `Depends(...)`
default): `without_injected_parameters` copies the tool's annotations onto a function of its own module, and
pydantic resolves string annotations in that module. Under `from __future__ import annotations` every
annotation is a string, so `root: RootPath = None` raises `NameError: name 'RootPath' is not defined` when the
server starts (fastmcp 2.14.7; fixed in fastmcp 3.0, PrefectHQ/fastmcp#3243; sweep A of session 20, r03).
Builtins resolve anywhere, and fastmcp needs Python 3.10+, so `str | None` is safe there; the parameter then
has no description in the schema. A project whose own dependencies ask for fastmcp 3 or later keeps `RootPath`.
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
    """Whether `tool`, a tool of `state`'s module gaining a parameter, must spell it with builtins only."""
    if not lazy(state) or not _imports_fastmcp(state.wrapper.module):
        return False
    if not any(
        _injected(p) for p in (*tool.params.posonly_params, *tool.params.params, *tool.params.kwonly_params)
    ):
        return False  # no wrapper: fastmcp reads the tool itself, in its own module
    floor = _fastmcp_floor(str(Path(state.path).resolve().parent))
    return floor is None or floor < (3, 0)


def _injected(param: cst.Param) -> bool:
    """A parameter fastmcp fills itself: annotated with a `...Context` name, or defaulted by a call
    (`Depends(...)`, `CurrentContext()`)."""
    if isinstance(param.default, cst.Call):
        return True
    if param.annotation is None:
        return False
    text = cst.Module([]).code_for_node(param.annotation.annotation)
    return re.search(r"Context\b", text) is not None


def _imports_fastmcp(module: cst.Module) -> bool:
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                head: cst.BaseExpression = small.module
                while isinstance(head, cst.Attribute):
                    head = head.value
                if isinstance(head, cst.Name) and head.value == "fastmcp":
                    return True
            elif isinstance(small, cst.Import) and any(
                cst.Module([]).code_for_node(a.name).partition(".")[0] == "fastmcp" for a in small.names
            ):
                return True
    return False


_REQUIREMENT = re.compile(r"^\s*fastmcp\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;]*)", re.IGNORECASE)
_LOWER = re.compile(r"(?:>=|==|~=|\^|>)\s*(\d+)(?:\.(\d+))?")


@lru_cache(maxsize=256)
def _fastmcp_floor(folder: str) -> tuple[int, int] | None:
    """The lowest fastmcp the nearest pyproject.toml above `folder` admits (`fastmcp>=3.2` gives (3, 2)), from
    `[project]` dependencies, its optional dependencies, or Poetry's; None when it names no lower bound."""
    from migrate_roots.config import find_pyproject

    source = find_pyproject(Path(folder))
    if source is None:
        return None
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
    floors = []
    for spec in specs:
        bounds = [(int(m.group(1)), int(m.group(2) or 0)) for m in _LOWER.finditer(spec)]
        if not bounds:
            return None  # one requirement without a lower bound admits fastmcp 2
        floors.append(max(bounds))
    return min(floors) if floors else None


def _flatten(groups: object) -> list[object]:
    return [item for group in groups.values() for item in group] if isinstance(groups, dict) else []
