"""Judge what the client saw: one cell per tool, check and session. Pure: session runs in, rows out.

The rules (a check holds only when it is proven; a protocol error, a crash or a timeout never passes):

- listed: the tool is in the session's tools/list, and a path tool still has its argument in inputSchema.
- with-argument (every session): the call with the argument set to the session's workspace returns a result
  that is not an error. The argument wins for every client.
- without-argument, legacy + roots: a result that is not an error, and the same answer as the call with the
  argument (the client's only root is that same workspace): legacy clients see what they saw before. The
  two answers are compared with the workspace written `<workspace>` and ISO 8601 date-times masked.
- without-argument, legacy without roots and 2026-07-28: a tool error (a result with isError, not a raised
  protocol error) whose text names the argument, so that a model knows what to pass.
- call (other tools, with --call-all): a result that is not an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import quote

from migrate_roots.verify.model import FAIL, PASS, SESSIONS, SKIP, Call, Cell, Row, SessionRun
from migrate_roots.verify.plan import ToolPlan, properties

DETAIL_LIMIT = 600
CONTEXT = 60

#: Date-times (ISO 8601) are masked when two answers are compared: a tool that stamps its answer with the
#: time answers "the same" twice with different stamps.
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")


def normalize(text: str, workspace: str | None) -> str:
    """The answer with this session's workspace written `<workspace>` (each session has its own folder)."""
    if not workspace:
        return text
    for form in ("file://" + quote(workspace), workspace):
        text = text.replace(form, "<workspace>")
    return text


def comparable(text: str, workspace: str | None) -> str:
    return TIMESTAMP.sub("<time>", normalize(text, workspace))


def first_difference(a: str, b: str) -> str:
    """Both texts around the first place they differ."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, at - CONTEXT // 2)

    def cut(text: str) -> str:
        piece = text[start : at + CONTEXT]
        return ("..." if start else "") + piece + ("..." if at + CONTEXT < len(text) else "")

    return f"first difference at character {at}: without: {cut(a)!r} | with: {cut(b)!r}"


def names_argument(text: str, argument: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(argument)}(?![\w-])", text) is not None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= DETAIL_LIMIT else text[: DETAIL_LIMIT - 3] + "..."


def _shown(call: Call, workspace: str | None) -> str:
    return _short(normalize(call.text, workspace))


def _broken(call: Call | None, workspace: str | None) -> Cell | None:
    """The failing cell of a call that raised (protocol error, timeout, lost connection) or is missing."""
    if call is None:
        return Cell("", FAIL, "not called", "the session ended before this call")
    if call.raised == "TimeoutError":
        return Cell("", FAIL, "timeout", _shown(call, workspace))
    if call.raised in ("ConnectionLost", "NotConnected") or "Connection closed" in call.text:
        return Cell("", FAIL, "connection lost", _shown(call, workspace))
    if call.raised:
        return Cell("", FAIL, f"protocol error ({call.raised})", _shown(call, workspace))
    return None


def _result(call: Call | None, workspace: str | None) -> Cell:
    """A plain call: passes on a result that is not an error."""
    broken = _broken(call, workspace)
    if broken is not None:
        return broken
    assert call is not None
    if call.is_error:
        return Cell("", FAIL, "tool error", _shown(call, workspace))
    return Cell("", PASS, "ok", _shown(call, workspace))


def _same_answer(without: Call | None, with_: Call | None, workspace: str | None, argument: str) -> Cell:
    cell = _result(without, workspace)
    if cell.status != PASS or with_ is None or with_.raised or with_.is_error:
        return cell
    assert without is not None
    a, b = comparable(without.text, workspace), comparable(with_.text, workspace)
    if a != b:
        return Cell("", FAIL, f"differs from with `{argument}`", first_difference(a, b))
    return Cell("", PASS, "ok, same answer", cell.detail)


def _asks_for(call: Call | None, workspace: str | None, argument: str) -> Cell:
    broken = _broken(call, workspace)
    if broken is not None:
        return broken
    assert call is not None
    shown = _shown(call, workspace)
    if not call.is_error:
        return Cell(
            "", FAIL, "answered without it", f"expected a tool error naming `{argument}`, got: {shown}"
        )
    if not names_argument(call.text, argument):
        return Cell("", FAIL, f"error does not name `{argument}`", shown)
    return Cell("", PASS, f"ok, asks for `{argument}`", shown)


def evaluate(plans: Iterable[ToolPlan], runs: list[SessionRun], call_all: bool) -> list[Row]:
    rows: list[Row] = []
    for plan in plans:
        arg = plan.path_argument
        checks = [("listed", "listed")]
        if arg:
            checks += [("with-argument", f"with `{arg}`"), ("without-argument", f"without `{arg}`")]
        elif call_all:
            checks.append(("call", "call"))
        for check, label in checks:
            cells = [_cell(plan, check, run) for run in runs]
            rows.append(Row(plan.name, check, label, cells))
    return rows


def _cell(plan: ToolPlan, check: str, run: SessionRun) -> Cell:
    if run.status == "skipped":
        cell = Cell("", SKIP, "skipped", run.reason)
    elif run.status == "failed":
        cell = Cell("", FAIL, "session failed", run.reason)
    elif check == "listed":
        cell = _listed(plan, run)
    elif check == "call":
        cell = _result(run.calls.get((plan.name, "call")), run.workspace)
    elif check == "with-argument":
        cell = _result(run.calls.get((plan.name, "with")), run.workspace)
    else:
        assert plan.path_argument is not None
        without = run.calls.get((plan.name, "without"))
        if run.id == SESSIONS[0][0]:  # legacy + roots
            cell = _same_answer(
                without, run.calls.get((plan.name, "with")), run.workspace, plan.path_argument
            )
        else:
            cell = _asks_for(without, run.workspace, plan.path_argument)
    cell.session = run.id
    return cell


def _listed(plan: ToolPlan, run: SessionRun) -> Cell:
    if plan.name not in run.tools:
        return Cell("", FAIL, "not listed", f"tools/list has: {', '.join(sorted(run.tools)) or 'no tools'}")
    if plan.path_argument and plan.path_argument not in properties(run.tools[plan.name]):
        return Cell("", FAIL, f"no `{plan.path_argument}` in inputSchema", None)
    return Cell("", PASS, "ok", None)
