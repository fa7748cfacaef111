"""The `migrate-roots report` formats: one module per format, each with `render(report) -> str`."""

from __future__ import annotations

from importlib import import_module

from migrate_roots.model import MigrationReport

FORMATS = {
    "text": "migrate_roots.report.text",
    "markdown": "migrate_roots.report.markdown",
    "json": "migrate_roots.report.json_report",
    "sarif": "migrate_roots.report.sarif",
    "github": "migrate_roots.report.github",
}


def render(fmt: str, report: MigrationReport) -> str:
    text: str = import_module(FORMATS[fmt]).render(report)
    return text
