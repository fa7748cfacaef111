"""One file's parse and walk (in the worker processes): its module name, the parse, and the single walk
that hands each node to the rules that asked for its type.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrate_roots import codemods, guards, sourcefile
from migrate_roots.codemods._project_refs import PROJECT_MARKERS
from migrate_roots.engine_types import Options

if TYPE_CHECKING:
    import libcst as cst

    from migrate_roots.codemods.base import FileState, Rule


def _in_package(folder: Path) -> bool:
    """Whether `folder` is a package its files are imported through. A project's root (`pyproject.toml`,
    `.git`, ...) is where its imports start, never a package of it: a stray `__init__.py` there (telegram-mcp's)
    must not put the real package `telegram_mcp` inside one named after the checkout, which no import can name."""
    if not (folder / "__init__.py").is_file() or not folder.name.isidentifier():
        return False
    return not _project_root(folder)


def _project_root(folder: Path) -> bool:
    """A project marker in `folder`; a `setup.py` counts only as a packaging script (it names setuptools or
    distutils): Orchard's `orchard/setup.py` is its `orchard setup` command, a module of the package, and
    taking it for a root made the shim's import top-level, which no run of the server resolves."""
    for name in PROJECT_MARKERS:
        path = folder / name
        if not os.path.exists(path):
            continue
        if name != "setup.py":
            return True
        try:
            with open(path, "rb") as handle:
                head = handle.read(65536)
        except OSError:
            return True
        if b"setuptools" in head or b"distutils" in head:
            return True
    return False


# The package facts of each folder (its dotted parts, its topmost package folder), asked by every file of the
# folder in every prefilter round; valid for one run (`Engine.run` clears it: a test may add `__init__.py`).
_FOLDERS: dict[Path, tuple[tuple[str, ...], Path]] = {}


def forget_folders() -> None:
    _FOLDERS.clear()


def _namespace_portion(folder: Path) -> bool:
    """A folder without `__init__.py` that Python imports as a namespace package (PEP 420) when a package
    holds it: `pkg/sub/ns.py` is `pkg.sub.ns` to `from .sub.ns import x` in `pkg/server.py`. Decided here by
    its name alone; `_folder_package` makes it a package only under one (a loose folder stays a `sys.path`
    entry)."""
    return folder.name.isidentifier() and not _project_root(folder)


def _folder_package(folder: Path) -> tuple[tuple[str, ...], Path]:
    found = _FOLDERS.get(folder)
    if found is None:
        if _in_package(folder):
            above, top = _folder_package(folder.parent)
            found = ((*above, folder.name), top if above else folder)
        elif folder.parent != folder and _namespace_portion(folder):
            above, top = _folder_package(folder.parent)
            found = ((*above, folder.name), top) if above else ((), folder)
        else:
            found = ((), folder)
        _FOLDERS[folder] = found
    return found


def package_info(path: Path) -> tuple[str, str, str]:
    """(module, package, package_root) from the `__init__.py` files above `path`, up to the project's root."""
    folder = path.resolve().parent
    above, top = _folder_package(folder)
    if not above:
        return path.stem, "", str(folder)
    module = ".".join(above if path.stem == "__init__" else (*above, path.stem))
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    return module, package, str(top)


def _visit(module: cst.Module, state: FileState, rules: list[Rule]) -> None:
    """Hand each node, in libcst's visiting order, to the rules that asked for its type.

    libcst's own visitor rebuilds every node on the way (a third of a file's cost); the parent links that
    the metadata already holds give the same children in the same order, so the walk is a plain loop.
    """
    handlers: dict[type, list[Rule]] = {}
    for rule in rules:
        for kind in rule.nodes:
            handlers.setdefault(kind, []).append(rule)
    import libcst as cst

    children = state.children()
    # Exact types, not isinstance: libcst's node classes are ABCs, and an isinstance that fails goes through
    # ABCMeta.__instancecheck__ (a tenth of a file's cost over every node of every walk).
    scopes = {cst.FunctionDef, cst.ClassDef}
    leave = state.stack.pop
    pending: list[Any] = [module]  # a node to visit, or None: leave the innermost function or class
    while pending:
        node = pending.pop()
        if node is None:
            leave()
            continue
        for rule in handlers.get(type(node), ()):
            rule.visit(node, state)
        if type(node) in scopes:
            state.stack.append(node)
            pending.append(None)
        kids = children.get(node)
        if kids:
            pending.extend(reversed(kids))


def _analyse(
    path: Path, data: bytes, options: Options, phase: str, plan: Mapping[str, Any]
) -> tuple[Any, ...]:
    source, module, wrapper = _parse(data)
    state, rules = _walk(path, source, module, wrapper, options, phase, plan)
    return source, module, state, rules


def _parse(data: bytes) -> tuple[sourcefile.Source, cst.Module, cst.MetadataWrapper]:
    import libcst as cst

    source = sourcefile.decode(data)
    if guards.looks_deep(source.text) and not guards.parser_survives(source.text):
        raise _ParseFailure("cannot parse: nested too deeply (libcst's parser crashes on it)", 1)
    try:
        module = cst.parse_module(source.text)
    except cst.ParserSyntaxError as exc:
        raise _ParseFailure(
            f"cannot parse: {exc.message.removeprefix('parser error: ')}", syntax_error_at(exc, source.text)
        ) from None
    except RecursionError:
        raise _ParseFailure("cannot parse: nesting too deep", 1) from None
    return source, module, cst.MetadataWrapper(module, unsafe_skip_copy=True)


_ERROR_AT = re.compile(r"error at (\d+):\d+")


def syntax_error_at(exc: Any, text: str) -> int:
    """The line of a libcst syntax error. Its native parser's `raw_line` is the line after the error for some
    errors (`x = = 1` reports the next line), while its message names the true one (`error at 6:15`): the
    message wins, clamped to the file's last line (an unexpected end of file is reported one past it)."""
    found = _ERROR_AT.search(exc.message)
    line = int(found.group(1)) if found else exc.raw_line
    return max(1, min(line, len(text.splitlines())))


def _walk(
    path: Path,
    source: sourcefile.Source,
    module: cst.Module,
    wrapper: cst.MetadataWrapper,
    options: Options,
    phase: str,
    plan: Mapping[str, Any],
    meta: Mapping[Any, Any] | None = None,
) -> tuple[FileState, list[Rule]]:
    from migrate_roots.codemods._read import reading
    from migrate_roots.codemods.base import FileState

    codemods.load()
    mod_name, package, package_root = package_info(path)
    state = FileState(
        path=str(path),
        module=mod_name,
        package=package,
        package_root=package_root,
        settings=options.settings,
        wrapper=wrapper,
        lines=source.text.splitlines(),
        enabled=options.enabled,
        phase=phase,
        plan=plan,
        meta=meta or {},
    )
    runners = {codemods.REGISTRY[c].runner or codemods.REGISTRY[c] for c in options.enabled}
    rules = [cls() for cls in sorted(runners, key=lambda r: r.code) if cls.nodes]
    with reading(state):
        _visit(module, state, rules)
        for rule in rules:
            rule.leave(state)
    return state, rules


class _ParseFailure(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line
