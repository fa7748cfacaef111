"""Bring one git source into a scratch work tree outside this repository, at its pinned commit.

``--repos DIR`` holds mirrors or checkouts, looked up as ``DIR/owner+name/repo`` (a bare mirror, or a clone
with ``.git``: what the session's mirrors look like), ``DIR/owner+name``, ``DIR/name`` or
``DIR/owner/name``. The pinned commit is exported with ``git archive`` (never a checkout of the mirror);
paths whose blobs are absent from a partial mirror are left out and listed, never silently. The export is
committed into its own scratch repository, as a user would before migrating (``apply`` refuses dirty trees).
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path


class SourceError(RuntimeError):
    """The source cannot be brought in (no mirror, commit absent): one line for the results."""


def _git_dir(candidate: Path) -> Path | None:
    if (candidate / ".git").is_dir():
        return candidate / ".git"
    if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
        return candidate
    return None


def locate(repos_dir: Path, repo: str, name: str) -> Path:
    owner, _, short = repo.partition("/")
    for candidate in (
        repos_dir / f"{owner}+{short}" / "repo",
        repos_dir / f"{owner}+{short}",
        repos_dir / short,
        repos_dir / name,
        repos_dir / owner / short,
    ):
        found = _git_dir(candidate)
        if found is not None:
            return found
    raise SourceError(
        f"no mirror or checkout of {repo} under {repos_dir} (fetch it into {repos_dir}/{owner}+{short})"
    )


def _git(git_dir: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], input=stdin, capture_output=True, check=False
    )


def missing_blobs(git_dir: Path, commit: str) -> list[str]:
    listing = _git(git_dir, "ls-tree", "-r", "-z", commit)
    if listing.returncode != 0:
        raise SourceError(f"cannot list {commit[:12]}: {listing.stderr.decode(errors='replace')[:300]}")
    paths: dict[str, list[str]] = {}  # one blob may sit at several paths (a data file copied around)
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, kind, obj = meta.split()
        if kind == b"blob":
            paths.setdefault(obj.decode(), []).append(path.decode(errors="surrogateescape"))
    check = _git(git_dir, "cat-file", "--batch-check", stdin="\n".join(paths).encode())
    return sorted(
        p for line in check.stdout.decode().splitlines() if line.endswith(" missing") for p in paths[line.split()[0]]
    )


def export(git_dir: Path, commit: str, dest: Path) -> list[str]:
    """Write the tree of ``commit`` into ``dest``; returns the paths left out for missing blobs."""
    if _git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        raise SourceError(f"commit {commit[:12]} is not in {git_dir}: fetch the repository again")
    missing = missing_blobs(git_dir, commit)
    dest.mkdir(parents=True, exist_ok=True)
    tar_path = dest.parent / (dest.name + ".tar")
    spec = ["--", "."] + [f":(exclude,literal){p}" for p in missing]
    proc = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "-o", str(tar_path), commit, *spec],
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SourceError(f"git archive {commit[:12]} failed: {proc.stderr.decode(errors='replace')[:300]}")
    with tarfile.open(tar_path) as tar:
        tar.extractall(dest, filter="data")
    tar_path.unlink()
    return missing
