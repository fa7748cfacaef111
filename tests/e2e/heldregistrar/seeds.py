"""Helpers that take no context: the roots come from `get_context()`, under a timeout, and name a profile
folder by a hash of their paths, which must lie in the profiles' folder."""

import asyncio
import hashlib
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from fastmcp.server.dependencies import get_context

BASE = Path(os.environ.get("PROFILES", "/tmp/profiles"))


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def session_seed() -> str:
    try:
        listed = await asyncio.wait_for(get_context().list_roots(), 5)
        roots = [_path(r.uri) for r in listed]
    except Exception:
        roots = []
    if roots:
        return "|".join(sorted(roots))
    return os.getcwd()


def _inside(path: Path, parent: Path) -> bool:
    try:
        path.resolve().relative_to(parent.resolve())
        return True
    except ValueError:
        return False


def _made(target: Path) -> Path:
    if not _inside(target, BASE):
        raise ValueError(f"refusing a profile outside {BASE}: {target}")
    return target


async def _seeded_dir() -> Path:
    seed = await session_seed()
    digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]
    label = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(seed).name or "session").strip(".-")
    return BASE / f"{label[:48] or 'session'}-{digest}"


async def profile_dir(profile: str | None) -> Path:
    if profile:
        return BASE / Path(profile).name
    return _made(await _seeded_dir())
