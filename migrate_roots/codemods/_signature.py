"""A signature that grew past the project's line length is laid out as ruff's formatter would.

Only a signature with plain parameters (no `/`, `*`, `**`) is re-laid: a one-line one, or one ruff already
laid with all its parameters on one indented line (`(\n    a, b\n)`, sweep S r02): first all parameters on
one indented line, else one a line with a trailing comma. Anything else is left as it is.
"""

from __future__ import annotations

import libcst as cst

_SPACE = cst.SimpleWhitespace("")


def _nl(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(indent)
    )


def fit(node: cst.FunctionDef, width: int, column: int) -> cst.FunctionDef:
    """`node` (a `def` starting at `column`) within `width` columns where ruff's formatter would put it."""
    params = node.params
    plain = (
        not params.posonly_params
        and params.star_arg is cst.MaybeSentinel.DEFAULT
        and not params.kwonly_params
        and params.star_kwarg is None
        and params.params
    )
    if not plain:
        return node
    items = list(params.params)
    if isinstance(node.whitespace_before_params, cst.ParenthesizedWhitespace):
        if not _hugged(items):
            return node  # laid out by hand, or one a line already
        flat = [p.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for p in items]
        flat[-1] = flat[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=_SPACE)
        line = cst.Module([]).code_for_node(params.with_changes(params=flat))
        if column + 4 + len(line) <= width:
            return node
        one_line = line + " " * width  # too long: one a line
    else:
        header = (
            cst.Module([]).code_for_node(node.with_changes(leading_lines=[], decorators=[])).split("\n")[0]
        )
        if column + len(header) <= width or "(" not in header:
            return node
        one_line = cst.Module([]).code_for_node(params)
    if column + 4 + len(one_line) <= width:
        items[-1] = items[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=_nl(""))
    else:
        comma = cst.Comma(whitespace_after=_nl("    "))
        items = [p.with_changes(comma=comma, whitespace_after_param=cst.SimpleWhitespace("")) for p in items]
        items[-1] = items[-1].with_changes(comma=cst.Comma(whitespace_after=_nl("")))
    return node.with_changes(whitespace_before_params=_nl("    "), params=params.with_changes(params=items))


def _hugged(items: list[cst.Param]) -> bool:
    """`(\n    a, b\n)`: one line of parameters, the line break before the bracket after the last, no trailing
    comma, no comment."""
    last = items[-1]
    if last.comma is not cst.MaybeSentinel.DEFAULT:
        return False
    space = last.whitespace_after_param
    if not isinstance(space, cst.ParenthesizedWhitespace) or space.first_line.comment is not None:
        return False
    return all(
        isinstance(p.comma, cst.Comma) and isinstance(p.comma.whitespace_after, cst.SimpleWhitespace)
        for p in items[:-1]
    )
