"""The committed results: a per-repository table and a per-site table (Markdown), from the run's JSON."""

from __future__ import annotations

from .verdicts import tally


def _broken(r: dict) -> str:
    b = r.get("broken") or {}
    if b.get("pyflakes_missing"):
        return f"{len(b.get('stopped_compiling', {}))} / pyflakes missing"
    return f"{len(b.get('stopped_compiling', {}))} / {len(b.get('new_pyflakes', []))}"


def _tests(r: dict) -> str:
    if r.get("mode") != "full":
        return "-"
    t = r.get("tests")
    if not t:
        return r.get("install") if r.get("install") not in (None, "ok") else "no tests"
    a = t.get("after") or {}
    text = f"{t['before']['passed']}/{t['before']['failed']} -> {a.get('passed', '?')}/{a.get('failed', '?')}"
    if t.get("new_failures"):
        text += f", {len(t['new_failures'])} NEW"
    return text


def _e2e(r: dict) -> str:
    if r.get("mode") != "full":
        return "-"
    e = r.get("e2e")
    if e is None:
        return r.get("install") if r.get("install") not in (None, "ok") else "no start command"
    text = "ok" if e["ok"] else f"FAIL ({len(e['problems'])})"
    skipped = [era for era, how in e.get("eras", {}).items() if how != "run"]
    return (
        text
        + f"; {e['tools_after']} tools, {len(e['migrated_tools'])} migrated"
        + (f"; skipped {', '.join(skipped)}" if skipped else "")
    )


def totals(report: dict) -> dict[str, int]:
    out = {
        "repos": 0,
        "sites": 0,
        "rewritten": 0,
        "marked": 0,
        "silent": 0,
        "broken": 0,
        "stopped_compiling": 0,
        "new_pyflakes": 0,
        "non_idempotent": 0,
        "errors": 0,
    }
    for r in report["repos"]:
        out["repos"] += 1
        if r.get("error"):
            out["errors"] += 1
        for k, v in (r.get("counts") or {}).items():
            out[k] += v
        b = r.get("broken") or {}
        out["stopped_compiling"] += len(b.get("stopped_compiling", {}))
        out["new_pyflakes"] += len(b.get("new_pyflakes", []))
        out["non_idempotent"] += 1 if r.get("idempotent") is False else 0
    return out


def render(report: dict) -> str:
    t = totals(report)
    lines = [
        "# Field check",
        "",
        f"{report['mode']} mode, {report['started']} to {report['finished']} ({report['seconds']} s); "
        f"migrate-roots `{' '.join(report['migrate_roots'])}` ({report['migrate_roots_version']}); "
        f'Python {report["python"]}. Produced by `audit/run.py --repos DIR` (audit/README.md, "Field check").',
        "",
        "Sites are counted by tokenizing the source before migration (not from migrate-roots' findings): every "
        "`list_roots` reference and roots notification registration. After `apply` each is **rewritten** (gone, "
        "or through the compat shim), **marked** (a `# migrate-roots: CODE` comment within a few lines above), "
        "**silent** (unchanged, no marker) or **broken** (its file stops compiling). The count is the floor; "
        "the verdict column (audit/field-verdicts.toml, kept by hand) is the truth.",
        "",
        f"**Totals**: {t['repos']} repositories, {t['sites']} sites: {t['rewritten']} rewritten, {t['marked']} "
        f"marked, {t['silent']} silent, {t['broken']} broken; {t['stopped_compiling']} file(s) stop compiling, "
        f"{t['new_pyflakes']} new pyflakes name(s); {t['non_idempotent']} repositories where a second apply "
        f"changes something; {t['errors']} run error(s).",
        "",
        "| repository | commit / version | sites | rewritten | marked | silent | broken | stop compiling / new pyflakes "
        "| second apply idle | findings | tests before -> after (passed/failed) | e2e | verdicts (right/wrong/not-a-site/stale/unjudged) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report["repos"]:
        name = r["name"] + (" (control)" if r.get("control") else "")
        where = f"`{r['commit'][:10]}`" if r.get("commit") else r.get("version", "")
        if r.get("error") and "counts" not in r:
            lines.append(f"| {name} | {where} | | | | | | | | | | | error: {r['error'][:140]} |")
            continue
        c = r.get("counts", {})
        v = tally(r.get("sites", []))
        m = r.get("migrate") or {}
        findings = "crash" if m.get("crashed") else m.get("findings", "?")
        lines.append(
            f"| {name} | {where} | {c.get('sites')} | {c.get('rewritten')} | {c.get('marked')} | {c.get('silent')} "
            f"| {c.get('broken')} | {_broken(r)} | {'yes' if r.get('idempotent') else 'NO'} | {findings} | {_tests(r)} "
            f"| {_e2e(r)} | {v['right']}/{v['wrong']}/{v['not-a-site']}/{v['stale']}/{v['unjudged']} |"
        )
    lines += [
        "",
        "## Sites",
        "",
        "| repository | file:line | kind | token line (before) | outcome | marker | verdict | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report["repos"]:
        for s in r.get("sites", []):
            text = s["text"].replace("|", "\\|")
            text = text if len(text) <= 90 else text[:87] + "..."
            marker = f"{s['code']}: {s['message'][:70]}" if s.get("code") else ""
            note = (s.get("verdict_note") or "").replace("|", "\\|")
            lines.append(
                f"| {r['name']} | `{s['file']}:{s['line']}` | {s['kind']} | `{text}` | {s['status']} "
                f"({s['how']}) | {marker.replace('|', '/')} | {s.get('verdict', '')} | {note} |"
            )
    lines.append("")
    for r in report["repos"]:
        notes = []
        if r.get("error"):
            notes.append(f"run error: `{r['error'][:400]}`")
        if r.get("left_out"):
            notes.append(f"left out (blobs missing from the mirror): {', '.join(r['left_out'])}")
        if r.get("untokenizable"):
            notes.append(f"could not tokenize: {'; '.join(r['untokenizable'])[:400]}")
        b = r.get("broken") or {}
        for f, e in (b.get("stopped_compiling") or {}).items():
            notes.append(f"stops compiling: `{f}`: {e[:200]}")
        for f, _kind, msg in b.get("new_pyflakes") or []:
            notes.append(f"new pyflakes name: `{f}`: {msg}")
        second = r.get("second_apply") or {}
        if r.get("idempotent") is False:
            notes.append(
                f"second apply not idle: rc {second.get('rc')}, {second.get('changed') or second.get('error')}"
            )
        for x in (r.get("tests") or {}).get("new_failures") or []:
            notes.append(f"new test failure: `{x}`")
        for p in (r.get("e2e") or {}).get("problems") or []:
            notes.append(f"e2e: {p[:300]}")
        if r.get("orphan_verdicts"):
            notes.append(f"{len(r['orphan_verdicts'])} verdict(s) match no site (moved code?)")
        if notes:
            lines += [f"### {r['name']}", "", f"Why: {r.get('why')}", ""] + [f"- {n}" for n in notes] + [""]
    return "\n".join(lines) + "\n"
