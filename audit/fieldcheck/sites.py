"""The independent site count: every roots reference in a file, found with ``tokenize``.

Deliberately not our engine's findings: a site the rules never recognise must still be counted, or the
field check could not show a silent miss. A *site* is one token:

- ``list_roots`` after a dot, called (``call``) or taken as a value (``attr``: ``wait_for(s.list_roots, ...)``,
  ``getattr`` results, test doubles assigned to it); a bare ``list_roots`` name that is not a definition
  (``name``: an imported helper, a local alias); the string ``"list_roots"`` (``string``: ``getattr(session,
  "list_roots")``, ``hasattr``);
- a roots/list request built by hand (``request``): the name ``ListRootsRequest`` (``session.send_request(
  ServerRequest(ListRootsRequest()), ...)``) or the string ``"roots/list"``;
- a roots notification registration (``notification``): the names ``RootsListChangedNotification``,
  ``on_roots_list_changed``, ``roots_list_changed``, and any string holding
  ``notifications/roots/list_changed``.

Comments and docstrings never count (a docstring is a string whose value is not exactly one of the above);
import statements do not either (they follow the uses, and pyflakes reports an import left unused).
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

LIST_ROOTS = "list_roots"
NOTIFICATION_NAMES = frozenset(
    {"RootsListChangedNotification", "on_roots_list_changed", "roots_list_changed"}
)
NOTIFICATION_METHOD = "notifications/roots/list_changed"
REQUEST_NAME = "ListRootsRequest"  # a raw ``session.send_request(ServerRequest(ListRootsRequest()), ...)``
REQUEST_METHOD = "roots/list"
_SKIP = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


@dataclass(frozen=True)
class Site:
    file: str  # relative to the repository root, POSIX separators
    line: int
    col: int
    kind: str  # call | attr | name | string | request | notification
    token: str  # the token as written
    text: str  # the source line, stripped: with file, the key a verdict is kept under

    def to_json(self) -> dict:
        return asdict(self)


class Untokenizable(Exception):
    """The file cannot be tokenized (not Python, or broken): reported per file, never skipped silently."""


def _string_value(token: str) -> str | None:
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None  # f-strings and friends: not a literal
    return value if isinstance(value, str) else None


def find_sites(source: str, file: str) -> list[Site]:
    """Every roots site of one file's source, in source order."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type not in _SKIP]
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        raise Untokenizable(f"{file}: {exc}") from exc
    lines = source.splitlines()
    sites: list[Site] = []
    # Logical-line bookkeeping: an import statement starts with `import` or `from` as its first token.
    all_tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    first_of_logical: set[tuple[int, int]] = set()
    expect_first = True
    for tok in all_tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.ENCODING):
            expect_first = True
            continue
        if tok.type in _SKIP:
            continue
        if expect_first:
            first_of_logical.add(tok.start)
            expect_first = False
    in_import = False
    for index, tok in enumerate(tokens):
        if tok.start in first_of_logical:
            in_import = tok.type == tokenize.NAME and tok.string in ("import", "from")
        prev = tokens[index - 1] if index else None
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        kind = None
        if tok.type == tokenize.NAME and not in_import:
            after_dot = prev is not None and prev.type == tokenize.OP and prev.string == "."
            defined = prev is not None and prev.type == tokenize.NAME and prev.string in ("def", "class")
            if tok.string == LIST_ROOTS and not defined:
                called = nxt is not None and nxt.type == tokenize.OP and nxt.string == "("
                kind = ("call" if called else "attr") if after_dot else "name"
            elif tok.string in NOTIFICATION_NAMES:
                kind = "notification"
            elif tok.string == REQUEST_NAME and not defined:
                kind = "request"
        elif tok.type == tokenize.STRING:
            value = _string_value(tok.string)
            if value == LIST_ROOTS:
                kind = "string"
            elif value == REQUEST_METHOD:
                kind = "request"  # a hand-built JSON-RPC roots/list request
            elif value is not None and (
                NOTIFICATION_METHOD in value and " " not in value.strip() or value in NOTIFICATION_NAMES
            ):
                kind = "notification"  # the method name itself (a key, a route), not prose that mentions it
        if kind is None:
            continue
        line = tok.start[0]
        text = lines[line - 1].strip() if line - 1 < len(lines) else ""
        sites.append(Site(file, line, tok.start[1], kind, tok.string, text))
    return sites


def python_files(tree: Path, paths: list[str]) -> list[Path]:
    """The ``.py`` files under ``paths`` (relative to ``tree``), sorted, without duplicates."""
    seen: dict[Path, None] = {}
    for base in paths:
        root = tree / base
        found = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for file in found:
            if file.suffix == ".py" and ".git" not in file.parts:
                seen.setdefault(file, None)
    return list(seen)


def count_tree(tree: Path, paths: list[str]) -> tuple[list[Site], list[str]]:
    """Sites of every file under ``paths``, and the files that could not be tokenized."""
    sites: list[Site] = []
    errors: list[str] = []
    for file in python_files(tree, paths):
        rel = file.relative_to(tree).as_posix()
        try:
            source = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError) as exc:
            errors.append(f"{rel}: {exc}")
            continue
        try:
            sites.extend(find_sites(source, rel))
        except Untokenizable as exc:
            errors.append(str(exc))
    return sites, errors


def site_keys(sites: list[Site]) -> list[str]:
    """A key per site that survives line moves: file, the stripped line, and the token's rank on it.

    Two identical lines in one file (``roots = await ctx.list_roots()`` twice) get ``#1``, ``#2``.
    """
    seen: dict[tuple[str, str, str], int] = {}
    keys = []
    for site in sites:
        ident = (site.file, site.text, site.token)
        seen[ident] = seen.get(ident, 0) + 1
        suffix = f" #{seen[ident]}" if seen[ident] > 1 else ""
        keys.append(f"{site.file}: {site.text}{suffix} [{site.token}]")
    return keys
