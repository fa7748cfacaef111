"""GitHub Actions workflow commands: one annotation per finding, then a notice with the totals."""

from __future__ import annotations

from migrate_roots.model import MigrationReport
from migrate_roots.report.text import ACTION, totals_line

LEVEL = {"broken": "error", "error": "error", "deprecated": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: MigrationReport) -> str:
    out = []
    for f in report.findings:
        props = ",".join(
            [
                f"file={escape_property(f.path)}",
                f"line={f.line}",
                f"col={f.col}",
                f"title={escape_property(f'{f.code} {f.name}'.strip())}",
            ]
        )
        message = f"{f.message} [{ACTION[f.action.value]}] To do: {f.todo}"
        out.append(f"::{LEVEL[f.severity.value]} {props}::{escape_data(message)}")
    out.append(f"::notice title=migrate-roots::{escape_data(totals_line(report))}")
    return "\n".join(out) + "\n"
