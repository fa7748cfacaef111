"""A statement a rewrite made longer than the project's line length, laid out as black and ruff format do.

The call edits break an overlong line by hand (`_roots_edits._wrap_at`: `f(ctx,\n    root=root)`), which
no formatter writes, so a project that checks its format would see the line rewritten again. A statement of
one line is therefore handed to black (a library, because its splitting rules, right-hand split first, then
one element a line with a magic trailing comma, are what a maintainer's formatter writes, and they are long
to restate) with the project's line length less the statement's indentation, its strings left as written.
The comments above it (a marker) are kept apart. A statement the project does not lay out as black does (black
would change it before the rewrite), a compound statement's header (`if f(x):`), or a statement black cannot
read (syntax newer than it knows), keeps the hand-made break.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import libcst as cst

from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState

_NARROWEST = 40  # a deeply nested statement is still laid out, if a little past the line


def reflow(state: FileState, node: cst.CSTNode, deeper: int = 0) -> None:
    """Lay the one-line statement holding `node` out again once the rewrite's edits are in (an edit on the
    statement sees its updated children: `base.ApplyEdits`). Once a statement; `deeper`: the columns a later
    edit indents it by (the low-level rule's `try` around a read: sweep V, r06), asked by that edit."""
    statement = state.statement_of(node)
    if not isinstance(statement, cst.SimpleStatementLine):
        return
    done: set[tuple[cst.CSTNode, int]] = state.extra.setdefault("reflowed", set())
    if (statement, deeper) in done:
        return
    done.add((statement, deeper))
    line, column = state.pos(statement)
    indent = state.lines[line - 1][: column - 1] if line <= len(state.lines) else ""
    width = max(style_of(state.path).line_length - len(indent.expandtabs(4)), _NARROWEST)  # a tab as ruff's 4
    # Only a statement the project already lays out as black does: one laid out otherwise (a hand-wrapped
    # schema list) would be rewritten whole, far past the line that grew; it keeps the hand-made break.
    if _formatted(_code(statement), width) is not None:
        state.edit(statement, partial(_black, max(width - deeper, _NARROWEST)))


def _mode(width: int) -> Any:
    """black's settings: the width, strings as written, and Python 3.8 and later (the sources we support), so a
    split signature with `*` gets its magic trailing comma, as ruff writes it."""
    import black  # noqa: PLC0415

    versions = {v for v in black.TargetVersion if v.value >= black.TargetVersion.PY38.value}
    return black.Mode(line_length=width, string_normalization=False, target_versions=versions)


def _code(node: Any) -> str:
    return cst.Module(body=[node.with_changes(leading_lines=())]).code


def _formatted(code: str, width: int) -> str | None:
    """`code` when black leaves it as it is (else None: not the project's layout, or syntax black does not
    know)."""
    return code if _laid_out(code, width) == code else None


def _laid_out(code: str, width: int) -> str | None:
    """`code` as black lays it out in `width` columns, or None where black cannot read it."""
    try:
        import black  # noqa: PLC0415  (only a run that wraps a line pays for it)

        return str(black.format_str(code, mode=_mode(width)))
    except Exception:  # noqa: BLE001  (black's own errors, and syntax it does not know)
        return None


def _black(width: int, node: Any) -> Any:
    """`node`, a one-line statement, as black lays it out; as it is where black or libcst cannot."""
    text = _laid_out(_code(node), width)
    try:
        new = cst.parse_statement(text) if text is not None else None
    except Exception:  # noqa: BLE001  (as `_laid_out`: keep the hand-made break)
        return node
    if not isinstance(new, cst.SimpleStatementLine):
        return node
    return new.with_changes(leading_lines=node.leading_lines)


def _header(node: cst.FunctionDef) -> str:
    """The `def` line(s) of `node`, with `pass` for a body (black would join `...` to the `def` line)."""
    stub = cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])])
    return cst.Module(body=[node.with_changes(body=stub, leading_lines=(), decorators=())]).code


def overflows(node: cst.FunctionDef, width: int) -> bool:
    """A line of `node`'s signature is longer than `width`."""
    return any(len(line.expandtabs(4)) > width for line in _header(node).splitlines())


def header_laid_out(node: cst.FunctionDef, width: int) -> bool:
    """`node`'s signature is as black lays it out in `width` columns (the project formats so)."""
    return _formatted(_header(node), max(width, _NARROWEST)) is not None


def fit_header(node: cst.FunctionDef, width: int) -> cst.FunctionDef:
    """`node` with its signature laid out by black when a line of it is longer than `width` (a signature the
    plain layout of `_signature.fit` does not take: `*`, keyword-only parameters, `**kwargs`)."""
    if not overflows(node, width):
        return node
    text = _laid_out(_header(node), max(width, _NARROWEST))
    try:
        new = cst.parse_statement(text) if text is not None else None
    except Exception:  # noqa: BLE001  (as `_laid_out`: keep the hand-made break)
        return node
    if not isinstance(new, cst.FunctionDef):
        return node
    return node.with_changes(
        params=new.params, whitespace_before_params=new.whitespace_before_params, returns=new.returns
    )
