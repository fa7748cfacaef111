"""`verify` output: a plain-text table (files, pipes, CI logs), the same table with rich on a terminal, JSON.

Each function returns text; the CLI writes it. The table has one row per tool and check, one column per
session; every failing cell is then spelled out below it with what it was judged on.
"""

from __future__ import annotations

import io
import json
import shlex

from migrate_roots.verify.model import FAIL, SESSION_LABELS, VerifyResult

STATUS_WORD = {"pass": "ok", "fail": "FAIL", "skip": "skip"}


def _cell_text(status: str, summary: str) -> str:
    if status == "pass":
        return summary
    return f"{STATUS_WORD[status]}: {summary}" if summary not in ("skipped",) else "skipped"


def _header(result: VerifyResult) -> list[str]:
    sdk = ", ".join(f"{k} {v}" for k, v in result.sdk.items() if v) or "no SDK"
    return [f"migrate-roots verify: {shlex.join(result.command)}", f"client: {result.python} ({sdk})"]


def _table(result: VerifyResult) -> tuple[list[str], list[list[str]]]:
    headers = ["tool", "check"] + [s.label for s in result.sessions]
    body = [
        [row.tool, row.label] + [_cell_text(c.status, c.summary) for c in row.cells] for row in result.rows
    ]
    return headers, body


def _footer(result: VerifyResult) -> list[str]:
    lines: list[str] = []
    for session in result.sessions:
        if session.status != "ran":
            lines.append(f"{session.label}: {session.status}: {session.reason}")
    for row, cell in result.failures:
        lines.append(f"FAIL {row.tool} / {SESSION_LABELS[cell.session]} / {row.label}: {cell.summary}")
        if cell.detail:
            lines.append(f"     {cell.detail}")
    lines += [f"note: {note}" for note in result.notes]
    counts = result.counts
    total = sum(counts.values())
    verdict = "every check holds" if result.exit_code == 0 else f"{counts[FAIL]} failed"
    lines.append(f"{total} checks: {counts['pass']} passed, {counts['skip']} skipped; {verdict}.")
    if result.stderr_tail and result.exit_code != 0:
        lines.append("the servers' stderr is in --format json (stderr_tail)")
    return lines


def _not_started(result: VerifyResult) -> str:
    lines = _header(result) + [f"the server did not start: {result.error}"]
    if result.stderr_tail:
        lines += ["its stderr (last lines):", *("  " + line for line in result.stderr_tail.splitlines())]
    else:
        lines.append("its stderr was empty")
    return "\n".join(lines) + "\n"


def render_text(result: VerifyResult) -> str:
    if result.error is not None:
        return _not_started(result)
    headers, body = _table(result)
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    lines = _header(result) + [""]
    for row in [headers, ["-" * w for w in widths], *body]:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines + [""] + _footer(result)) + "\n"


def render_rich(result: VerifyResult, width: int | None = None) -> str:
    """The table for a terminal (colour and box drawing), as text with ANSI codes."""
    if result.error is not None:
        return _not_started(result)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=width, highlight=False)
    table = Table(title=" ".join(_header(result)[:1]), caption=_header(result)[1], title_justify="left")
    headers, body = _table(result)
    for header in headers:
        table.add_column(header)
    styles = {"pass": "green", "fail": "bold red", "skip": "dim"}
    for row, cells in zip(result.rows, body, strict=True):
        table.add_row(
            row.tool,
            row.label,
            *(Text(t, style=styles[c.status]) for t, c in zip(cells[2:], row.cells, strict=True)),
        )
    console.print(table)
    for line in _footer(result):
        console.print(Text(line, style="red" if line.startswith("FAIL") else ""))
    return buffer.getvalue()


def render_markdown(result: VerifyResult) -> str:
    """For a pull request comment or a job summary."""
    title = f"### migrate-roots verify: `{shlex.join(result.command)}`"
    if result.error is not None:
        tail = result.stderr_tail or "(empty)"
        return f"{title}\n\n**The server did not start**: {result.error}\n\n```text\n{tail}\n```\n"
    headers, body = _table(result)
    mark = {"pass": "✅", "fail": "❌", "skip": "⏭️"}

    def esc(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [title, "", _header(result)[1], "", "| " + " | ".join(headers) + " |"]
    lines.append("|" + " --- |" * len(headers))
    for row, cells in zip(result.rows, body, strict=True):
        shown = [f"{mark[c.status]} {esc(t)}" for t, c in zip(cells[2:], row.cells, strict=True)]
        lines.append(f"| `{row.tool}` | {esc(row.label)} | " + " | ".join(shown) + " |")
    lines += ["", *(f"- {esc(line.strip())}" for line in _footer(result)[:-1]), "", _footer(result)[-1]]
    return "\n".join(lines) + "\n"


def render_json(result: VerifyResult) -> str:
    return json.dumps(result.to_json(), indent=2, sort_keys=False) + "\n"
