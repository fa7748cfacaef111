"""A signature that grew past the project's line length is laid out as ruff's formatter would.

Only a one-line signature with plain parameters (no `/`, `*`, `**`) is re-laid: first all parameters on
one indented line, else one a line with a trailing comma. Anything else is left as it is.
"""

from __future__ import annotations

import libcst as cst


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
    header = cst.Module([]).code_for_node(node.with_changes(leading_lines=[], decorators=[])).split("\n")[0]
    if not plain or column + len(header) <= width or "(" not in header:
        return node
    if isinstance(node.whitespace_before_params, cst.ParenthesizedWhitespace):
        return node  # already multi-line
    items = list(params.params)
    one_line = cst.Module([]).code_for_node(params)
    if column + 4 + len(one_line) <= width:
        items[-1] = items[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=_nl(""))
    else:
        comma = cst.Comma(whitespace_after=_nl("    "))
        items = [p.with_changes(comma=comma, whitespace_after_param=cst.SimpleWhitespace("")) for p in items]
        items[-1] = items[-1].with_changes(comma=cst.Comma(whitespace_after=_nl("")))
    return node.with_changes(whitespace_before_params=_nl("    "), params=params.with_changes(params=items))
