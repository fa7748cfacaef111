"""Session 17's sweep T, r07: an allow-list checked against a whole collection at once,
`any(map(target.is_relative_to, bases))` or `allowed.isdisjoint(target.parents)`, is a bound. Rewritten to take
the caller's `root`, it let a caller pass `root: ["/etc"]` and read outside the client's roots; the read takes
the operator's bound (MR110), or is marked (MR109). Noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
import os
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")
HOME = Path(os.path.expanduser("~"))


async def _bases(ctx: Context) -> list[Path]:
    result = await ctx.session.list_roots()
    return [Path(r.uri.path).resolve() for r in result.roots]


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
{body}
    return Path(path).read_text()
"""


def _codes(tmp_path, body: str, **kwargs) -> list[str]:
    (tmp_path / "server.py").write_text(SERVER.format(body=body))
    results = helpers.run_engine(tmp_path, select=["MR1"], **kwargs)
    return sorted(f.code for r in results for f in r.findings)


@pytest.mark.parametrize(
    "body",
    [
        # The roots are the path checked, not the collection: they bound nothing.
        "    root = (await _bases(ctx))[0]\n    if not any(map(root.is_relative_to, [HOME])):\n"
        "        raise PermissionError('no')",
        "    root = (await _bases(ctx))[0]\n    if {HOME}.isdisjoint(root.parents):\n        raise PermissionError('no')",
        # An unresolved prefix mapped outside a refusing test picks a root, it checks nothing.
        "    picked = list(filter(path.startswith, [str(b) for b in await _bases(ctx)]))\n    print(picked)",
        # Two collections intersected, no path's parents.
        "    if set(await _bases(ctx)).isdisjoint({HOME}):\n        raise PermissionError('no')",
    ],
)
def test_noop_roots_that_are_not_the_collection_are_rewritten(tmp_path, body):
    assert _codes(tmp_path, body, write=False) == ["MR101", "MR107"]


BOUNDS = [
    "    target = Path(path).resolve()\n    bases = await _bases(ctx)\n"
    "    if not any(map(target.is_relative_to, bases)):\n        raise PermissionError('no')",
    "    if not any(map(Path(path).resolve().is_relative_to, await _bases(ctx))):\n        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    if not list(filter(target.is_relative_to, await _bases(ctx))):\n"
    "        raise PermissionError('no')",
    "    target = os.path.realpath(path)\n    prefixes = [str(b) + os.sep for b in await _bases(ctx)]\n"
    "    if not any(map(target.startswith, prefixes)):\n        raise PermissionError('no')",
    "    prefixes = tuple(str(b) for b in await _bases(ctx))\n    if not any(map(path.startswith, prefixes)):\n"
    "        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    allowed = set(await _bases(ctx))\n"
    "    if allowed.isdisjoint(target.parents):\n        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    if not (not set(await _bases(ctx)).isdisjoint(target.parents)):\n"
    "        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    bases = await _bases(ctx)\n"
    "    if set(target.parents).isdisjoint(bases):\n        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    bases = await _bases(ctx)\n"
    "    if not set(bases) & {target, *target.parents}:\n        raise PermissionError('no')",
    "    target = Path(path).resolve()\n    if not frozenset(await _bases(ctx)).intersection(target.parents):\n"
    "        raise PermissionError('no')",
]


@pytest.mark.parametrize("body", BOUNDS)
def test_a_collection_check_takes_the_operators_bound(tmp_path, body):
    assert _codes(tmp_path, body) == ["MR110"]
    text = (tmp_path / "server.py").read_text()
    assert "allowed_roots_compat(ctx.session)" in text and "root" not in text.split("def read")[1]
    assert not helpers.flakes(text)


@pytest.mark.parametrize(("body", "sign"), [(BOUNDS[0], "`is_relative_to` mapped"), (BOUNDS[5], "`parents`")])
def test_with_mr110_off_the_bound_is_marked_with_its_sign(tmp_path, body, sign):
    assert _codes(tmp_path, body, ignore=["MR110"]) == ["MR109"]
    text = (tmp_path / "server.py").read_text()
    assert "# migrate-roots: MR109: roots bound what this tool may touch" in text
    assert sign in " ".join(line.strip("# ") for line in text.splitlines())
