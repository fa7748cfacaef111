"""Baselines: record today's findings, then report only new ones.

A finding is keyed by path, code, message and its line-independent fingerprint (see `build.fingerprints`), so
lines added or removed elsewhere in a file do not bring a baselined finding back. Keys are counted: a second
identical site beyond what the baseline holds is new.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from migrate_roots import __version__
from migrate_roots.model import MigrationReport, ReportFinding

FORMAT = "migrate-roots-baseline"
VERSION = 1


class BaselineError(Exception):
    """A one-line message: the baseline file cannot be used."""


Key = tuple[str, str, str, str]


def key(finding: ReportFinding) -> Key:
    return (finding.path, finding.code, finding.message, finding.fingerprint)


@dataclass
class Baseline:
    path: Path
    keys: Counter[Key]

    def new_only(self, findings: list[ReportFinding]) -> tuple[list[ReportFinding], int]:
        left = Counter(self.keys)
        kept: list[ReportFinding] = []
        for finding in findings:
            k = key(finding)
            if left[k] > 0:
                left[k] -= 1
            else:
                kept.append(finding)
        return kept, len(findings) - len(kept)


def dumps(report: MigrationReport) -> str:
    rows = [
        {"path": f.path, "code": f.code, "message": f.message, "fingerprint": f.fingerprint, "line": f.line}
        for f in report.findings
    ]
    doc = {"format": FORMAT, "version": VERSION, "tool_version": __version__, "findings": rows}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def load(path: Path) -> Baseline:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read baseline: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: not a baseline file (invalid JSON: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BaselineError(f"{path}: not a migrate-roots baseline file")
    if doc.get("version") != VERSION:
        raise BaselineError(
            f"{path}: baseline version {doc.get('version')!r} is not supported (want {VERSION})"
        )
    keys: Counter[Key] = Counter()
    for row in doc.get("findings", []):
        try:
            keys[(str(row["path"]), str(row["code"]), str(row["message"]), str(row["fingerprint"]))] += 1
        except (KeyError, TypeError):
            raise BaselineError(f"{path}: malformed baseline entry {row!r}") from None
    return Baseline(path, keys)
