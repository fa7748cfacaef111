"""Where the compatibility module goes and how a file imports it: beside the top-level package, imported
relatively at the file's depth; for a loose module, by the folder name its importers use (`namespace_prefix`)."""

from __future__ import annotations

import os
import sys
from typing import Any

from migrate_roots.codemods._roots_model import Summary


def location(summary: Summary, settings: Any) -> tuple[str, str]:
    """(how the file imports the compatibility module, where that module is written)."""
    module = settings.shim_module
    shim_path = os.path.join(summary.package_root, f"{module}.py")
    if not summary.package:
        prefix = namespace_prefix(summary)
        return (f"{prefix}.{module}" if prefix else module), shim_path
    top = os.path.basename(summary.package_root)
    depth = summary.package.count(".") + 1 if summary.package.startswith(top) else 1
    return "." * depth + module, shim_path


def namespace_prefix(summary: Summary) -> str:
    """A loose module's folder as its importers name it, when the file's own imports show that an ancestor
    folder is on `sys.path` (EnterpriseAI-Client: `mcp_servers/buildin.py`, no `__init__.py`, imports `from
    utils.llm_client import ...` where `utils/` sits beside `mcp_servers/`, and is itself imported as
    `mcp_servers.buildin`): `mcp_servers`. A bare `from _mcp_roots_compat import` would not resolve there."""
    from migrate_roots.codemods._project_refs import project_root

    folder = os.path.abspath(summary.package_root)
    tops = (
        {
            fq.partition(".")[0]
            for _, fq in (summary.facts.imports if summary.facts is not None else ())
            if "." in fq
        }
        - set(getattr(sys, "stdlib_module_names", ()))
        - {"mcp", "fastmcp"}
    )

    def holds(where: str, name: str) -> bool:
        return os.path.isdir(os.path.join(where, name)) or os.path.isfile(os.path.join(where, f"{name}.py"))

    tops = {t for t in tops if t.isidentifier() and not holds(folder, t)}
    if not tops:
        return ""
    stop = project_root(folder, os.path.dirname(folder))
    parts: list[str] = []
    current = folder
    while current != stop and os.path.dirname(current) != current:
        parts.insert(0, os.path.basename(current))
        current = os.path.dirname(current)
        if any(holds(current, t) for t in tops):
            return ".".join(parts) if all(p.isidentifier() for p in parts) else ""
    return ""
