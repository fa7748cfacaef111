"""The field check's driver, reached through ``audit/run.py --repos DIR`` (one harness with the audit)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import run as audit

from . import compare, manifest, pipeline, render, verdicts

VERDICTS_FILE = audit.AUDIT / "field-verdicts.toml"


def _stem(opts: Any) -> str:
    return "field-quick" if opts.quick else "field"


def _cached_sdist(entry: dict) -> bool:
    downloads = audit.WORK / "downloads"
    stem = entry["name"].replace("-", "_").replace(".", "_").lower() + f"-{entry['version']}"
    return downloads.is_dir() and any(p.name.lower().startswith(stem) for p in downloads.iterdir())


def run_field(opts: Any) -> int:
    if opts.compare and opts.new:
        return _compare_only(opts)
    if opts.repos is None:
        raise SystemExit(
            "the field check needs --repos DIR (a folder of mirrors or checkouts; see audit/README.md)"
        )
    opts.repos = Path(opts.repos).resolve()
    entries = manifest.select(manifest.load(opts.servers), opts.only)
    skipped = []
    if opts.quick:  # local corpus only: git sources, and PyPI sdists already in the download cache
        skipped = [e["id"] for e in entries if e["kind"] == "pypi" and not _cached_sdist(e)]
        entries = [e for e in entries if e["id"] not in skipped]
    audit.WORK.mkdir(parents=True, exist_ok=True)
    version = subprocess.run(
        [*opts.migrate_roots, "--version"], capture_output=True, text=True
    ).stdout.strip()
    started = datetime.now(timezone.utc)
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(lambda e: pipeline.clean_for_json(pipeline.score(e, opts)), entries))
    judged = verdicts.load(opts.verdicts)
    for r in results:
        r["orphan_verdicts"] = verdicts.join(r["name"], r.get("sites", []), judged)
    out = opts.output / f"{_stem(opts)}.json"
    report = {
        "mode": "quick" if opts.quick else "full",
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - t0, 1),
        "migrate_roots": list(opts.migrate_roots),
        "migrate_roots_version": version,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "skipped_not_local": skipped,
        "lint": any("lint" in r for r in results),
        "repos": results,
    }
    if opts.only and out.exists():  # a partial run updates its entries in the last full report
        prior = json.loads(out.read_text(encoding="utf-8"))
        fresh = {r["name"] for r in results}
        report["repos"] = [r for r in prior.get("repos", []) if r["name"] not in fresh] + results
        order = {e["id"]: i for i, e in enumerate(manifest.load(opts.servers))}
        report["repos"].sort(key=lambda r: order.get(r["name"], len(order)))
        report["partial_update"] = sorted(fresh)
    previous = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
    opts.output.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(render.render(report), encoding="utf-8")
    t = render.totals(report)
    audit.log(
        f"field: {t['sites']} sites, {t['rewritten']} rewritten, {t['marked']} marked, {t['silent']} silent, "
        f"{t['broken']} broken; {t['stopped_compiling']} stop compiling, {t['new_pyflakes']} new pyflakes; "
        f"{t['non_idempotent']} non-idempotent; {t['errors']} errors; "
        + (
            f"lint: {t['new_ruff']} new ruff I/E501, {t['new_mypy']} new mypy, "
            f"{t['lint_incomplete']} incomplete"
            if report["lint"]
            else "lint not run"
        )
        + f" -> {out}"
    )
    old = json.loads(Path(opts.compare).read_text(encoding="utf-8")) if opts.compare else previous
    if old is not None:
        _write_compare(old, report, str(opts.compare or f"previous {out.name}"), str(out), opts.output)
    return (
        1
        if t["errors"]
        or t["broken"]
        or t["stopped_compiling"]
        or t["new_pyflakes"]
        or t["non_idempotent"]
        or t["silent"]
        or t["new_ruff"]
        or t["new_mypy"]
        else 0
    )


def render_only(opts: Any) -> int:
    """Join the verdicts again and rewrite the results of the last run of this mode (no run)."""
    out = opts.output / f"{_stem(opts)}.json"
    report = json.loads(out.read_text(encoding="utf-8"))
    judged = verdicts.load(opts.verdicts)
    whys = {e["id"]: e.get("why") for e in manifest.load(opts.servers)}
    for r in report["repos"]:
        r["why"] = whys.get(r["name"], r.get("why"))  # a corrected `why` needs no rerun
        r["orphan_verdicts"] = verdicts.join(r["name"], r.get("sites", []), judged)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(render.render(report), encoding="utf-8")
    audit.log(f"field: verdicts joined again into {out} and {out.with_suffix('.md').name}")
    return 0


def _write_compare(old: dict, new: dict, old_label: str, new_label: str, output: Path) -> dict:
    result = compare.compare_runs(old, new)
    text = compare.render(result, old_label, new_label)
    (output / "field-compare.md").write_text(text, encoding="utf-8")
    print(text)
    return result


def _compare_only(opts: Any) -> int:
    old = json.loads(Path(opts.compare).read_text(encoding="utf-8"))
    new = json.loads(Path(opts.new).read_text(encoding="utf-8"))
    opts.output.mkdir(parents=True, exist_ok=True)
    result = _write_compare(old, new, str(opts.compare), str(opts.new), opts.output)
    return 1 if result["totals"]["newly broken"] or result["totals"]["newly silent"] else 0
