"""Plain data shared by the engine, the rules and the renderers.

Nothing here imports the rest of the project: the JSON report's schema is generated from these classes
(`migrate_roots.report.schema`, through pydantic, which reads `metadata` as `Field` arguments).

They are standard-library dataclasses, not pydantic models: building ~10 pydantic models cost 0.15-0.2 s of
every run's start-up, most of a run that matches no file (benchmarks/RESULTS.md, 1 and 5).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


def _doc(text: str) -> dict[str, str]:
    """Field metadata: the field's description in the JSON Schema."""
    return {"description": text}


def to_dict(obj: Any) -> dict[str, Any]:
    """JSON-ready data: enums become their values (they are `str` subclasses, so `json` writes them as is)."""
    return dataclasses.asdict(obj)


def to_json(obj: Any) -> str:
    return json.dumps(to_dict(obj), indent=2, ensure_ascii=False)


class Severity(str, Enum):
    """How bad a finding is, by the facts of MCP 2026-07-28."""

    BROKEN = "broken"  # fails on a modern-era request (e.g. a server-initiated roots/list)
    DEPRECATED = "deprecated"  # works for now; eligible for removal on or after 2027-07-28
    INFO = "info"  # worth a look, nothing stops working
    ERROR = "error"  # the tool could not process the file


class Action(str, Enum):
    """What the tool did about a finding."""

    REWRITTEN = "rewritten"
    MARKED = "marked"  # a `# migrate-roots:` comment was (or would be) placed above the site
    REPORTED = "reported"  # listed only


@dataclass(kw_only=True)
class Finding:
    path: str
    line: int
    col: int
    code: str
    message: str
    severity: Severity
    action: Action = Action.REPORTED
    tool: str | None = None  # the MCP tool the site belongs to, when known

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.code)


class Status(str, Enum):
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"  # not parsed: no trigger token, or excluded
    FAILED = "failed"  # could not be read, decoded or parsed; left untouched


@dataclass(kw_only=True)
class ToolChange:
    """One MCP tool that now takes an explicit path argument."""

    tool: str
    path: str
    line: int
    parameter: str
    shape: str  # "single" or "list"
    reused_existing: bool = False
    legacy_fallback: bool = True


@dataclass(kw_only=True)
class FileResult:
    """The one value a file yields: the contract between engine and CLI."""

    path: str
    status: Status
    reason: str | None = None
    findings: list[Finding] = field(default_factory=list)
    tools: list[ToolChange] = field(default_factory=list)
    diff: str | None = None  # unified diff, when the file changed
    shim: str | None = None  # path of the compatibility module this file now imports
    written: bool = False


@dataclass(kw_only=True)
class Summary:
    files_seen: int = 0
    files_parsed: int = 0
    files_changed: int = 0
    files_failed: int = 0
    findings_by_code: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass(kw_only=True)
class Report:
    """What a run produced; `migrate-roots ... --format json` prints exactly this."""

    schema_version: str = "1"
    tool_version: str
    files: list[FileResult]
    summary: Summary


# ---------------------------------------------------------------------------------------------------------
# `migrate-roots report`: what a reviewer reads. Its JSON Schema is committed as
# migrate_roots/schemas/report-v1.json (regenerate with `python -m migrate_roots.report.schema`).


@dataclass(kw_only=True)
class ReportFinding:
    """One finding as the report shows it: where, what the tool does, and what a person must do."""

    path: str
    line: int
    col: int
    code: str
    name: str = field(metadata=_doc("The rule's kebab-case name."))
    severity: Severity
    action: Action = field(metadata=_doc("What `apply` does (or did) about it: rewritten, marked, reported."))
    message: str
    todo: str = field(metadata=_doc("What a person must do about this finding."))
    tool: str | None = field(default=None, metadata=_doc("The MCP tool the site belongs to, when known."))
    fingerprint: str = field(
        metadata=_doc(
            "Line-independent identity (path, code, message, the site's source text): baselines use it."
        )
    )


@dataclass(kw_only=True)
class ReportTotals:
    files_seen: int = 0
    files_changed: int = field(default=0, metadata=_doc("Files `apply` would change (or changed)."))
    files_failed: int = 0
    tools_changed: int = 0
    findings: int = field(default=0, metadata=_doc("Findings in this report (new ones, under a baseline)."))
    baselined: int = field(default=0, metadata=_doc("Findings left out because the baseline holds them."))
    by_severity: dict[str, int] = field(default_factory=dict)
    by_action: dict[str, int] = field(default_factory=dict)
    by_code: dict[str, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class MigrationReport:
    """`migrate-roots report --format json` prints exactly this (schema: migrate_roots/schemas/report-v1.json)."""

    schema_version: str = field(default="1", metadata={"pattern": "^1$"})
    tool_version: str
    baseline: str | None = field(
        default=None, metadata=_doc("The baseline file findings were compared with.")
    )
    findings: list[ReportFinding] = field(default_factory=list)
    tools: list[ToolChange] = field(default_factory=list)
    files: list[FileResult] = field(default_factory=list)
    totals: ReportTotals = field(default_factory=ReportTotals)
