"""What a rewrite produces and writes: the new text (refused when it does not parse), its diff, the write
itself (never over a read-only file, the shim first), and the compatibility module.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from migrate_roots import guards, sourcefile, writer
from migrate_roots.config import Settings
from migrate_roots.engine_types import Moves, Options, _failure
from migrate_roots.model import FileResult, Finding, Severity, Status

if TYPE_CHECKING:
    import libcst as cst

    from migrate_roots.codemods.base import FileState


class _ReadOnly(Exception):
    pass


class _Linked(Exception):
    """A symbolic link: writing would replace it with a plain file (MR908)."""


def _write(path: Path, new: bytes, old: bytes, result: FileResult, options: Options) -> None:
    """Write one rewritten file: never a read-only one, and the shim it imports first (a run killed
    between the two leaves a package that works, and the next run finds nothing left to do)."""
    if path.is_symlink():
        raise _Linked(str(path))
    if guards.read_only(path):
        raise _ReadOnly(str(path))
    if result.shim:
        shim = Path(result.shim)
        if not shim.exists():
            with contextlib.suppress(FileExistsError):
                writer.write_new(shim, _shim_text(shim, options.settings).encode("utf-8"))
    writer.write_atomic(path, new, old)
    result.written = True


def _rewritten(
    path: Path, source: sourcefile.Source, module: cst.Module, state: FileState, options: Options
) -> tuple[FileResult, bytes | None, Moves]:
    """The result of the rewrite walk recorded in `state`, the new bytes (None: unchanged), and the lines that
    moved (for the markers of other files that cite this one: `engine_recite`)."""
    from migrate_roots.codemods import _marker_lines
    from migrate_roots.codemods.base import ApplyEdits

    findings = sorted(_not_removed(state), key=Finding.sort_key)
    tools = list(state.extra.get("tools", []))
    shim = state.extra.get("shim")
    new_module = module.visit(ApplyEdits(state)) if (state.edits or state.markers) else module
    new_text = new_module.code
    if module.default_indent == "\t" and new_text != source.text:
        from migrate_roots.codemods._tabs import tabbed

        new_text = tabbed(new_text, source.text)
    if state.markers:
        new_text = _marker_lines.renumber(source.text, new_text, str(path))
    if new_text == source.text:
        return FileResult(path=str(path), status=Status.UNCHANGED, findings=findings, tools=tools), None, ()
    # The re-parse guards what is written or shown; a scan shows no code.
    if options.write or options.want_diff:
        _verify(new_text, source.text, path)
    result = FileResult(path=str(path), status=Status.CHANGED, findings=findings, tools=tools, shim=shim)
    if options.want_diff:
        result.diff = unified_diff(str(path), source.text, new_text)
    # What moved matters only where markers are written or shown (a scan shows none); a diff tells it already.
    if result.diff is not None:
        moved = _marker_lines.moves_from_diff(result.diff)
    else:
        moved = _marker_lines.moves(source.text, new_text) if options.write else ()
    return result, source.encode(new_text), moved


def _not_removed(state: FileState) -> list[Finding]:
    """The findings, but a marker another rule's removal takes away with its statement (a discarded roots read
    in a middleware hook: MR217 removes the line, so MR103's "rewrites nothing here" would not be true)."""
    import libcst as cst

    from migrate_roots.codemods._plumbing_edits import _remove
    from migrate_roots.model import Action

    spans = [
        (state.pos(node)[0], state.end_line(node))
        for node, edits in state.edits.items()
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and _remove in edits
    ]
    if not spans:
        return list(state.findings)
    return [
        f
        for f in state.findings
        if f.action is not Action.MARKED or not any(first <= f.line <= last for first, last in spans)
    ]


def _cpython_problem(text: str) -> str | None:
    """Why CPython's parser refuses `text`, or None."""
    import ast

    try:
        ast.parse(text)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}" if exc.lineno else exc.msg
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte (before 3.12); nesting too deep
        return str(exc)
    return None


def _verify(text: str, old: str, path: Path) -> None:
    """Refuse (a bug of ours) a rewrite that is not valid Python: nothing is written or shown.

    CPython's own parser first: ten times faster than libcst's (a dry run's re-parse was an eighth of its time,
    benchmark 3). A file CPython parsed before must parse after. A file with syntax newer than this
    interpreter fails it before the rewrite too; for such a file libcst's parser decides, as it did for the
    input.
    """
    problem = _cpython_problem(text)
    if problem is None:
        return
    if _cpython_problem(old) is None:
        raise RuntimeError(f"rewrite of {path} does not parse ({problem}); file left alone")
    import libcst as cst

    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise RuntimeError(f"rewrite of {path} does not parse ({exc.message}); file left alone") from None


def unified_diff(name: str, old: str, new: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )


def _shim_result(path: Path, options: Options, since: int) -> FileResult:
    """`write_shim`, except that a shim written during this run (by the worker that wrote the first file
    importing it) is reported as the new file it is."""
    if options.write and path.exists():
        try:
            info = path.stat()
            same = path.read_bytes() == _shim_text(path, options.settings).encode("utf-8")
        except OSError:
            same = False
        if same and info.st_mtime_ns >= since - 10_000_000:
            result = FileResult(path=str(path), status=Status.CHANGED, written=True)
            if options.want_diff:
                name = str(path)
                text = _shim_text(path, options.settings)
                result.diff = unified_diff(name, "", text).replace(f"--- a/{name}", "--- /dev/null", 1)
            return result
    return write_shim(path, options)


# The module is laid out for 88 columns (ruff's and black's default). A project that sets another line length
# gets these lines after its docstring, so that its formatter check and line-length rules stay green on the
# file until a person reformats it (sweep H, r03: 85 E501 and a failing `ruff format --check` at 79).
_LAID_OUT = """
# Laid out for {ours} by migrate-roots; this project uses {theirs}.
# The comments below keep the formatter and line-length checks off
# this file: reformat it to your style, then delete them.
# fmt: off
# ruff: noqa: E501
# flake8: noqa
"""


def render_shim(settings: Settings, width: int = 88, single: bool = False, tabs: bool = False) -> str:
    """The compatibility module, with the operator's variable; `width`: the line length of the project it goes
    into; `single`: the project's isort forces one imported name a statement; `tabs`: its formatter indents
    with tabs."""
    import re
    from importlib.resources import files

    text = (files("migrate_roots.templates") / "_mcp_roots_compat.py").read_text(encoding="utf-8")
    default = 'ALLOWLIST_ENV = "MCP_ROOTS_ALLOWED_PATHS"'
    text = text.replace(default, f"ALLOWLIST_ENV = {settings.allowlist_env!r}".replace("'", '"'), 1)
    if width != 88 or tabs:
        end = text.index('"""\n', 3) + 4  # after the module docstring
        ours = "88 columns" + (", four spaces an indent," if tabs else "")
        theirs = " and ".join(x for x in (str(width) * (width != 88), "tabs" * tabs) if x)
        text = text[:end] + _LAID_OUT.format(ours=ours, theirs=theirs) + text[end:]
    if single:
        # `from x import a, b` would be I001 there (sweep I, r14); the template lists the names in isort's
        # default order (constants, classes, then the rest), which one a line keeps.
        text = re.sub(
            r"^( *)from (\S+) import (\w+(?:, \w+)+)$",
            lambda m: "\n".join(f"{m[1]}from {m[2]} import {n}" for n in m[3].split(", ")),
            text,
            flags=re.M,
        )
    return text


def _shim_text(path: Path, settings: Settings) -> str:
    from migrate_roots.codemods._style import style_of

    style = style_of(str(path))
    return render_shim(settings, style.line_length, style.force_single_line, style.tabs)


def write_shim(path: Path, options: Options) -> FileResult:
    """The compatibility module, written once per package; an existing different file is left alone."""
    text = _shim_text(path, options.settings)
    name = str(path)
    if path.exists():
        try:
            same = path.read_bytes() == text.encode("utf-8")
        except OSError as exc:
            return _failure(name, "MR901", f"cannot read: {exc.strerror or exc}")
        if same:
            return FileResult(path=name, status=Status.UNCHANGED)
        finding = Finding(
            path=name,
            line=1,
            col=1,
            code="MR906",
            message="the compatibility module exists and differs from this version's; left as it is",
            severity=Severity.INFO,
        )
        return FileResult(path=name, status=Status.UNCHANGED, findings=[finding])
    result = FileResult(path=name, status=Status.CHANGED)
    if options.want_diff:
        result.diff = unified_diff(name, "", text).replace(f"--- a/{name}", "--- /dev/null", 1)
    if options.write:
        try:
            writer.write_new(path, text.encode("utf-8"))
        except OSError as exc:
            return _failure(name, "MR901", f"cannot write: {exc.strerror or exc}")
        result.written = True
    return result


def _display(path: Path) -> Path:
    """A path relative to the working directory when it lies below it (as the user named the others)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path
