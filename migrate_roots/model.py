"""Plain data shared by the engine, the rules and the renderers.

Nothing here imports the rest of the project: the JSON report's schema is generated from these models.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    # Schemas are built on first use, not at import: a run where no file matches never builds most of them
    # (benchmarks/RESULTS.md, 1 and 5).
    model_config = ConfigDict(defer_build=True)


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


class Finding(_Model):
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


class ToolChange(_Model):
    """One MCP tool that now takes an explicit path argument."""

    tool: str
    path: str
    line: int
    parameter: str
    shape: str  # "single" or "list"
    reused_existing: bool = False
    legacy_fallback: bool = True


class FileResult(_Model):
    """The one value a file yields: the contract between engine and CLI."""

    path: str
    status: Status
    reason: str | None = None
    findings: list[Finding] = Field(default_factory=list)
    tools: list[ToolChange] = Field(default_factory=list)
    diff: str | None = None  # unified diff, when the file changed
    shim: str | None = None  # path of the compatibility module this file now imports
    written: bool = False


class Summary(_Model):
    files_seen: int = 0
    files_parsed: int = 0
    files_changed: int = 0
    files_failed: int = 0
    findings_by_code: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0


class Report(_Model):
    """What a run produced; `migrate-roots ... --format json` prints exactly this."""

    schema_version: str = "1"
    tool_version: str
    files: list[FileResult]
    summary: Summary


# ---------------------------------------------------------------------------------------------------------
# `migrate-roots report`: what a reviewer reads. Its JSON Schema is committed as
# migrate_roots/schemas/report-v1.json (regenerate with `python -m migrate_roots.report.schema`).


class ReportFinding(_Model):
    """One finding as the report shows it: where, what the tool does, and what a person must do."""

    path: str
    line: int
    col: int
    code: str
    name: str = Field(description="The rule's kebab-case name.")
    severity: Severity
    action: Action = Field(description="What `apply` does (or did) about it: rewritten, marked, reported.")
    message: str
    todo: str = Field(description="What a person must do about this finding.")
    tool: str | None = Field(default=None, description="The MCP tool the site belongs to, when known.")
    fingerprint: str = Field(
        description="Line-independent identity (path, code, message, the site's source text): baselines use it."
    )


class ReportTotals(_Model):
    files_seen: int = 0
    files_changed: int = Field(default=0, description="Files `apply` would change (or changed).")
    files_failed: int = 0
    tools_changed: int = 0
    findings: int = Field(default=0, description="Findings in this report (new ones, under a baseline).")
    baselined: int = Field(default=0, description="Findings left out because the baseline holds them.")
    by_severity: dict[str, int] = Field(default_factory=dict)
    by_action: dict[str, int] = Field(default_factory=dict)
    by_code: dict[str, int] = Field(default_factory=dict)


class MigrationReport(_Model):
    """`migrate-roots report --format json` prints exactly this (schema: migrate_roots/schemas/report-v1.json)."""

    schema_version: str = Field(default="1", pattern="^1$")
    tool_version: str
    baseline: str | None = Field(default=None, description="The baseline file findings were compared with.")
    findings: list[ReportFinding] = Field(default_factory=list)
    tools: list[ToolChange] = Field(default_factory=list)
    files: list[FileResult] = Field(default_factory=list)
    totals: ReportTotals = Field(default_factory=ReportTotals)
