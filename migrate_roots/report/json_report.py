"""JSON: the `MigrationReport` model as is (schema: migrate_roots/schemas/report-v1.json)."""

from __future__ import annotations

from migrate_roots.model import MigrationReport


def render(report: MigrationReport) -> str:
    return report.model_dump_json(indent=2) + "\n"
