"""Hand-kept verdicts per site: what a count cannot judge (a rewrite that runs but is wrong, a false marker).

``audit/field-verdicts.toml`` holds one ``[[verdict]]`` table per judged site::

    [[verdict]]
    repo = "nexus-dev"                       # the manifest entry's name
    file = "src/nexus_dev/server.py"         # relative to the repository root
    line = "roots_result = await ctx.session.list_roots()"   # the site's source line, stripped
    nth = 1                                  # optional: which of several identical lines (default 1)
    status = "rewritten"                     # the outcome that was judged
    code = "MR101"                           # optional: the finding's code that was judged
    verdict = "right"                        # right | wrong | not-a-site | unjudged
    note = "one line: why"

``right``: the rewrite keeps behaviour for legacy clients and honours the new argument, or the marker's
reason is true and names the place. ``wrong``: it is not (say how in ``note``). ``not-a-site``: the token
count over-counts here (say why). A verdict judges one outcome: when a later run gives the site another
status (or, where the verdict names one, another code: a true MR103 says nothing of an MR211 in its place),
the join reports the verdict as ``stale`` instead of carrying it over. A silent site needs no
verdict: silent is wrong by rule 1.
"""

from __future__ import annotations

from pathlib import Path

import tomllib

VERDICTS = ("right", "wrong", "not-a-site", "unjudged")


def load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("verdict", [])
    for entry in entries:
        for key in ("repo", "file", "line", "verdict"):
            if key not in entry:
                raise ValueError(f"{path}: a [[verdict]] lacks `{key}`: {entry}")
        if entry["verdict"] not in VERDICTS:
            raise ValueError(f"{path}: verdict {entry['verdict']!r} is not one of {', '.join(VERDICTS)}")
    return entries


def _index(entries: list[dict]) -> dict[tuple[str, str, str, int], dict]:
    return {(e["repo"], e["file"], e["line"].strip(), int(e.get("nth", 1))): e for e in entries}


def join(repo: str, sites: list[dict], entries: list[dict]) -> list[dict]:
    """Each site dict gains ``verdict`` and ``verdict_note``; returns the verdicts matching no site."""
    index = _index(entries)
    used: set[tuple[str, str, str, int]] = set()
    rank: dict[tuple[str, str], int] = {}
    for site in sites:
        ident = (site["file"], site["text"])
        rank[ident] = rank.get(ident, 0) + 1
        key = (repo, site["file"], site["text"], rank[ident])
        entry = index.get(key)
        if entry is None:
            site["verdict"], site["verdict_note"] = (
                ("wrong", "silent: never silent (rule 1)")
                if site.get("status") == "silent"
                else ("unjudged", "")
            )
            continue
        used.add(key)
        judged, code = entry.get("status"), entry.get("code")
        moved = (judged and site.get("status") != judged) or (code and site.get("code") != code)
        if moved and entry["verdict"] != "not-a-site":
            was = " ".join(filter(None, (judged, code)))
            now = " ".join(filter(None, (site.get("status"), site.get("code") if code else None)))
            site["verdict"] = "stale"
            site["verdict_note"] = f"judged when {was}, now {now}: {entry.get('note', '')}"
        else:
            site["verdict"], site["verdict_note"] = entry["verdict"], entry.get("note", "")
    return [e for k, e in index.items() if k[0] == repo and k not in used]


def tally(sites: list[dict]) -> dict[str, int]:
    out = {v: 0 for v in (*VERDICTS, "stale")}
    for site in sites:
        out[site.get("verdict", "unjudged")] = out.get(site.get("verdict", "unjudged"), 0) + 1
    return out
