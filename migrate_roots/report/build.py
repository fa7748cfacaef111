"""Assemble the `migrate-roots report` data from a dry run's results: findings with what to do, tools, totals.

Reads the source lines of reported sites (to fingerprint them independently of line numbers); never parses.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePath

from migrate_roots import __version__
from migrate_roots.model import (
    Action,
    FileResult,
    Finding,
    MigrationReport,
    ReportFinding,
    ReportTotals,
    Severity,
    Summary,
    ToolChange,
)
from migrate_roots.report import baseline as baseline_mod


def todo(finding: Finding, tools: dict[tuple[str, str], ToolChange]) -> str:
    """What a person must do about one finding, from what the tool does and how bad it is."""
    if finding.action is Action.REWRITTEN and finding.code == "MR110":
        return (
            "Review the diff, and set the variable the message names where the server runs: on MCP 2026-07-28 "
            "requests its directories are this tool's bound (unset: the tool behaves as it did there before)."
        )
    if finding.action is Action.REWRITTEN:
        change = tools.get((finding.path, finding.tool or ""))
        if change is not None:
            return (
                f"Review the diff. Clients must pass `{change.parameter}` to `{change.tool}` on MCP 2026-07-28 "
                "requests; legacy clients that declared roots keep working without it."
            )
        return "Review this change in the diff (`migrate-roots apply --dry-run` shows it)."
    if finding.action is Action.MARKED:
        return (
            f"Resolve the `# migrate-roots: {finding.code}` comment above this line by hand, then delete the "
            "comment."
        )
    if finding.severity is Severity.ERROR:
        return "Make the file readable and valid Python, then run migrate-roots again."
    if finding.severity is Severity.BROKEN:
        return "Change this code before clients move to MCP 2026-07-28; the message gives the migration path."
    if finding.severity is Severity.DEPRECATED:
        return "Still works; plan the replacement the message names before a revision on or after 2027-07-28."
    return "Have a look; nothing stops working."


def _posix(path: str) -> str:
    return PurePath(path).as_posix()


class _Lines:
    """Source lines of files, read once each (a file that cannot be read fingerprints without its text)."""

    def __init__(self) -> None:
        self.cache: dict[str, list[str]] = {}

    def get(self, path: str, line: int) -> str:
        if path not in self.cache:
            try:
                self.cache[path] = Path(path).read_bytes().decode("utf-8", "replace").splitlines()
            except OSError:
                self.cache[path] = []
        lines = self.cache[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""


def fingerprints(findings: Iterable[Finding]) -> list[str]:
    """One stable id per finding: path, code, message and the site's stripped source line, plus an occurrence
    number among identical ones. Line numbers are not part of it, so edits elsewhere do not change it."""
    lines = _Lines()
    seen: Counter[str] = Counter()
    out = []
    for f in findings:
        text = " ".join(lines.get(f.path, f.line).split())
        base = "\x00".join((_posix(f.path), f.code, f.message, text))
        seen[base] += 1
        digest = hashlib.sha256(f"{base}\x00{seen[base]}".encode("utf-8", "surrogatepass")).hexdigest()
        out.append(digest[:20])
    return out


def build(
    results: list[FileResult],
    summary: Summary,
    *,
    baseline: baseline_mod.Baseline | None = None,
) -> MigrationReport:
    from migrate_roots import codemods

    rules = codemods.load()
    tools = [t for r in results for t in r.tools]
    by_tool = {(t.path, t.tool): t for t in tools}
    raw = sorted((f for r in results for f in r.findings), key=Finding.sort_key)
    findings: list[ReportFinding] = []
    for f, fp in zip(raw, fingerprints(raw), strict=True):
        rule = rules.get(f.code)
        findings.append(
            ReportFinding(
                path=_posix(f.path),
                line=f.line,
                col=f.col,
                code=f.code,
                name=rule.name if rule is not None else "",
                severity=f.severity,
                action=f.action,
                message=f.message,
                todo=todo(f, by_tool),
                tool=f.tool,
                fingerprint=fp,
            )
        )
    baselined = 0
    if baseline is not None:
        findings, baselined = baseline.new_only(findings)
    totals = ReportTotals(
        files_seen=summary.files_seen,
        files_changed=sum(r.status.value == "changed" for r in results),
        files_failed=sum(r.status.value == "failed" for r in results),
        tools_changed=len(tools),
        findings=len(findings),
        baselined=baselined,
        by_severity=dict(sorted(Counter(f.severity.value for f in findings).items())),
        by_action=dict(sorted(Counter(f.action.value for f in findings).items())),
        by_code=dict(sorted(Counter(f.code for f in findings).items())),
    )
    return MigrationReport(
        tool_version=__version__,
        baseline=str(baseline.path) if baseline is not None else None,
        findings=findings,
        tools=[dataclasses.replace(t, path=_posix(t.path)) for t in tools],
        files=results,
        totals=totals,
    )
