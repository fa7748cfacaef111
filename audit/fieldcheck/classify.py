"""Per site, after ``apply``: rewritten, marked, or silent (and broken when its file stops compiling).

The before and after texts of a file are aligned line by line (difflib). A site whose line survives
unchanged, or whose token still appears as a direct reference in the lines that replaced it, is still
there: ``marked`` when a ``# migrate-roots: CODE: message`` comment sits within ``MARKER_WINDOW`` lines
above it (the nearest one is recorded), else ``silent``. A site whose token is gone from the replacing
lines, or now goes through the compat shim (``list_roots_compat``, ``allowed_roots_compat``), or sits in a
capability test the rewrite widened (``if root is not None or hasattr(ctx, "list_roots"):``), or kept in front of a
read through the shim that passes no value (it runs only without the argument), is ``rewritten``. Whether a rewrite is *right* is what the hand-kept verdicts say (verdicts.py).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .sites import Site

MARKER_WINDOW = 4  # lines above the site's line searched for its marker
MARKER = re.compile(r"#\s*migrate-roots:\s*(?P<code>MR\d+)\s*:\s*(?P<text>.*?)\s*$")
CONTINUATION = re.compile(r"^\s*#   (?P<text>\S.*)$")  # a wrapped marker's further lines
SHIM = re.compile(r"\b(list|allowed)_roots_compat\b|\b_mcp_roots_compat\b")


@dataclass(frozen=True)
class Outcome:
    status: str  # rewritten | marked | silent | broken
    after_line: int | None  # 1-based line of the reference after migration, when it is still there
    code: str | None = None  # the marker's rule code
    message: str | None = None  # the marker's text
    how: str = ""  # one word on how it was decided: unchanged | edited | gone | shim | file-gone


def _direct(line: str, token: str) -> bool:
    """The token still appears on this line as code (not in a trailing comment, not via the shim)."""
    if SHIM.search(line):
        return False
    if token[-1:] in ("'", '"'):  # a string site: its value, quoted either way
        value = token.lstrip("rRbBuUfF")[1:-1].strip("'\"")
        return re.search(rf"['\"]{re.escape(value)}['\"]", line) is not None
    code = line.split("#", 1)[0]
    return re.search(rf"(?<!\w){re.escape(token)}(?!\w)", code) is not None


def find_marker(after_lines: list[str], index: int, window: int = MARKER_WINDOW) -> tuple[str, str] | None:
    """The nearest marker on the line ``index`` (0-based) itself or within ``window`` lines above it.

    A marker wrapped to the project's line length goes on over ``#   `` continuation lines; those lines are
    part of the marker, so they do not count towards the window and their text joins the marker's."""
    j, seen = index, 0
    tail: list[str] = []
    while j >= 0 and seen <= window:
        line = after_lines[j]
        m = MARKER.search(line)
        if m:
            return m["code"], " ".join([m["text"], *reversed(tail)]).strip()
        cont = CONTINUATION.match(line)
        if cont:
            tail.append(cont["text"].strip())
        else:
            tail = []
            seen += 1
        j -= 1
    return None


def _still_there(after_lines: list[str], j: int, how: str) -> Outcome:
    marker = find_marker(after_lines, j)
    if marker:
        return Outcome("marked", j + 1, marker[0], marker[1], how)
    return Outcome("silent", j + 1, how=how)


def classify_file(before: str, after: str | None, sites: list[Site]) -> list[Outcome]:
    """Outcomes for the ``sites`` of one file (all from ``before``), in the same order."""
    if after is None:
        return [Outcome("rewritten", None, how="file-gone") for _ in sites]
    before_lines = before.splitlines()
    after_lines = after.splitlines()
    matcher = difflib.SequenceMatcher(None, before_lines, after_lines, autojunk=False)
    where: dict[int, tuple[str, int, int, int]] = {}  # before line (0-based) -> (tag, i1, j1, j2)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for i in range(i1, i2):
            where[i] = (tag, i1, j1, j2)
    taken: set[int] = set()  # after lines already given to a site of the same token
    out: list[Outcome] = []
    for site in sites:
        i = site.line - 1
        tag, i1, j1, j2 = where.get(i, ("delete", i, 0, 0))
        if tag == "equal":
            j = j1 + (i - i1)
            if _guards_shim(site.token, after_lines, j):
                out.append(Outcome("rewritten", j + 1, how="guard"))
                continue
            out.append(_still_there(after_lines, j, "unchanged"))
            continue
        candidates = [j for j in range(j1, j2) if j not in taken and _direct(after_lines[j], site.token)]
        if candidates:
            before_text = before_lines[i].strip()
            best = max(
                candidates,
                key=lambda j: difflib.SequenceMatcher(None, before_text, after_lines[j].strip()).ratio(),
            )
            taken.add(best)
            if _widened(before_text, after_lines[best].strip()):
                out.append(Outcome("rewritten", best + 1, how="widened"))
                continue
            out.append(_still_there(after_lines, best, "edited"))
            continue
        shim = any(SHIM.search(after_lines[j]) for j in range(j1, j2))
        out.append(Outcome("rewritten", None, how="shim" if shim else "gone"))
    return out


def _guards_shim(token: str, after_lines: list[str], j: int) -> bool:
    """A `hasattr(session, "list_roots")` test kept as it was in front of a read now made through the shim with
    no value (`list_roots_compat(session, None, ...)`), or through the operator's bound
    (`allowed_roots_compat(session)`, MR110, which keeps a capability check as it is on purpose): that read
    takes no caller's argument, so the test still holds and stays, with the read it guards."""
    if token[-1:] not in ("'", '"'):
        return False
    return any(
        SHIM.search(line) and (", None" in line or "allowed_roots_compat(" in line)
        for line in after_lines[j + 1 : j + 1 + MARKER_WINDOW]
    )


# A roots-capability test the rewrite widened: `if hasattr(ctx, "list_roots"):` ->
# `if root is not None or hasattr(ctx, "list_roots"):` (or `if root is None and ...`). The token stays, on purpose.
WIDENED = re.compile(r"^(?P<kw>if|elif|while)\s+\(?\s*\w+ is (?:not None or|None and)\s+\(?(?P<rest>.*)$")


def _widened(before: str, after: str) -> bool:
    """`after` is `before` with its test widened by the capability-guard rewrite (codemods/_capability_guard)."""
    m = WIDENED.match(after)
    if m is None or not before.startswith(m["kw"] + " "):
        return False
    old = before[len(m["kw"]) :].strip().rstrip(":").strip()

    def bare(text: str) -> str:
        return re.sub(r"[()\s]", "", text.rstrip(":"))

    return bare(m["rest"]) == bare(old)


def mark_broken(outcome: Outcome) -> Outcome:
    """The site's file no longer compiles: whatever the text says, the site is broken."""
    return Outcome("broken", outcome.after_line, outcome.code, outcome.message, outcome.how)
