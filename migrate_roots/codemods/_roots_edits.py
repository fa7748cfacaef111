"""The edits of the roots-call family, as pure functions of a node: the shim call in place of a roots read, the
annotation aliases, a parameter or keyword appended in the list's own layout, and where a line must wrap.
"""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from migrate_roots.codemods import _schema_text
from migrate_roots.codemods._layout import fit_header, header_laid_out, overflows, reflow
from migrate_roots.codemods._roots_model import BOUND_FUNCTION, SHIM_FUNCTION
from migrate_roots.codemods._signature import fit
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState


def _replace_site(
    call: cst.Call,
    value: str,
    shape: str,
    name: str,
    wrap: cst.ParenthesizedWhitespace | None = None,
    taken: cst.BaseExpression | None = None,
) -> Any:
    """The call to the shim in place of the roots call; `wrap`: its arguments on a line of their own, when the
    call's line would overflow (`_wrap_at`); `taken`: what a local called here took `list_roots` from
    (`_roots_taken`)."""
    func = call.func
    receiver = func.value if isinstance(func, cst.Attribute) else taken
    assert receiver is not None
    if shape == "result" and isinstance(receiver, cst.Attribute) and receiver.attr.value == "session":
        holder: cst.BaseExpression = receiver.value
    else:
        holder = receiver
    args = [
        cst.Arg(holder),
        cst.Arg(cst.parse_expression(value)),
        cst.Arg(cst.SimpleString(f'"{name}"'), keyword=cst.Name("name"), equal=_EQ),
    ]
    if shape == "list":
        args.append(cst.Arg(cst.SimpleString('"list"'), keyword=cst.Name("shape"), equal=_EQ))

    def change(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        new_holder = updated.func.value if isinstance(updated.func, cst.Attribute) else holder
        if shape == "result" and isinstance(new_holder, cst.Attribute) and new_holder.attr.value == "session":
            new_holder = new_holder.value
        return _called(updated, SHIM_FUNCTION, [args[0].with_changes(value=new_holder), *args[1:]], wrap)

    return change


def _called(
    call: cst.Call, function: str, args: list[cst.Arg], wrap: cst.ParenthesizedWhitespace | None
) -> cst.Call:
    """`call` turned into `function(*args)`; `wrap`: the arguments on a line of their own, the closing
    parenthesis back on the call's indent."""
    if wrap is None:
        return call.with_changes(func=cst.Name(function), args=args)
    closing = wrap.with_changes(last_line=cst.SimpleWhitespace(wrap.last_line.value[:-4]))
    args = [*args[:-1], args[-1].with_changes(whitespace_after_arg=closing)]
    return call.with_changes(func=cst.Name(function), args=args, whitespace_before_args=wrap)


def _replace_bound(
    call: cst.Call,
    shape: str,
    wrap: cst.ParenthesizedWhitespace | None = None,
    taken: cst.BaseExpression | None = None,
) -> Any:
    """`allowed_roots_compat(<what list_roots() was called on>)` in place of a read whose roots bound paths
    (MR110): the receiver is kept whole (`ctx.session`), so it is evaluated, and fails, as before."""

    def change(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        receiver = updated.func.value if isinstance(updated.func, cst.Attribute) else taken
        assert receiver is not None
        args = [cst.Arg(receiver)]
        if shape == "list":
            args.append(cst.Arg(cst.SimpleString('"list"'), keyword=cst.Name("shape"), equal=_EQ))
        return _called(updated, BOUND_FUNCTION, args, wrap)

    return change


_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


ALIASES = {"single": "RootPath", "list": "RootPaths"}
_ALIAS_COMMENT = (
    "# Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28, SEP-2577)."
)


def _type_text(shape: str, settings: Any) -> str:
    old = settings.target < (3, 10)
    inner = ("List[str]" if old else "list[str]") if shape == "list" else "str"
    return f"Optional[{inner}]" if old else f"{inner} | None"


def _alias_statement(shape: str, settings: Any, width: int = 110) -> str:
    """`RootPath = Annotated[str | None, Field(description=...)]`, laid out as ruff/black would, the
    description in as many string pieces as the project's line length (`width`) needs."""
    text = _schema_text.string_lines(_schema_text.description(shape), len("        description="), 8, width)
    return (
        f"{ALIASES[shape]} = Annotated[\n"
        f"    {_type_text(shape, settings)},\n"
        "    Field(\n"
        f"        description={text}\n"
        "    ),\n"
        "]\n"
    )


def _insert_aliases(shapes: list[str], settings: Any, width: int = 110, blank: int = 1) -> Any:
    """Module edit: the annotation aliases, right after the leading imports (with one comment above)."""
    texts = [_alias_statement(shape, settings, width) for shape in shapes]
    return _schema_text.insert_after_imports(texts, _ALIAS_COMMENT, width, blank)


def _fitted(width: int, column: int, original: cst.FunctionDef | None = None) -> Any:
    """The grown signature within `width`: ruff's plain layouts (`_signature.fit`), else, when it still runs
    past and the project laid the `original` out as black does, black's (`_layout.fit_header`: `*`,
    keyword-only). black is asked only for a signature that runs past."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        fitted = fit(node, width, column)
        if original is None or not overflows(fitted, width - column):
            return fitted
        return fit_header(fitted, width - column) if header_laid_out(original, width - column) else fitted

    return change


def _add_tool_param(name: str, annotation_text: str) -> Any:
    annotation = cst.Annotation(cst.parse_expression(annotation_text))

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        param = cst.Param(cst.Name(name), annotation=annotation, default=cst.Name("None"))
        return node.with_changes(params=_append_param(node.params, param))

    return change


def _add_helper_param(name: str, annotation_text: str | None = None) -> Any:
    """`name=None`, or `name: <type> = None` (a helper gets the type of what its tools pass down)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        if annotation_text is None:
            param = cst.Param(cst.Name(name), default=cst.Name("None"), equal=_EQ)
        else:
            annotation = cst.Annotation(cst.parse_expression(annotation_text))
            param = cst.Param(cst.Name(name), annotation=annotation, default=cst.Name("None"))
        return node.with_changes(params=_append_param(node.params, param))

    return change


def _helper_type(shapes: frozenset[str], settings: Any) -> str:
    """The type of a threaded helper parameter: what the tools reaching it pass (their types, or both)."""
    if len(shapes) == 1 and "any" not in shapes:
        return _type_text(next(iter(shapes)), settings)
    if settings.target < (3, 10):
        return "Optional[Union[str, List[str]]]"
    return "str | list[str] | None"


def _add_star_kwargs(name: str) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        return node.with_changes(params=node.params.with_changes(star_kwarg=cst.Param(cst.Name(name))))

    return change


def _append_param(params: cst.Parameters, param: cst.Param) -> cst.Parameters:
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params:
        return params.with_changes(kwonly_params=_append(params.kwonly_params, param))
    if params.star_kwarg is not None and not params.params:
        return params.with_changes(kwonly_params=[param], star_arg=cst.ParamStar())
    return params.with_changes(params=_append(params.params, param))


def _append(items: Any, new: Any) -> list[Any]:
    """`items + [new]` in the list's own layout: one a line with a trailing comma stays so."""
    out = list(items)
    if not out:
        return [new]
    last = out[-1]
    if isinstance(last.comma, cst.Comma) and isinstance(
        last.comma.whitespace_after, cst.ParenthesizedWhitespace
    ):
        # Exploded, trailing comma: the new item takes the last one's comma (newline before the bracket) and the
        # last one takes its neighbour's (newline and indent).
        inner = out[-2].comma if len(out) > 1 and isinstance(out[-2].comma, cst.Comma) else None
        if inner is None:
            indent = last.comma.whitespace_after.with_changes(
                last_line=cst.SimpleWhitespace(_indent_of(last.comma.whitespace_after) + "    ")
            )
            inner = last.comma.with_changes(whitespace_after=indent)
        # A comment at the end of the last item's line (`# type: ignore[...]`) stays on that line.
        kept, bare = _line_end(last.comma.whitespace_after)
        inner = inner.with_changes(whitespace_after=_with_line_end(inner.whitespace_after, kept))
        out[-1] = last.with_changes(comma=inner)
        return [*out, new.with_changes(comma=last.comma.with_changes(whitespace_after=bare))]
    space_field = "whitespace_after_param" if isinstance(last, cst.Param) else "whitespace_after_arg"
    space = getattr(last, space_field, None)
    inner = out[-2].comma if len(out) > 1 and isinstance(out[-2].comma, cst.Comma) else None
    exploded = inner is not None and isinstance(inner.whitespace_after, cst.ParenthesizedWhitespace)
    if (
        last.comma is cst.MaybeSentinel.DEFAULT
        and isinstance(space, cst.ParenthesizedWhitespace)
        and exploded
    ):
        # Exploded, no trailing comma (the newline before the bracket is the last item's): the new item goes
        # on a line of its own, indented like its siblings, and takes that newline. (All on one indented line,
        # as ruff lays a long signature out: the new item joins that line, below.)
        if inner is None or not isinstance(inner.whitespace_after, cst.ParenthesizedWhitespace):
            line = space.with_changes(last_line=cst.SimpleWhitespace(_indent_of(space) + "    "))
            inner = cst.Comma(whitespace_after=line)
        kept, bare = _line_end(space)
        inner = inner.with_changes(whitespace_after=_with_line_end(inner.whitespace_after, kept))
        out[-1] = last.with_changes(comma=inner, **{space_field: cst.SimpleWhitespace("")})
        return [*out, new.with_changes(**{space_field: bare})]
    if last.comma is cst.MaybeSentinel.DEFAULT:
        out[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        # `(\n    a, b\n)`: the newline before the bracket follows the last item; it moves to the new one.
        for attr in ("whitespace_after_param", "whitespace_after_arg"):
            space = getattr(last, attr, None)
            if isinstance(space, cst.ParenthesizedWhitespace):
                out[-1] = out[-1].with_changes(**{attr: cst.SimpleWhitespace("")})
                new = new.with_changes(**{attr: space})
    return [*out, new]


def _line_end(space: Any) -> tuple[cst.TrailingWhitespace | None, Any]:
    """The end of the line a line break closes, when it holds a comment; and the break without it."""
    if not isinstance(space, cst.ParenthesizedWhitespace) or space.first_line.comment is None:
        return None, space
    return space.first_line, space.with_changes(first_line=cst.TrailingWhitespace())


def _with_line_end(space: Any, end: cst.TrailingWhitespace | None) -> Any:
    if end is None or not isinstance(space, cst.ParenthesizedWhitespace):
        return space
    return space.with_changes(first_line=end)


def _indent_of(space: cst.ParenthesizedWhitespace) -> str:
    return space.last_line.value if isinstance(space.last_line, cst.SimpleWhitespace) else ""


_SPLATTED = re.compile(r'^\(?(\w+)(?: or \{\})?\)?\.get\("')


def _add_keyword(keyword: str, value: str, wrap: cst.ParenthesizedWhitespace | None = None) -> Any:
    """`keyword=value` appended to a call's arguments, in their layout; `wrap`: the line break before it when
    the call's one line would overflow (`_wrap_at`)."""

    # `arguments.get("root")`: the dict the value is read from. A call that hands that dict on with `**`
    # (`handle_where(**arguments)`) passes the argument already; a second `root=` would be a TypeError.
    source = _SPLATTED.match(value)

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        if any(a.keyword is not None and a.keyword.value == keyword for a in node.args):
            return node
        if source is not None and any(
            a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == source.group(1)
            for a in node.args
        ):
            return node
        arg = cst.Arg(cst.parse_expression(value), keyword=cst.Name(keyword), equal=_EQ)
        if wrap is None:
            return node.with_changes(args=_append(node.args, arg))
        args = list(node.args)
        if not args:
            return node.with_changes(args=[arg], whitespace_before_args=wrap)
        comma = args[-1].comma if isinstance(args[-1].comma, cst.Comma) else cst.Comma()
        args[-1] = args[-1].with_changes(comma=comma.with_changes(whitespace_after=wrap))
        return node.with_changes(args=[*args, arg])

    return change


def _wrap_at(state: FileState, node: cst.CSTNode, added: int) -> cst.ParenthesizedWhitespace | None:
    """A line break, four columns in from its line, when `added` characters would make the one line `node`
    sits on longer than the project's line length (a node over several lines keeps its own layout). Its
    statement is then laid out as a formatter would (`_layout.reflow`), where it can be."""
    if _in_fstring(state, node):
        return None  # a break inside a replacement field does not parse before Python 3.12 (sweep V, r01)
    code = state.wrapper.module.code_for_node(node)
    first = state.pos(node)[0]
    if "\n" in code:
        # A call laid over several lines takes the new argument on its last argument's line (`(\n    a, b\n)`):
        # when that line grows too long, the statement is laid out again. Measured in the file, with the
        # blocks' indentation the node's own code leaves out (sweep V, r07).
        lines = code.split("\n")
        index = first - 1 + len(lines) - (2 if lines[-1].strip().startswith(")") else 1)
        if index < len(state.lines) and _width(state.lines[index]) + added > style_of(state.path).line_length:
            reflow(state, node)
        return None
    if _width(state.lines[first - 1]) + added <= style_of(state.path).line_length:
        return None
    reflow(state, node)
    return cst.ParenthesizedWhitespace(
        indent=True, last_line=cst.SimpleWhitespace(" " * (_extra(state, node) + 4))
    )


# A trailing comment formatters leave out of the width (ruff's pragma comments): sweep V, r02.
_PRAGMA = re.compile(r"\s*#\s*(?:noqa|type:|pyright:|pylint:|mypy:|ruff:|isort:|nosec|pragma:)[^#]*$")


def _width(line: str) -> int:
    """The columns a line takes as ruff measures it: tabs as 4 (sweep V, r03), a trailing pragma left out."""
    return len(_PRAGMA.sub("", line.rstrip("\n")).expandtabs(4))


def _in_fstring(state: FileState, node: cst.CSTNode) -> bool:
    current = state.parent(node)
    while current is not None and not isinstance(current, cst.BaseStatement):
        if isinstance(current, cst.FormattedString):
            return True
        current = state.parent(current)
    return False


def _extra(state: FileState, node: cst.CSTNode) -> int:
    """How far `node`'s line is indented beyond its statement's first line: a wrapped line is indented from the
    statement's block (`indent=True`), which a later edit may move (a `try` the low-level rule adds)."""
    line = state.lines[state.pos(node)[0] - 1]
    first = state.lines[state.pos(state.statement_of(node))[0] - 1]
    return max(0, (len(line) - len(line.lstrip())) - (len(first) - len(first.lstrip())))
