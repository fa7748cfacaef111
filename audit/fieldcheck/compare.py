"""``--compare OLD.json``: what changed per site between two field runs, as mypy_primer shows it.

Sites are matched by their key (file, stripped line, token: sites.site_keys), so a run at the same pinned
commits compares site for site. A changed commit shows up as sites gone and new sites.
"""

from __future__ import annotations

from .lint import new_count, new_findings

CATEGORIES = (
    "newly broken",
    "newly silent",
    "newly rewritten",
    "newly marked",
    "marker code changed",
    "new site",
    "site gone",
)


def _category(old: dict, new: dict) -> str | None:
    before, after = old["status"], new["status"]
    if before == after:
        if after == "marked" and old.get("code") != new.get("code"):
            return "marker code changed"
        return None
    return {
        "broken": "newly broken",
        "silent": "newly silent",
        "rewritten": "newly rewritten",
        "marked": "newly marked",
    }[after]


def compare_runs(old: dict, new: dict) -> dict:
    """Per repository: site changes (by category) and repository-level changes."""
    old_repos = {r["name"]: r for r in old.get("repos", [])}
    out: dict = {"repos": {}, "totals": {c: 0 for c in CATEGORIES}}
    for repo in new.get("repos", []):
        prior = old_repos.get(repo["name"])
        if prior is None:
            out["repos"][repo["name"]] = {"note": "not in the old run", "changes": [], "repo_changes": []}
            continue
        old_sites = {s["key"]: s for s in prior.get("sites", [])}
        new_sites = {s["key"]: s for s in repo.get("sites", [])}
        changes = []
        for key, site in new_sites.items():
            was = old_sites.get(key)
            category = "new site" if was is None else _category(was, site)
            if category:
                changes.append(
                    {
                        "key": key,
                        "category": category,
                        "old": None if was is None else _brief(was),
                        "new": _brief(site),
                    }
                )
        for key, was in old_sites.items():
            if key not in new_sites:
                changes.append({"key": key, "category": "site gone", "old": _brief(was), "new": None})
        for change in changes:
            out["totals"][change["category"]] += 1
        out["repos"][repo["name"]] = {"changes": changes, "repo_changes": _repo_changes(prior, repo)}
    return out


def _brief(site: dict) -> str:
    text = site["status"]
    if site.get("code"):
        text += f" {site['code']}"
    return text


def _repo_changes(old: dict, new: dict) -> list[str]:
    notes = []
    old_b, new_b = old.get("broken") or {}, new.get("broken") or {}
    for file in sorted(set(new_b.get("stopped_compiling", {})) - set(old_b.get("stopped_compiling", {}))):
        notes.append(f"newly stops compiling: {file}")
    for file in sorted(set(old_b.get("stopped_compiling", {})) - set(new_b.get("stopped_compiling", {}))):
        notes.append(f"compiles again: {file}")
    old_names = {tuple(x) for x in old_b.get("new_pyflakes", [])}
    for item in new_b.get("new_pyflakes", []):
        if tuple(item) not in old_names:
            notes.append(f"new pyflakes name: {item[0]}: {item[2]}")
    if old.get("idempotent") is not False and new.get("idempotent") is False:
        notes.append("a second apply now changes something")
    if old.get("idempotent") is False and new.get("idempotent") is True:
        notes.append("a second apply is idle again")
    notes += _lint_changes(old, new)
    if not old.get("error") and new.get("error"):
        notes.append(f"run error: {new['error'][:200]}")
    return notes


def _lint_changes(old: dict, new: dict) -> list[str]:
    """A change in the number of new ruff/mypy findings (both runs linted), with the findings now new."""
    notes = []
    if not old.get("lint") or not new.get("lint"):
        return notes
    for tool, label in (("ruff", "ruff I/E501 findings"), ("mypy", "mypy errors")):
        was, now = new_count(old["lint"], tool), new_count(new["lint"], tool)
        if was == now:
            continue
        notes.append(f"new {label}: {'?' if was is None else was} -> {'?' if now is None else now}")
        was_new, now_new = old["lint"][tool].get("new") or [], new["lint"][tool].get("new") or []
        for f in new_findings(was_new, now_new):
            notes.append(f"now new ({tool}): {f['file']}:{f['line']}: [{f['code']}] {f['message'][:160]}")
        for f in new_findings(now_new, was_new):
            notes.append(f"no longer new ({tool}): {f['file']}: [{f['code']}] {f['message'][:160]}")
    return notes


def render(result: dict, old_label: str, new_label: str) -> str:
    lines = [f"# Field check: {old_label} -> {new_label}", "", "| change | sites |", "| --- | --- |"]
    lines += [f"| {c} | {n} |" for c, n in result["totals"].items()]
    lines.append("")
    for name, entry in result["repos"].items():
        if not entry.get("changes") and not entry.get("repo_changes") and not entry.get("note"):
            continue
        lines += [f"## {name}", ""]
        if entry.get("note"):
            lines += [entry["note"], ""]
        lines += [f"- {n}" for n in entry.get("repo_changes", [])]
        for change in sorted(
            entry.get("changes", []), key=lambda c: (CATEGORIES.index(c["category"]), c["key"])
        ):
            lines.append(
                f"- {change['category']}: `{change['key']}` ({change['old'] or '-'} -> {change['new'] or '-'})"
            )
        lines.append("")
    if all(not e.get("changes") and not e.get("repo_changes") for e in result["repos"].values()):
        lines += ["No site changed.", ""]
    return "\n".join(lines) + "\n"
