"""CST edits for the low-level rewrite, each in the layout of the code it edits: a dict literal gains an
element, a dict is laid out one element a line, the property constants go after the imports, and the shim's
names are imported in one statement.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods import _schema_text
from migrate_roots.codemods._lowlevel_model import _code


def _merge_imports_from(module: str) -> Any:
    """One `from <shim> import a, b` instead of one statement per name (libcst adds relative ones apart)."""
    dots = len(module) - len(module.lstrip("."))
    name = module.lstrip(".")

    def matches(statement: cst.CSTNode) -> bool:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return False
        imp = statement.body[0]
        return (
            isinstance(imp, cst.ImportFrom)
            and len(imp.relative) == dots
            and imp.module is not None
            and _code(imp.module) == name
            and not isinstance(imp.names, cst.ImportStar)
        )

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        body: list[Any] = []
        first: int | None = None
        for statement in node.body:
            if matches(statement):
                if first is None:
                    first = len(body)
                else:
                    kept = body[first].body[0]
                    assert isinstance(statement, cst.SimpleStatementLine)
                    other = statement.body[0]
                    assert isinstance(other, cst.ImportFrom) and not isinstance(other.names, cst.ImportStar)
                    names = [*kept.names, *other.names]
                    seen: dict[str, cst.ImportAlias] = {}
                    for alias in names:
                        seen.setdefault(_code(alias.name) + str(alias.asname and _code(alias.asname)), alias)
                    merged = list(seen.values())
                    merged = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in merged]
                    merged = [
                        a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                        for a in merged[:-1]
                    ] + merged[-1:]
                    body[first] = body[first].with_changes(body=[kept.with_changes(names=merged)])
                    continue
            body.append(statement)
        return node.with_changes(body=body)

    return change


def _exploded(
    node: cst.Dict,
    inner: cst.ParenthesizedWhitespace,
    outer: cst.ParenthesizedWhitespace,
    deeper: bool = False,
) -> cst.Dict:
    """`node` one element a line (at `inner`, the closing brace at `outer`); `deeper`: its last element's dict
    value too, one level in (`"properties": {**base["properties"], "root": ROOT_PROPERTY}`)."""
    elements = [e.with_changes(comma=cst.Comma(whitespace_after=inner)) for e in node.elements]
    last = elements[-1]
    value = last.value if isinstance(last, cst.DictElement) else None
    if deeper and isinstance(value, cst.Dict) and len(value.elements) > 1:
        last = last.with_changes(value=_exploded(value, _deeper(inner), inner))
    elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=outer))
    return node.with_changes(elements=elements, lbrace=cst.LeftCurlyBrace(whitespace_after=inner))


def _replace_with(new: cst.BaseExpression) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        return new

    return change


def _deeper(sep: cst.ParenthesizedWhitespace, unit: str = "    ") -> cst.ParenthesizedWhitespace:
    return sep.with_changes(
        first_line=cst.TrailingWhitespace(),
        empty_lines=[],
        last_line=cst.SimpleWhitespace(sep.last_line.value + unit),
    )


def _clean(ws: cst.BaseParenthesizableWhitespace) -> cst.BaseParenthesizableWhitespace:
    if isinstance(ws, cst.ParenthesizedWhitespace):
        return ws.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
    return ws


def _insert_constants(named: list[tuple[str, str]], width: int, blank: int = 1) -> Any:
    """Module edit: the property constants ((shape, name): `ROOT_PROPERTY`), after the leading imports, one
    comment above."""
    texts = [_schema_text.property_statement(shape, width, name) for shape, name in named]
    return _schema_text.insert_after_imports(texts, _schema_text.PROPERTY_COMMENT, width, blank)


def _append_element(key: str, make: Any, wrap: cst.ParenthesizedWhitespace | None = None) -> Any:
    """An edit appending `"key": make(sep)` to a dict literal, in the literal's own layout (a one-line literal
    whose line would overflow: the new element on a line of its own, `wrap`)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Dict)
        elements = list(node.elements)
        key_node = cst.SimpleString(f'"{key}"')
        if not elements:
            new_element = cst.DictElement(key_node, make(None))
            if wrap is None:
                return node.with_changes(elements=[new_element])
            outer = wrap.with_changes(last_line=cst.SimpleWhitespace(wrap.last_line.value[:-4]))
            return node.with_changes(
                elements=[new_element],
                lbrace=cst.LeftCurlyBrace(whitespace_after=wrap),
                rbrace=cst.RightCurlyBrace(whitespace_before=outer),
            )
        last = elements[-1]
        # The whitespace between two elements: after the previous comma, or after `{` for a single element.
        if len(elements) > 1 and isinstance(elements[-2].comma, cst.Comma):
            between = _clean(elements[-2].comma.whitespace_after)
        else:
            between = _clean(node.lbrace.whitespace_after)
        multiline = isinstance(between, cst.ParenthesizedWhitespace)
        closing = node.rbrace.whitespace_before  # before `}`, with a comment on the last element's line
        if multiline and isinstance(closing, cst.ParenthesizedWhitespace):
            assert isinstance(between, cst.ParenthesizedWhitespace)
            after_last: Any = closing.with_changes(last_line=between.last_line, indent=between.indent)
            rbrace = node.rbrace.with_changes(whitespace_before=_clean(closing))
        else:
            after_last = between if multiline else (wrap or cst.SimpleWhitespace(" "))
            rbrace = node.rbrace
        if isinstance(last.comma, cst.Comma):
            new_comma: Any = last.comma
            last = last.with_changes(comma=last.comma.with_changes(whitespace_after=after_last))
        else:
            new_comma = cst.MaybeSentinel.DEFAULT
            last = last.with_changes(comma=cst.Comma(whitespace_after=after_last))
        value = make(between if multiline else None)
        new = cst.DictElement(key_node, value, comma=new_comma)
        return node.with_changes(elements=[*elements[:-1], last, new], rbrace=rbrace)

    return change
