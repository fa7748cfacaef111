"""JSON: the `MigrationReport` model as is (schema: migrate_roots/schemas/report-v1.json)."""

from __future__ import annotations

from migrate_roots.model import MigrationReport, to_json


def render(report: MigrationReport) -> str:
    return to_json(report) + "\n"
