"""Marker comments (`# migrate-roots: CODE: message`) laid out within the project's line length.

A marker longer than the line length (ruff's or black's, else 88: `_style`) continues on further comment
lines that start with `#   ` (three spaces: a continuation, never another marker). Whatever reads markers
reads a marker and its continuation lines as one text (`read`), so a wrapped marker is recognised as
already present and a second run adds nothing.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

import libcst as cst

PREFIX = "# migrate-roots:"
CONTINUATION = "#   "
_PLACE = re.compile(r"\(\S+:\d+\)")


def lines(text: str, width: int) -> list[str]:
    """`text` (a whole marker) as comment lines of at most `width` characters (a longer word stays whole)."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(
        text,
        width=max(width, len(PREFIX) + 12),
        subsequent_indent=CONTINUATION,
        break_long_words=False,
        break_on_hyphens=False,
    )


def read(leading_lines: Iterable[cst.EmptyLine]) -> set[str]:
    """The markers above a statement, each with its continuation lines joined (whitespace normalised)."""
    found: list[list[str]] = []
    open_marker = False
    for line in leading_lines:
        comment = line.comment.value.strip() if line.comment is not None else None
        if comment is not None and comment.startswith(PREFIX):
            found.append([comment])
            open_marker = True
        elif comment is not None and open_marker and comment.startswith(CONTINUATION):
            found[-1].append(comment[1:])
        else:
            open_marker = False
    return {normal(" ".join(parts)) for parts in found}


def normal(text: str) -> str:
    """The marker's identity: whitespace normalised and its places (`(server.py:40)`) blanked, since the
    markers a run adds move the lines they name: one of the same text up to its places is the same marker."""
    return _PLACE.sub("(:)", " ".join(text.split()))
