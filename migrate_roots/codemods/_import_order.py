"""Where a new `from module import names` goes: its section and place, as ruff's `I` rules (isort) sort them.

Sections in order: `__future__`, standard library, third party, first party, local (relative). Within a
section, `import x` statements come first, then `from x import ...` ones ordered by module name (case
folded; relative ones furthest first). Names inside one statement: CONSTANTS, then Classes, then the rest.
The file's first block of imports (up to its first other statement) is classified the same way, so a new
statement lands in the group of its section where ruff would sort it, or opens a group of its own (set off
by a blank line) between the groups before and after its section. Nothing already there is reordered: a file
whose imports were not sorted gets its new imports in the most plausible place.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import libcst as cst

FUTURE, STDLIB, THIRD, FIRST, LOCAL = range(5)
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))

FirstParty = Callable[[str], bool]


def section(module: str, first_party: FirstParty) -> int:
    if module.startswith("."):
        return LOCAL
    top = module.split(".")[0]
    if top == "__future__":
        return FUTURE
    if top in _STDLIB:
        return STDLIB
    return FIRST if first_party(top) else THIRD


def _natural(text: str) -> list[tuple[int, int]]:
    """ruff's natural order: character by character, a run of digits as one number."""
    return [
        (ord("0"), int(part)) if part.isdigit() else (ord(part), 0) for part in re.findall(r"\d+|\D", text)
    ]


def module_key(module: str) -> tuple[int, list[Any]]:
    dots = len(module) - len(module.lstrip("."))
    return -dots, _natural(module.lstrip(".").lower())


def name_key(name: str) -> tuple[int, list[Any]]:
    """ruff's `order-by-type`: CONSTANTS, then Classes, then everything else."""
    rank = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return rank, _natural(name)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def describe(statement: Any, first_party: FirstParty) -> tuple[int, int, Any, Any] | None:
    """(section, 0 for `import x` or 1 for `from x import`, module key, first name's key) of a one-import
    line, else None. The name orders two lines of one module (isort's `force-single-line`)."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    item = statement.body[0]
    if isinstance(item, cst.Import):
        name = _code(item.names[0].name)
        return section(name, first_party), 0, module_key(name), ()
    if isinstance(item, cst.ImportFrom):
        name = "." * len(item.relative) + (_code(item.module) if item.module is not None else "")
        first = () if isinstance(item.names, cst.ImportStar) else name_key(_code(item.names[0].name))
        return section(name, first_party), 1, module_key(name), first
    return None


def _first_block(body: list[Any], start: int) -> list[int]:
    """Indexes of the first run of import lines at or after `start` (ended by any other statement)."""
    block: list[int] = []
    for index in range(start, len(body)):
        statement = body[index]
        is_import = isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        )
        if not is_import:
            if block:
                break
            if isinstance(statement, cst.SimpleStatementLine) and index == start:
                continue  # the docstring
            break
        block.append(index)
    return block


def _after_path_change(body: list[Any], module: str, first_party: FirstParty) -> list[int]:
    """The last block of imports of the project that a script puts after changing `sys.path`
    (`sys.path.insert(0, str(ROOT))`, then `from pkg.config import ...`): an import of the project goes there,
    where it resolves (sweep J r03 of session 21); [] when there is none, or `module` is not the project's."""
    if section(module, first_party) < FIRST:
        return []
    changed, found = False, []
    index = 0
    while index < len(body):
        statement = body[index]
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if not changed:
            changed = "sys.path" in _code(statement) and not _is_import(statement)
            index += 1
            continue
        block = _first_block(body, index) if _is_import(statement) else []
        if block:
            kinds = [describe(body[i], first_party) for i in block]
            if any(d is not None and d[0] >= FIRST for d in kinds):
                found = block
            index = block[-1] + 1
            continue
        index += 1
    return found


def _is_import(statement: Any) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
    )


def _split_blank(lines: Any) -> tuple[list[cst.EmptyLine], list[cst.EmptyLine]]:
    """Leading lines as (the blank lines before the first comment, the rest)."""
    lines = list(lines)
    cut = 0
    while cut < len(lines) and lines[cut].comment is None:
        cut += 1
    return lines[:cut], lines[cut:]


def insert_one(
    body: list[Any], module: str, statement: cst.SimpleStatementLine, after: int, first_party: FirstParty
) -> list[Any]:
    """`body` with `statement` (a `from module import ...`) where ruff's isort would have it.

    `after`: the index after which it goes when the file has no import to sort it against."""
    body = list(body)
    start = 0
    block = _after_path_change(body, module, first_party) or _first_block(body, start)
    known = [(i, d) for i in block if (d := describe(body[i], first_party)) is not None]
    if not known:
        body.insert(after + 1, statement)
        if after + 2 < len(body):  # a new import block: set off from what follows, as isort does
            following = body[after + 2]
            wanted = 2 if isinstance(following, (cst.FunctionDef, cst.ClassDef)) else 1
            blank, rest = _split_blank(following.leading_lines)
            if len(blank) < wanted:
                body[after + 2] = following.with_changes(leading_lines=[cst.EmptyLine()] * wanted + rest)
        return body
    kind = section(module, first_party)
    item = statement.body[0]
    names = item.names if isinstance(item, cst.ImportFrom) else ()
    first = name_key(_code(names[0].name)) if isinstance(names, Sequence) and names else ()
    key = (kind, 1, module_key(module), first)
    same = [i for i, d in known if d[0] == kind]
    if same:
        bigger = [i for i, d in known if d[0] == kind and d > key]
        if not bigger:
            body.insert(same[-1] + 1, statement)
            return body
        at = bigger[0]
        if at == same[0]:  # the new first line of its group takes the group's blank lines
            blank, rest = _split_blank(body[at].leading_lines)
            statement = statement.with_changes(leading_lines=blank)
            body[at] = body[at].with_changes(leading_lines=rest)
        body.insert(at, statement)
        return body
    later = [i for i, d in known if d[0] > kind]
    if not later:  # a new group after the last one
        body.insert(known[-1][0] + 1, statement.with_changes(leading_lines=[cst.EmptyLine()]))
        return body
    at = later[0]
    blank, rest = _split_blank(body[at].leading_lines)
    if at == known[0][0]:
        statement = statement.with_changes(leading_lines=blank)  # the first import: nothing to set off from
    else:
        statement = statement.with_changes(leading_lines=blank or [cst.EmptyLine()])
    body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine(), *rest])
    body.insert(at, statement)
    return body


def sorted_names(names: list[str]) -> list[str]:
    return sorted(names, key=name_key)


def position(existing: list[str], name: str) -> int:
    """Where `name` joins the names of an existing import: sorted if they were (ruff's way or plain)."""
    if existing == sorted_names(existing):
        return sum(1 for n in existing if name_key(n) < name_key(name))
    if existing == sorted(existing):
        return sum(1 for n in existing if n < name)
    return len(existing)
