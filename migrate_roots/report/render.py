"""Text and JSON rendering of a run for the terminal. Findings and diffs on stdout, the summary on stderr."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from migrate_roots import __version__
from migrate_roots.model import FileResult, Report, Summary, to_json

_COLOURS = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}
_RESET = "\x1b[0m"


_PLANNED = {"rewritten": " [fixable]", "marked": " [manual: marker]", "reported": ""}
_DONE = {"rewritten": " [rewritten]", "marked": " [marked]", "reported": ""}


def finding_lines(results: list[FileResult], done: bool = False) -> list[str]:
    """`path:line:col: CODE message [what the tool does]`; `done` when the run wrote its changes."""
    labels = _DONE if done else _PLANNED
    return [
        f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}{labels[f.action.value]}"
        for result in results
        for f in result.findings
    ]


def colour_diff(diff: str, stream: TextIO) -> str:
    if not stream.isatty():
        return diff
    out = []
    for line in diff.splitlines(keepends=True):
        colour = _COLOURS.get(line[:1]) if not line.startswith(("+++", "---")) else "\x1b[1m"
        out.append(f"{colour}{line.rstrip(chr(10))}{_RESET}\n" if colour else line)
    return "".join(out)


def summary_line(summary: Summary) -> str:
    by_code = ", ".join(f"{code} x{n}" for code, n in sorted(summary.findings_by_code.items())) or "none"
    return (
        f"migrate-roots: {summary.files_seen} files seen, {summary.files_parsed} parsed, "
        f"{summary.files_changed} changed, {summary.files_failed} failed; findings: {by_code}; "
        f"{summary.seconds:.2f}s"
    )


def report_json(results: list[FileResult], summary: Summary) -> str:
    return to_json(Report(tool_version=__version__, files=results, summary=summary))


def findings(results: list[FileResult], summary: Summary, fmt: str, *, quiet: bool, verbose: bool) -> None:
    if fmt == "json":
        sys.stdout.write(report_json(results, summary) + "\n")
        return
    for line in finding_lines(results):
        sys.stdout.write(line + "\n")
    if verbose:
        for result in results:
            if result.reason and "\n" in result.reason:
                sys.stderr.write(result.reason + "\n")
    if not quiet:
        sys.stderr.write(summary_line(summary) + "\n")


def applied(results: list[FileResult], summary: Summary, fmt: str, *, show_diff: bool, quiet: bool) -> None:
    if fmt == "json":
        sys.stdout.write(report_json(results, summary) + "\n")
        return
    if show_diff:
        for result in results:
            if result.diff:
                sys.stdout.write(colour_diff(result.diff, sys.stdout))
    written = any(r.written for r in results)
    for line in finding_lines(results, done=written):
        (sys.stderr if show_diff else sys.stdout).write(line + "\n")
    if not quiet:
        sys.stderr.write(summary_line(summary) + "\n")


def rules(fmt: str, *, verbose: bool) -> None:
    import codemods

    table = codemods.load()
    if fmt == "json":
        rows = [
            {
                "code": code,
                "name": rule.name,
                "summary": rule.summary,
                "severity": rule.severity.value,
                "fix": rule.fix,
                "default": rule.default_enabled,
                "limits": rule.limits,
            }
            for code, rule in table.items()
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    width = max(len(rule.name) for rule in table.values())
    for code, rule in table.items():
        fix = {"safe": "fix", "opt-in": "fix (opt-in)", "none": "report"}[rule.fix]
        sys.stdout.write(
            f"{code}  {rule.name:<{width}}  {fix:<12}  {rule.severity.value:<10}  {rule.summary}\n"
        )
        if verbose and rule.limits:
            sys.stdout.write(f"{'':6}does not handle: {rule.limits}\n")
