"""The committed results: a per-repository table and a per-site table (Markdown), from the run's JSON."""

from __future__ import annotations

from .lint import new_count
from .verdicts import tally

LINT_TOOLS = (("ruff", "ruff I/E501"), ("mypy", "mypy"))


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


def _lint(r: dict, tool: str) -> str:
    """``before→after (new)`` for one tool, or why there is no figure."""
    lint = r.get("lint")
    if not lint or tool not in lint:
        return "-"
    t = lint[tool]
    b, a = t["before"], t["after"]

    def side(x: dict) -> str:
        text = str(x["count"]) if x["status"] in ("ok", "blocked") else x["status"]
        return text + ("*" if x.get("fallback") else "") + (" blocked" if x["status"] == "blocked" else "")

    n = new_count(lint, tool)
    return f"{side(b)}→{side(a)} ({'?' if n is None else f'**{n}**' if n else 0})"


def _lint_totals(report: dict, t: dict[str, int]) -> str:
    if not any(r.get("lint") for r in report["repos"]):
        return " Lint step not run."
    incomplete = f", {t['lint_incomplete']} comparison(s) incomplete" if t["lint_incomplete"] else ""
    return (
        f" Lint: {t['new_ruff']} new ruff I/E501 finding(s), {t['new_mypy']} new mypy error(s){incomplete} "
        '(see "Lint").'
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
        "new_ruff": 0,
        "new_mypy": 0,
        "lint_incomplete": 0,
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
        for tool, _label in LINT_TOOLS:
            if r.get("lint"):
                n = new_count(r["lint"], tool)
                out[f"new_{tool}"] += n or 0
                out["lint_incomplete"] += 1 if n is None else 0
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
        f"changes something; {t['errors']} run error(s)." + _lint_totals(report, t),
        "",
        "| repository | commit / version | sites | rewritten | marked | silent | broken | stop compiling / new pyflakes "
        "| second apply idle | findings | ruff I/E501 before→after (new) | mypy before→after (new) "
        "| tests before -> after (passed/failed) | e2e | verdicts (right/wrong/not-a-site/stale/unjudged) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report["repos"]:
        name = r["name"] + (" (control)" if r.get("control") else "")
        where = f"`{r['commit'][:10]}`" if r.get("commit") else r.get("version", "")
        if r.get("error") and "counts" not in r:
            lines.append(f"| {name} | {where} | | | | | | | | | | | | | error: {r['error'][:140]} |")
            continue
        c = r.get("counts", {})
        v = tally(r.get("sites", []))
        m = r.get("migrate") or {}
        findings = "crash" if m.get("crashed") else m.get("findings", "?")
        lines.append(
            f"| {name} | {where} | {c.get('sites')} | {c.get('rewritten')} | {c.get('marked')} | {c.get('silent')} "
            f"| {c.get('broken')} | {_broken(r)} | {'yes' if r.get('idempotent') else 'NO'} | {findings} "
            f"| {_lint(r, 'ruff')} | {_lint(r, 'mypy')} | {_tests(r)} "
            f"| {_e2e(r)} | {v['right']}/{v['wrong']}/{v['not-a-site']}/{v['stale']}/{v['unjudged']} |"
        )
    lines += lint_section(report)
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
        if r.get("configs_above_tree"):
            notes.append(
                f"style configuration above the tree (leaks into ruff/migrate-roots): {r['configs_above_tree']}"
            )
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


def _ruff_config(c: dict) -> str:
    if c["config"]:
        return f"`{c['config']}` ({c['config_line_length'] or 'no line-length: 88'})"
    if c["line_length_from"] == "black":
        return f"none; `--line-length {c['line_length']}` (black, `{c['black']}`)"
    return "none (88)"


def _side_notes(side: dict) -> list[str]:
    notes = []
    for fb in side.get("fallback") or []:
        if fb.get("kind") == "layout":
            options = " ".join(fb["options"])
            notes.append(
                f"layout error ({fb['reason'][:120]}): ran again with `{options}`, MYPYPATH={fb['mypypath']}"
            )
        else:
            notes.append(f"configuration failed ({fb['reason'][:160]}): fallback ran")
    if side.get("error"):
        notes.append(f"{side['status']}: {side['error'][:160]}")
    return notes


def _codes(side: dict) -> str:
    return ", ".join(f"{code} {n}" for code, n in side.get("by_code", {}).items()) or "none"


def lint_section(report: dict) -> list[str]:
    """How each repository was linted (configs, fallbacks, seconds) and every new finding."""
    linted = [r for r in report["repos"] if r.get("lint")]
    if not linted:
        return []
    lines = [
        "",
        "## Lint",
        "",
        "ruff `--select I,E501` and mypy on the `source` folders before and after the migration, each with the "
        'project\'s own configuration (fieldcheck/lint.py; audit/README.md, "Lint"). A new finding is one of '
        "the multiset difference after minus before, keyed by file, code and message with digits normalised "
        "(line numbers ignored). `*`: the project's configuration failed and the fallback ran.",
        "",
        "| repository | ruff config (line length) | mypy config | ruff by code before → after "
        "| mypy seconds before / after | notes |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in linted:
        lint = r["lint"]
        ruff, mypy = lint["ruff"], lint["mypy"]
        rcfg = ", ".join(_ruff_config(c) for c in ruff["before"].get("configs", []))
        mcfg = ", ".join(
            c["config"] or "none (defaults + --ignore-missing-imports)" for c in mypy["before"]["configs"]
        )
        notes = []
        for tool in ("ruff", "mypy"):
            sides = {when: _side_notes(lint[tool][when]) for when in ("before", "after")}
            if sides["before"] == sides["after"]:
                notes += [f"{tool} before and after: {n}" for n in sides["before"]]
            else:
                notes += [f"{tool} {when}: {n}" for when, side in sides.items() for n in side]
            if lint[tool].get("incomplete"):
                notes.append(f"{tool}: not compared ({lint[tool]['incomplete']})")
        for when, left in (lint.get("left_in_tree") or {}).items():
            if left:
                notes.append(f"left in the tree {when} (removed): {', '.join(left)[:160]}")
        by_code = f"{_codes(ruff['before'])} → {_codes(ruff['after'])}"
        lines.append(
            f"| {r['name']} | {rcfg} | {mcfg} | {by_code} | {mypy['before'].get('seconds')} / "
            f"{mypy['after'].get('seconds')} | {'; '.join(notes).replace('|', chr(92) + '|')} |"
        )
    new_rows = []
    for r in linted:
        for tool, label in LINT_TOOLS:
            for f in r["lint"][tool].get("new") or []:
                msg = f["message"].replace("|", "\\|")
                new_rows.append(
                    f"| {r['name']} | {label} | `{f['file']}:{f['line']}` | {f['code']} | {msg} |"
                )
    sdk_rows = [
        f"| {r['name']} | `{x['file']}:{x['line']}` | {x['message']} |"
        for r in linted
        for x in r["lint"]["mypy"].get("unresolved_sdk") or []
    ]
    if sdk_rows:
        lines += [
            "",
            "Not counted as new (quick mode installs nothing, so the MCP SDK cannot be resolved; where the "
            "server's dependencies are installed it is): new unresolved imports of `mcp`/`fastmcp`, made by the "
            "imports the shim and the rewrites add.",
            "",
            "| repository | file:line (after) | message |",
            "| --- | --- | --- |",
            *sdk_rows,
        ]
    lines += ["", "### New lint findings", ""]
    if new_rows:
        lines += [
            "| repository | tool | file:line (after) | code | message |",
            "| --- | --- | --- | --- | --- |",
        ]
        lines += new_rows
    else:
        lines.append("None.")
    return lines
