"""A path argument checked on the way, and the roots' value checked by the same check further down: the new
argument takes the roots' place at the read, so it meets that check too, and no MR109 is due
(codemods/_checked_params.py, `passes`).

The field shape (stealth-chrome-devtools-mcp): `resolve_profile_selection(user_data_dir)` tests the caller's
folder with `_is_relative_to(explicit, clone_root)`; the clone folder made from the client's roots reaches the
same `_is_relative_to` three calls down (`_copy_clone_from_source` -> `_copy_profile_tree`). Before, the site was
marked MR109, "a new `root` argument would name a folder past that check", which was false.
"""

from __future__ import annotations

from tests import helpers

TOOL = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    from .store import make_profile

    mcp = FastMCP("x")


    @mcp.tool()
    async def spawn(ctx: Context, profile: str | None = None) -> str:
        return str(await make_profile(ctx, profile))
    """
STORE = """\
    import hashlib
    from pathlib import Path

    from mcp.server.fastmcp import Context

    BASE = Path("/srv/profiles")


    def _inside(path: Path, parent: Path) -> bool:
        try:
            path.resolve().relative_to(parent.resolve())
            return True
        except ValueError:
            return False


    def _copy(target: Path, base: Path) -> Path:
        if not _inside(target, base):
            raise ValueError(f"refusing a folder outside the base: {target}")
        target.mkdir(parents=True, exist_ok=True)
        return target


    def _fill(target: Path, base: Path) -> Path:
        return _copy(target, base)


    async def _seed(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return "|".join(sorted(str(r.uri) for r in result.roots))


    async def make_profile(ctx: Context, profile: str | None) -> Path:
        if profile:
            explicit = Path(profile)
            if not _inside(explicit, BASE):
                explicit = BASE / explicit.name
            return _copy(explicit, BASE)
        seed = await _seed(ctx)
        digest = hashlib.sha256(seed.encode()).hexdigest()[:12]
        {use}
    """


def _findings(tmp_path, use: str):
    files = {"server.py": TOOL, "store.py": STORE.replace("{use}", use)}
    results = helpers.run_engine(helpers.package(tmp_path, files), select=["MR1"], write=False)
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings]


def test_noop_the_roots_value_that_skips_the_check_keeps_mr109(tmp_path):
    """The clone folder from the roots is made without the check the caller's folder gets: marked."""
    findings = _findings(tmp_path, "return BASE / digest")
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    assert "`make_profile` checks its path argument `profile`" in findings[0][2]


def test_noop_a_check_the_roots_meet_elsewhere_only_keeps_mr109(tmp_path):
    """The roots' value meets a check, but another one than the caller's folder gets: marked."""
    use = 'target = BASE / digest\n        if ".." in str(target):\n            raise ValueError("..")\n' + (
        "        return target"
    )
    findings = _findings(tmp_path, use)
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings


def test_the_roots_value_meets_the_same_check_one_call_down(tmp_path):
    findings = _findings(tmp_path, "return _copy(BASE / digest, BASE)")
    assert sorted(f[:2] for f in findings) == [
        ("MR101", "rewritten"),
        ("MR107", "rewritten"),
        ("MR107", "rewritten"),
    ], findings


def test_the_roots_value_meets_the_same_check_calls_further_down(tmp_path):
    """Through `_fill` to `_copy` to `_inside`: three calls from the function that checks `profile`."""
    findings = _findings(tmp_path, "clone = BASE / f'session-{digest}'\n        return _fill(clone, BASE)")
    assert sorted(f[:2] for f in findings) == [
        ("MR101", "rewritten"),
        ("MR107", "rewritten"),
        ("MR107", "rewritten"),
    ], findings
