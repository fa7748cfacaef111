"""Places a marker cites (`reach only from `list_repos` (pkg/server.py:16)`), renumbered for the files as
written: the reasons are worded on the sources as read, and every marker or edit above the cited line moves it.
Findings keep the numbers of the sources as read, which is what they are reported against.

A citation of the marker's own file is renumbered when the file is rewritten (`renumber`). A citation of
another file the same run changes is renumbered once that file's moves are known (`recite`, run by the engine
after the rewrite phase: `engine_recite`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping

_CITE = re.compile(r"\((?P<file>[\w./\\-]+\.pyi?):(?P<line>\d+)\)")
_MARKER = re.compile(r"^\s*#\s*migrate-roots:")
_CONTINUATION = re.compile(r"^\s*#   \S")

# (first line as read, first line as written, how many lines), 1-based: the blocks that keep their lines.
Moves = tuple[tuple[int, int, int], ...]


def moves(old_text: str, new_text: str) -> Moves:
    """The blocks of lines a rewrite kept (and the first lines of each edited block, paired in order)."""
    old, new = old_text.splitlines(keepends=True), new_text.splitlines(keepends=True)
    out: list[tuple[int, int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append((i1 + 1, j1 + 1, i2 - i1))
        elif tag == "replace":
            out.append((i1 + 1, j1 + 1, min(i2 - i1, j2 - j1)))
    return tuple(out)


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_REST = 1 << 40  # a block's length "to the end of the file" (the lines after a diff's last hunk)


def moves_from_diff(diff: str) -> Moves:
    """The same blocks as `moves`, read off a unified diff of the rewrite (a dry run has one already: no second
    comparison of the texts): the lines between hunks and each hunk's context lines are kept, a run of removed
    lines pairs its first lines with the added run after it, and the lines after the last hunk are kept."""
    out: list[tuple[int, int, int]] = []
    old = new = 1
    removed = added = 0

    def flush() -> None:
        nonlocal removed, added
        if removed and added:
            out.append((old - removed, new - added, min(removed, added)))
        removed = added = 0

    for line in diff.splitlines():
        hunk = _HUNK.match(line)
        if hunk:
            flush()
            start, length = int(hunk[1]), int(hunk[2] or 1)
            first = start if length else start + 1  # an empty side names the line before it
            if first > old:
                out.append((old, new, first - old))
            new += first - old
            old = first
        elif (
            line.startswith(("---", "+++"))
            and not out
            and old == 1
            and new == 1
            and not removed
            and not added
        ):
            continue  # the file names
        elif line.startswith(" "):
            flush()
            out.append((old, new, 1))
            old, new = old + 1, new + 1
        elif line.startswith("-"):
            if added:
                flush()
            removed, old = removed + 1, old + 1
        elif line.startswith("+"):
            added, new = added + 1, new + 1
    flush()
    out.append((old, new, _REST))
    return tuple(out)


def _table(blocks: Moves) -> Callable[[int], int | None]:
    def where(line: int) -> int | None:
        for first, written, count in blocks:
            if first <= line < first + count:
                return written + line - first
        return None

    return where


def _same_file(path: str, cited: str) -> bool:
    path, cited = path.replace("\\", "/"), cited.replace("\\", "/")
    return path == cited or path.endswith("/" + cited)


def renumber(old_text: str, new_text: str, path: str) -> str:
    """`new_text` with the lines its markers cite in the file at `path` moved to where they are now."""
    if "migrate-roots:" not in new_text or _CITE.search(new_text) is None:
        return new_text
    table: Callable[[int], int | None] | None = None

    def lookup(cited: str) -> Callable[[int], int | None] | None:
        nonlocal table
        if not _same_file(path, cited):
            return None
        if table is None:
            table = _table(moves(old_text, new_text))
        return table

    return "".join(_renumbered(new_text.splitlines(keepends=True), lookup, ""))


def cites_elsewhere(message: str, path: str) -> bool:
    """Whether a finding's message cites a line of a file other than its own."""
    return any(not _same_file(path, m["file"]) for m in _CITE.finditer(message))


def recite(text: str, path: str, changed: Mapping[str, Moves], prefix: str = "") -> str:
    """`text` (a file as written, or a diff of it: `prefix` "+") with the lines its markers cite in other files
    that this run changed moved to where they are now. A citation that names more than one of them (two
    `server.py` files in folders of one name) is left as read."""
    tables: dict[str, Callable[[int], int | None]] = {}

    def lookup(cited: str) -> Callable[[int], int | None] | None:
        if _same_file(path, cited):
            return None
        found = [p for p in changed if _same_file(p, cited)]
        if len(found) != 1:
            return None
        if found[0] not in tables:
            tables[found[0]] = _table(changed[found[0]])
        return tables[found[0]]

    return "".join(_renumbered(text.splitlines(keepends=True), lookup, prefix))


def _renumbered(
    lines: list[str], lookup: Callable[[str], Callable[[int], int | None] | None], prefix: str
) -> list[str]:
    inside = False
    for index, line in enumerate(lines):
        if prefix and not line.startswith(prefix):
            inside = False
            continue
        body = line[len(prefix) :]
        inside = bool(_MARKER.match(body)) or (inside and bool(_CONTINUATION.match(body)))
        if not inside or _CITE.search(body) is None:
            continue

        def place(match: re.Match[str]) -> str:
            table = lookup(match["file"])
            line_number = table(int(match["line"])) if table is not None else None
            return match[0] if line_number is None else f"({match['file']}:{line_number})"

        lines[index] = prefix + _CITE.sub(place, body)
    return lines
