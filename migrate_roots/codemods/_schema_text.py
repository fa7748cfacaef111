"""The generated text of a path argument's declaration, laid out within the project's line length.

A description is 170 characters: written on one line it made every low-level schema it joined overflow
(issue 19: ruff's E501 on the field servers). So a long string is split into pieces, one per line, as ruff
format and black would leave them; the low-level rule declares the property once per module as a constant
(`ROOT_PROPERTY`, `ROOTS_PROPERTY`) that each schema names, and a pydantic model's field spreads its call
over several lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import libcst as cst

from migrate_roots.codemods import _imports_by_path

DESCRIPTION_ONE = (
    "Absolute path (or file:// URI) of the directory this tool works in, usually the project or "
    "workspace root. Required when the MCP client does not provide roots."
)
DESCRIPTION_MANY = (
    "Absolute paths (or file:// URIs) of the directories this tool may work in; the first is the main "
    "workspace. Required when the MCP client does not provide roots."
)
PROPERTIES = {"single": "ROOT_PROPERTY", "list": "ROOTS_PROPERTY"}
PROPERTY_COMMENT = (
    "# The explicit directory argument of the tools below, in place of MCP roots (deprecated in MCP "
    "2026-07-28, SEP-2577)."
)


def description(shape: str) -> str:
    return DESCRIPTION_MANY if shape == "list" else DESCRIPTION_ONE


def pieces(text: str, first: int, rest: int) -> list[str]:
    """`text` in pieces of at most `first` (then `rest`) characters, each but the last ending in its space."""
    out: list[str] = []
    for word in text.split(" "):
        room = (first if len(out) <= 1 else rest) - 1
        if out and len(out[-1]) + len(word) + 1 <= room:
            out[-1] += " " + word
        else:
            if out:
                out[-1] += " "
            out.append(word)
    return out


def string_lines(text: str, lead: int, indent: int, width: int) -> str:
    """A string literal for `text` in pieces: the first after `lead` characters of its line, the others each
    on a line of their own at `indent` (what the text holds: relative to the statement's own indentation)."""
    parts = pieces(text, width - lead - 2, width - indent - 2)
    return f"\n{' ' * indent}".join(f'"{part}"' for part in parts)


def property_value(shape: str) -> dict[str, object]:
    """The property `property_statement` writes, as a value (an earlier run's constant is reused)."""
    kind: dict[str, object] = (
        {"type": "array", "items": {"type": "string"}} if shape == "list" else {"type": "string"}
    )
    return {**kind, "description": description(shape)}


def property_statement(shape: str, width: int, name: str = "") -> str:
    """`ROOT_PROPERTY = {"type": "string", "description": (...)}`, a module-level statement."""
    kind = (
        '    "type": "array",\n    "items": {"type": "string"},\n'
        if shape == "list"
        else '    "type": "string",\n'
    )
    text = string_lines(description(shape), 8, 8, width)
    return f'{name or PROPERTIES[shape]} = {{\n{kind}    "description": (\n        {text}\n    ),\n}}\n'


def field_statement(param: str, annotation: str, shape: str, width: int, column: int) -> str:
    """`root: str | None = Field(default=None, description=...)` for a model's body at `column`."""
    one = f'{param}: {annotation} = Field(default=None, description="{description(shape)}")'
    if column + len(one) <= width:
        return one + "\n"
    text = string_lines(description(shape), 8, 8, width - column)
    return (
        f"{param}: {annotation} = Field(\n    default=None,\n    description=(\n        {text}\n    ),\n)\n"
    )


def is_import_or_docstring(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return all(
        isinstance(s, (cst.Import, cst.ImportFrom))
        or (isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString)))
        for s in statement.body
    )


def insert_after_imports(
    texts: list[str], comment: str, width: int, blank: int = 1
) -> Callable[[cst.CSTNode], cst.CSTNode]:
    """Module edit: the statements `texts` (module-level declarations we write) after the last top-level
    import before the first definition, where `ensure_imports` puts its own: they use names those imports
    bring in, and the definitions use them. One comment (`comment`, wrapped to `width`) above the first,
    `blank` lines after the imports (isort's `lines-after-imports`)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        body = list(node.body)
        at = 0
        for index, statement in enumerate(body):
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                break
            if is_import_or_docstring(statement) or _imports_by_path.is_block(statement):
                at = index + 1
        lines = textwrap.wrap(comment[2:], width - 2, break_on_hyphens=False)
        gap = [cst.EmptyLine()] * max(1, blank)
        above = [*gap, *(cst.EmptyLine(comment=cst.Comment(f"# {c}")) for c in lines)]
        new = [
            cst.parse_statement(text).with_changes(leading_lines=above if n == 0 else [])
            for n, text in enumerate(texts)
        ]
        return node.with_changes(body=[*body[:at], *new, *body[at:]])

    return change
