"""The field's sources, from the one manifest ``audit/servers.toml``: PyPI ``[[server]]`` and git ``[[repo]]``.

A ``[[repo]]`` table (documented at the top of servers.toml) names a public repository at a pinned commit;
its code is read from ``--repos DIR``, never stored here. Every entry becomes one dict with ``kind`` =
``git`` or ``pypi`` and ``source`` = the paths handed to ``migrate-roots apply`` from the repository root.
"""

from __future__ import annotations

from pathlib import Path

import tomllib

REQUIRED_REPO_KEYS = ("name", "repo", "commit", "source", "why")


def load(path: Path) -> list[dict]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries: list[dict] = []
    for server in data.get("server", []):
        entries.append(
            {
                **server,
                "kind": "pypi",
                "source": list(server["apply"]),
                "label": f"{server['name']}=={server['version']}",
                "id": f"{server['name']}-{server['version']}",
            }
        )
    names = set()
    for repo in data.get("repo", []):
        missing = [k for k in REQUIRED_REPO_KEYS if k not in repo]
        if missing:
            raise ValueError(f"{path}: [[repo]] {repo.get('name', '?')} lacks {', '.join(missing)}")
        if len(repo["commit"]) != 40:
            raise ValueError(f"{path}: [[repo]] {repo['name']}: commit must be the full 40-hex id")
        if repo["name"] in names:
            raise ValueError(f"{path}: two [[repo]] tables are named {repo['name']}")
        names.add(repo["name"])
        source = repo["source"] if isinstance(repo["source"], list) else [repo["source"]]
        entries.append(
            {
                **repo,
                "kind": "git",
                "source": source,
                "apply": source,
                "version": repo["commit"][:12],
                "label": repo["name"],
                "id": repo["name"],
            }
        )
    return entries


def select(entries: list[dict], only: list[str] | None, *, git_only: bool = False) -> list[dict]:
    chosen = [e for e in entries if not git_only or e["kind"] == "git"]
    if only:
        chosen = [
            e
            for e in chosen
            if e["name"] in only or e["label"] in only or e["id"] in only or e.get("repo") in only
        ]
        if not chosen:
            raise SystemExit(f"--only {' '.join(only)}: no such entry in the manifest")
    return chosen
