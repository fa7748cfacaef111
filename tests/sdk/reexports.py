"""Run with an SDK env's python: every public name through which a matched SDK object is reachable.

argv[1]: a JSON object, table name -> the dotted names that define the table's objects (where
`migrate_roots/codemods/_sdk.py` documents them, not their re-exports: a re-export can be another object on
another line, such as fastmcp 3's `fastmcp.client.client.FastMCP = Any` outside TYPE_CHECKING). Each of those
that resolves here gives the table one of its objects.

Every public module of the SDK packages (`mcp`, `mcp_types`, `fastmcp`) is imported: packages are walked with
pkgutil, private `_x` modules skipped, and a module kept in sys.modules under an old name counts. Each public
attribute (a module-level name, or a lazy one its `__dir__` or `__all__` lists; not starting with `_`) whose
value *is* one of a table's objects is reported as `module.attr`.

Prints a JSON object: {"tables": {table: [names]}, "failed": {module: error}} (`failed`: the modules that
did not import, e.g. for an optional dependency that is not installed; their submodules are not searched).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import pkgutil
import sys
import warnings
from types import ModuleType

PACKAGES = ("mcp", "mcp_types", "fastmcp")
_MISSING = object()


def resolve(name: str) -> object:
    """The object a dotted name names here (longest importable module prefix, then attributes), or _MISSING."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                obj: object = importlib.import_module(".".join(parts[:split]))
        except (Exception, SystemExit):  # a module may miss an optional dependency, or exit (mcp.cli)
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return _MISSING
        return obj
    return _MISSING


def public_modules(failed: dict[str, str]) -> dict[str, ModuleType]:
    """Every public module of the SDK packages that imports, by the dotted name it imports under."""
    found: dict[str, ModuleType] = {}

    def walk(name: str) -> None:
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # stdout is this probe's answer
                module = importlib.import_module(name)
        except (Exception, SystemExit) as exc:  # ImportError of an optional dependency; mcp.cli exits
            failed[name] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            return
        found[name] = module
        for info in pkgutil.iter_modules(getattr(module, "__path__", None) or []):
            if not info.name.startswith("_"):
                walk(f"{name}.{info.name}")

    for package in PACKAGES:
        if importlib.util.find_spec(package) is not None:
            walk(package)
    # A module kept importable under an old name (fastmcp 3: `sys.modules["fastmcp.tools.tool"]` is
    # fastmcp.tools.base), which has no file of its own to walk.
    for name, module in list(sys.modules.items()):
        parts = name.split(".")
        if (
            parts[0] in PACKAGES
            and name not in found
            and isinstance(module, ModuleType)
            and not any(part.startswith("_") for part in parts)
        ):
            found[name] = module
    return found


def public_attributes(module: ModuleType) -> dict[str, object]:
    """Its public names: module-level ones, and those a module `__dir__` or `__all__` lists (lazy ones)."""
    try:
        names = set(dir(module))
    except Exception:
        names = set(vars(module))
    exported = getattr(module, "__all__", None)
    if isinstance(exported, (list, tuple)):
        names |= {n for n in exported if isinstance(n, str)}
    out = {}
    for name in (n for n in names if not n.startswith("_")):
        try:
            out[name] = getattr(module, name)  # may load lazily (a module `__getattr__`)
        except Exception:  # noqa: S112 - a lazy name that fails to load is not exported
            continue
    return out


def reexports(tables: dict[str, list[str]]) -> dict[str, object]:
    objects: dict[str, list[object]] = {}
    for table, names in tables.items():
        objects[table] = [obj for obj in (resolve(n) for n in names) if obj is not _MISSING]
    failed: dict[str, str] = {}
    found: dict[str, set[str]] = {table: set() for table in tables}
    for name, module in public_modules(failed).items():
        for attr, value in public_attributes(module).items():
            for table, objs in objects.items():
                if any(value is obj for obj in objs):
                    found[table].add(f"{name}.{attr}")
    return {"tables": {t: sorted(names) for t, names in found.items()}, "failed": failed}


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    result = reexports(json.loads(sys.argv[1]))
    sys.stdout.write(json.dumps(result, indent=1, sort_keys=True) + "\n")
