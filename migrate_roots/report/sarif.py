"""SARIF 2.1.0 for code-scanning upload: one run, the rules that fired, one result per finding."""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from urllib.parse import quote

from migrate_roots.model import MigrationReport, to_dict

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"broken": "error", "error": "error", "deprecated": "warning", "info": "note"}


def _uri(path: str) -> dict[str, str]:
    posix = PurePosixPath(path)
    if posix.is_absolute():
        return {"uri": posix.as_uri()}
    return {"uri": quote(str(posix)), "uriBaseId": "%SRCROOT%"}


def render(report: MigrationReport) -> str:
    from migrate_roots import codemods

    table = codemods.load()
    codes = sorted({f.code for f in report.findings})
    index = {code: n for n, code in enumerate(codes)}
    rules = []
    for code in codes:
        rule = table.get(code)
        entry: dict[str, object] = {"id": code}
        if rule is not None:
            entry.update(
                {
                    "name": rule.name,
                    "shortDescription": {"text": rule.summary},
                    "fullDescription": {"text": f"{rule.summary} {rule.limits}".strip()},
                    "defaultConfiguration": {"level": LEVEL[rule.severity.value]},
                    "properties": {"severity": rule.severity.value, "fix": rule.fix},
                }
            )
        rules.append(entry)
    results = []
    for f in report.findings:
        result: dict[str, object] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": LEVEL[f.severity.value],
            "message": {"text": f"{f.message}. To do: {f.todo}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _uri(f.path),
                        "region": {"startLine": max(1, f.line), "startColumn": max(1, f.col)},
                    }
                }
            ],
            "partialFingerprints": {"migrateRoots/v1": f.fingerprint},
            "properties": {"severity": f.severity.value, "action": f.action.value, "todo": f.todo},
        }
        if f.tool:
            result["properties"]["mcpTool"] = f.tool  # type: ignore[index]
        results.append(result)
    run = {
        "tool": {
            "driver": {
                "name": "migrate-roots",
                "version": report.tool_version,
                "semanticVersion": report.tool_version,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The folder the report was run in."}}},
        "results": results,
        "properties": {"totals": to_dict(report.totals)},
    }
    doc = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
