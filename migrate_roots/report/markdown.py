"""Markdown for a pull-request comment or a GitHub job summary: one screen of what changes, what is left, why."""

from __future__ import annotations

from migrate_roots.model import MigrationReport, ReportFinding
from migrate_roots.report.text import ACTION, plural

SEVERITY = {"broken": "🔴 broken", "deprecated": "🟡 deprecated", "info": "🔵 info", "error": "⛔ error"}
MAX_DIFF = 60_000  # characters of diff shown; a job summary holds 1 MiB


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _row(f: ReportFinding) -> str:
    where = f"`{f.path}:{f.line}`"
    tool = f"`{f.tool}`" if f.tool else ""
    return (
        f"| {where} | {tool} | `{f.code}` {cell(f.name)} | {SEVERITY[f.severity.value]} | "
        f"{ACTION[f.action.value]} | {cell(f.message)} | {cell(f.todo)} |"
    )


def render(report: MigrationReport) -> str:
    t = report.totals
    out = ["## migrate-roots: MCP roots, sampling and logging (SEP-2577)", ""]
    severities = ", ".join(f"{n} {s}" for s, n in t.by_severity.items()) or "none"
    out.append(
        f"**{plural(t.findings, 'finding')}** ({severities}) · **{plural(t.files_changed, 'file')}** and "
        f"**{plural(t.tools_changed, 'tool')}** change with `migrate-roots apply` · "
        f"{plural(t.files_failed, 'file')} could not be processed"
    )
    if report.baseline is not None:
        out.append("")
        out.append(
            f"Only findings new since the baseline `{report.baseline}` are listed ({t.baselined} known ones left out)."
        )
    out.append("")
    out.append(
        "MCP 2026-07-28 deprecated *roots*, *sampling* and *logging*: a server can no longer ask the client "
        "for its folders in a modern request, so tools take the directory as an explicit argument instead."
    )
    out.append("")
    if report.tools:
        out += ["### Tools that take a new argument", ""]
        out += [
            "| tool | defined at | argument | shape | legacy roots fallback |",
            "| --- | --- | --- | --- | --- |",
        ]
        for tool in report.tools:
            arg = f"`{tool.parameter}`" + (" (existing)" if tool.reused_existing else " (new)")
            fallback = "kept" if tool.legacy_fallback else "none"
            out.append(f"| `{tool.tool}` | `{tool.path}:{tool.line}` | {arg} | {tool.shape} | {fallback} |")
        out.append("")
    groups = [
        ("What `apply` rewrites", [f for f in report.findings if f.action.value == "rewritten"]),
        (
            "Left for a person",
            [
                f
                for f in report.findings
                if f.action.value != "rewritten" and f.severity.value in ("broken", "error")
            ],
        ),
        (
            "Deprecated, still working",
            [
                f
                for f in report.findings
                if f.action.value != "rewritten" and f.severity.value in ("deprecated", "info")
            ],
        ),
    ]
    header = [
        "| where | tool | rule | severity | action | why | to do |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for title, items in groups:
        if items:
            out += [f"### {title} ({len(items)})", "", *header, *(_row(f) for f in items), ""]
    if not report.findings:
        out += ["No new findings." if report.baseline is not None else "No findings: nothing to migrate.", ""]
    diffs = [r.diff for r in report.files if r.diff]
    if diffs:
        text = "".join(diffs)
        if len(text) > MAX_DIFF:
            text = text[:MAX_DIFF] + "\n... (cut; run `migrate-roots apply --dry-run` for the whole diff)\n"
        fence = "````" if "```" in text else "```"
        out += [
            "<details><summary>The diff <code>migrate-roots apply</code> would make</summary>",
            "",
            f"{fence}diff",
            text.rstrip("\n"),
            fence,
            "",
            "</details>",
            "",
        ]
    return "\n".join(out)
