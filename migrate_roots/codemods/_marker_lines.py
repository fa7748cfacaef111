"""Places a marker cites in its own file (`reach only from `list_repos` (pkg/server.py:16)`), renumbered for the
file as written: the reasons are worded on the source as read, and every marker or edit above the cited line
moves it. Findings keep the numbers of the source as read, which is what they are reported against.
"""

from __future__ import annotations

import difflib
import re

_CITE = re.compile(r"\((?P<file>[\w./\\-]+\.pyi?):(?P<line>\d+)\)")
_MARKER = re.compile(r"^\s*#\s*migrate-roots:")
_CONTINUATION = re.compile(r"^\s*#   \S")


def _moved(old: list[str], new: list[str]) -> dict[int, int]:
    """Line of the source as read (1-based) -> its line as written, for the lines that survive unchanged, and
    the first line of an edited block for the block's first line."""
    moved: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            moved.update((i1 + k + 1, j1 + k + 1) for k in range(i2 - i1))
        elif tag == "replace":
            moved.update((i1 + k + 1, j1 + k + 1) for k in range(min(i2 - i1, j2 - j1)))
    return moved


def renumber(old_text: str, new_text: str, path: str) -> str:
    """`new_text` with the lines its markers cite in the file at `path` moved to where they are now."""
    if "migrate-roots:" not in new_text or _CITE.search(new_text) is None:
        return new_text
    target = path.replace("\\", "/")
    new = new_text.splitlines(keepends=True)
    moved: dict[int, int] | None = None
    inside = False
    for index, line in enumerate(new):
        inside = bool(_MARKER.match(line)) or (inside and bool(_CONTINUATION.match(line)))
        if not inside or _CITE.search(line) is None:
            continue
        if moved is None:
            moved = _moved(old_text.splitlines(keepends=True), new)

        def place(match: re.Match[str], table: dict[int, int] = moved) -> str:
            cited = match["file"].replace("\\", "/")
            if not (target == cited or target.endswith("/" + cited)):
                return match[0]
            line_number = table.get(int(match["line"]))
            return match[0] if line_number is None else f"({match['file']}:{line_number})"

        new[index] = _CITE.sub(place, line)
    return "".join(new)
