"""Plain text for a terminal: tools, findings with what to do, totals."""

from __future__ import annotations

from migrate_roots.model import MigrationReport

# What `apply` would do with a finding: `report` writes nothing, so every format says it in the conditional
# (the JSON keeps the `action` values of the schema). Shared by the text, markdown and github formats.
ACTION = {"rewritten": "apply would rewrite", "marked": "apply would mark", "reported": "reported only"}


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def totals_line(report: MigrationReport) -> str:
    t = report.totals
    severities = ", ".join(f"{n} {s}" for s, n in t.by_severity.items()) or "none"
    line = (
        f"{plural(t.findings, 'finding')} ({severities}); {plural(t.files_changed, 'file')} and "
        f"{plural(t.tools_changed, 'tool')} would change; {plural(t.files_failed, 'file')} failed"
    )
    if report.baseline is not None:
        line += f"; {t.baselined} known findings left out (baseline {report.baseline})"
    return line


def render(report: MigrationReport) -> str:
    out = ["migrate-roots report (a dry run: nothing was written)", ""]
    if report.tools:
        out.append("Tools that take a new argument:")
        for tool in report.tools:
            kind = "existing parameter" if tool.reused_existing else f"new {tool.shape} parameter"
            fallback = "kept" if tool.legacy_fallback else "none"
            out.append(
                f"  {tool.tool}  {tool.path}:{tool.line}  `{tool.parameter}` ({kind}); legacy roots fallback: {fallback}"
            )
        out.append("")
    if report.findings:
        out.append("Findings:")
        for f in report.findings:
            out.append(
                f"  {f.path}:{f.line}:{f.col}: {f.code} [{f.severity.value}, {ACTION[f.action.value]}] {f.message}"
            )
            out.append(f"      to do: {f.todo}")
        out.append("")
    else:
        out.append("No findings." if report.baseline is None else "No new findings.")
        out.append("")
    out.append("Totals: " + totals_line(report))
    return "\n".join(out) + "\n"
