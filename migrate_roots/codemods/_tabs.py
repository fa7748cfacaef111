"""The indentation of what a rewrite adds, in a file indented with tabs (sweep H, r09).

The rules write their new code with four spaces a level: the `RootPath` block, a wrapped signature, an
argument put on a line of its own. In a file whose own code is indented with tabs (ruff's `indent-style =
"tab"`), those lines would be re-indented by its formatter. Here each line the rewrite added or changed, and
that does not start inside a string, gets a tab for every four spaces of its leading indentation (a line
whose leading spaces are not whole levels is an alignment, left as it is). Lines the rewrite did not touch
are left as they were. The compatibility module keeps its spaces, behind the formatter's off switch
(`engine_output._LAID_OUT`).
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize

_LEAD = re.compile(r"^(\t*)((?:    )+)(?! )")


def tabbed(new: str, old: str) -> str:
    """`new` (a rewrite of `old`, a file indented with tabs) with its added lines indented with tabs. A file
    that indents some blocks with spaces (libcst's default indent is its first block's: sweep S, r03) is left
    as written: a tab there could meet a block of spaces, which Python refuses."""
    inside = _string_lines(new)
    if inside is None or not _tabs_only(old):
        return new
    lines = new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old.splitlines(keepends=True), lines, autojunk=False)
    for tag, _, _, first, last in matcher.get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        for index in range(first, last):
            if index + 1 not in inside:
                lines[index] = _LEAD.sub(lambda m: m[1] + "\t" * (len(m[2]) // 4), lines[index], count=1)
    return "".join(lines)


def _tabs_only(text: str) -> bool:
    """Every block of `text` is indented with tabs alone."""
    try:
        return all(
            set(token.string) <= {"\t"}
            for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type == tokenize.INDENT
        )
    except (tokenize.TokenError, SyntaxError):
        return False


def _string_lines(text: str) -> set[int] | None:
    """The lines (1-based) that start inside a string literal: their leading blanks are the string's."""
    inside: set[int] = set()
    starts: list[int] = []  # the lines f-strings opened on (Python 3.12 tokenizes their parts)
    fstring_start = getattr(tokenize, "FSTRING_START", None)
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING:
                inside.update(range(token.start[0] + 1, token.end[0] + 1))
            elif token.type == fstring_start:
                starts.append(token.start[0])
            elif token.type == fstring_end and starts:
                inside.update(range(starts.pop() + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None  # not ours to fix: the re-parse that follows reports it
    return inside
