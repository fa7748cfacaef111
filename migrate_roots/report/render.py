"""Text and JSON rendering of a run for the terminal. Findings and diffs on stdout, the summary on stderr."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from migrate_roots import __version__
from migrate_roots.model import FileResult, Finding, Status, Summary, to_dict

_COLOURS = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}
_RESET = "\x1b[0m"


_PLANNED = {"rewritten": " [fixable]", "marked": " [manual: marker]", "reported": ""}
_DONE = {"rewritten": " [rewritten]", "marked": " [marked]", "reported": ""}


def finding_lines(findings: Iterable[Finding], done: bool = False) -> list[str]:
    """`path:line:col: CODE message [what the tool does]`; `done` when the run wrote its changes."""
    labels = _DONE if done else _PLANNED
    return [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}{labels[f.action.value]}" for f in findings]


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


# Results are rendered as the engine yields them and then dropped: a run holds its findings (small), never
# every file's diff (benchmark 4). `Seen` is what the exit code needs of the results that went by.


@dataclass
class Seen:
    failed: bool = False
    findings: bool = False
    changed: bool = False
    written: bool = False

    def note(self, result: FileResult) -> FileResult:
        self.failed |= result.status is Status.FAILED
        self.findings |= bool(result.findings)
        self.changed |= result.status is Status.CHANGED
        self.written |= result.written
        return result


def _indented(obj: object, prefix: str, first: bool) -> str:
    text = textwrap.indent(json.dumps(obj, indent=2, ensure_ascii=False), prefix)
    return text if first else text[len(prefix) :]


def stream_json(results: Iterable[FileResult], summary: Summary, seen: Seen, out: TextIO) -> None:
    """`to_json(Report(files=results, summary=summary))` written file by file (the summary is read after the
    last result, when the engine has filled it in); a test holds the two byte-identical."""
    out.write(f'{{\n  "schema_version": "1",\n  "tool_version": {json.dumps(__version__)},\n  "files": [')
    sep = "\n"
    for result in results:
        out.write(sep + _indented(to_dict(seen.note(result)), "    ", True))
        sep = ",\n"
    out.write(("\n  ]" if sep != "\n" else "]") + ',\n  "summary": ')
    out.write(_indented(to_dict(summary), "  ", False) + "\n}\n")


def findings(
    results: Iterable[FileResult], summary: Summary, fmt: str, *, quiet: bool, verbose: bool
) -> Seen:
    seen = Seen()
    if fmt == "json":
        stream_json(results, summary, seen, sys.stdout)
        return seen
    details = []
    for result in results:
        for line in finding_lines(seen.note(result).findings):
            sys.stdout.write(line + "\n")
        if verbose and result.reason and "\n" in result.reason:
            details.append(result.reason)
    for detail in details:
        sys.stderr.write(detail + "\n")
    if not quiet:
        sys.stderr.write(summary_line(summary) + "\n")
    return seen


def applied(
    results: Iterable[FileResult], summary: Summary, fmt: str, *, show_diff: bool, quiet: bool
) -> Seen:
    seen = Seen()
    if fmt == "json":
        stream_json(results, summary, seen, sys.stdout)
        return seen
    held: list[Finding] = []  # printed last: their label says whether the run wrote anything
    for result in results:
        seen.note(result)
        if show_diff and result.diff:
            sys.stdout.write(colour_diff(result.diff, sys.stdout))
        held.extend(result.findings)
    for line in finding_lines(held, done=seen.written):
        (sys.stderr if show_diff else sys.stdout).write(line + "\n")
    if not quiet:
        sys.stderr.write(summary_line(summary) + "\n")
    return seen


def rules(fmt: str, *, verbose: bool) -> None:
    from migrate_roots import codemods

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
