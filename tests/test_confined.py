"""Roots that only name a folder below a checked path's bound stay MR109 (codemods/_checked_params.py).

The stealth-chrome-devtools-mcp shape: a tool checks the caller's `profile` against `base`; the roots, read two
calls down, only seed a hashed and sanitized folder name joined below that same `base`. Session 19 lifted MR109
for it (a confinement analysis of the way: the sanitizers, the check's bound and direction, the folder's uses up
to the tools) and withdrew the lift after four adversarial sweeps (W, X, Y, Z) found 28 shapes where the new
`root` argument would reach past the check or the raw roots would reach state: each is a case here. All stay
marked, with the text that says only that the roots are not shown to meet the check before their use.
"""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
    import functools
    import hashlib
    import os
    import re
    import shutil
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    BASE = Path("/srv/profiles")
    SHARED = Path("/srv/shared")
    ALLOWED = [Path("/srv/other")]
    mcp = FastMCP("x")
    _CACHE: list[str] = []


    def _inside(path: Path, parent: Path) -> bool:
        try:
            path.resolve().relative_to({inside_bound})
            return True
        except ValueError:
            return False


    {uri_deco}
    def _uri_path(uri: object) -> str:
        value = str(uri)
        return value[7:] if value.startswith("file://") else value


    async def _seed(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        roots = [_uri_path(r.uri) for r in result.roots]
        {seed_use}
        return "|".join(sorted(roots)) if roots else "default"


    async def _profile_dir(ctx: Context, base: Path) -> Path:
        seed = await _seed(ctx)
        digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]
        label = {label}
        {dir_use}
        return {returned}


    @mcp.tool()
    async def open_profile(ctx: Context, profile: str | None = None) -> str:
        base = BASE
        if profile:
            chosen = Path(profile)
            if not _inside(chosen, {checked}):
                raise ValueError("the profile must lie in the profiles folder")
            return str(chosen)
        {tool_use}
        d = await _profile_dir(ctx, {handed})
        {after}
        return str(d)
    """

LABEL = """re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(seed).name or "session").strip(".-")"""
RETURNED = """base / f"{label[:48] or 'session'}-{digest}\""""
DEFAULTS = {
    "seed_use": "pass",
    "label": LABEL,
    "dir_use": "pass",
    "returned": RETURNED,
    "tool_use": "pass",
    "handed": "base",
    "checked": "base",
    "inside_bound": "parent.resolve()",
    "uri_deco": "",
    "after": "pass",
}


def _server(**changes: str) -> str:
    text = SERVER
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace("{" + key + "}", value)
    return text


def _findings(tmp_path, **changes: str) -> list[tuple[str, str, str]]:
    root = helpers.package(tmp_path, {"server.py": _server(**changes)})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    return sorted((f.code, f.action.value, f.message) for r in results for f in r.findings)


NOOP = {
    # where the folder lands
    "above-the-bound": {"returned": """base.parent / f"{label}-{digest}\""""},
    "the-raw-seed": {"returned": "base / seed"},
    "a-bare-label": {"returned": "base / label"},
    "padded-name": {"returned": """base / f"{label:>60}-{digest}\""""},
    "another-base": {"handed": 'Path("/")'},
    "checked-below-the-base": {"checked": 'base / "sub"'},
    "helper-checks-a-subfolder": {"inside_bound": 'parent / "sub"'},
    "base-rebound-in-the-tool": {"tool_use": 'base = Path("/")'},
    "base-rebound-below": {"dir_use": "base = base.parent"},
    "a-second-return": {"dir_use": "if not digest:\n            return Path(seed)"},
    # what the name may hold
    "slash-kept": {"label": """re.sub(r"[^A-Za-z0-9_./-]+", "-", seed)"""},
    # sweep W r02: `.-\_` is the range `.` to `_`, which keeps `/`
    "escaped-range": {"label": """re.sub(r"[^A-Za-z0-9.-\\_]+", "-", seed)"""},
    "class-escape": {"label": """re.sub(r"[^\\w.-]+", "-", seed)"""},
    "flags": {"label": """re.sub(r"[^A-Za-z0-9_.-]+", "-", seed, flags=re.I)"""},
    "unsafe-replacement": {"label": """re.sub(r"[^A-Za-z0-9_.-]+", "/", seed)"""},
    "hash-of-a-file": {"label": """hashlib.sha256(open(seed, "rb").read()).hexdigest()"""},
    # what else the roots do on the way
    "made-below": {"seed_use": "Path(roots[0]).mkdir(exist_ok=True)"},
    "probed-below": {"seed_use": "if Path(roots[0]).exists():\n            pass"},
    "cached-below": {"seed_use": "_CACHE.extend(roots)"},
    "kept-on-the-server": {"seed_use": "mcp.last_roots = roots"},
    "touched-in-the-namer": {"dir_use": "Path(seed).touch()"},
    # sweep W r03: a Path's `replace` is a rename of the raw root's folder
    "renamed-in-the-namer": {"dir_use": 'Path(seed).replace(base / "old")'},
    # sweep W r04: `os.path.isdir` asks the disk about a path the caller chooses
    "probed-through-os-path": {
        "seed_use": 'if roots and os.path.isdir(os.path.join(roots[0], ".git")):\n            pass'
    },
    # sweep W r05: the cleaned name used below another folder too
    "the-name-used-elsewhere": {"dir_use": "(BASE.parent / label).mkdir(exist_ok=True)"},
    "a-closure": {"dir_use": "_CACHE.append((lambda: seed)())"},
    "a-walrus": {"dir_use": "_CACHE.append(kept := seed)"},
    "read-again-by-the-tool": {"tool_use": "await _seed(ctx)"},
    # sweep X r08: the folder's name taken for another folder, above the namer
    "its-name-elsewhere": {"after": 'shutil.rmtree(BASE.parent / "downloads" / d.name, ignore_errors=True)'},
    "its-basename-kept": {"after": "_CACHE.append(os.path.basename(d))"},
    "moved-by-its-name": {"after": "shutil.move(d, BASE.parent)"},
    "joined-as-text": {"after": 'Path(str(d) + "-old").mkdir()'},
    # sweep Y r14: a closure defined before the folder is bound, run after it
    "a-closure-run-later": {
        "tool_use": 'def later() -> None:\n            shutil.rmtree(BASE.parent / "downloads" / d.name)',
        "after": "later()",
    },
    # sweep Z r26-r28: a tuple binding; a path that climbs, then a sibling; the raw roots in a re.sub callback
    "a-tuple-binding": {
        "after": 'profile_dir, downloads = d, BASE.parent / "downloads"\n'
        "        shutil.rmtree(downloads.with_name(profile_dir.name), ignore_errors=True)"
    },
    "a-sibling-of-a-climb": {
        "after": 'up = (d / "..").resolve()\n        shutil.rmtree(up.with_name(d.name), ignore_errors=True)'
    },
    "a-substitution-callback": {
        "seed_use": 're.sub(r".+", lambda m: _CACHE.append(m.group(0)) or "", "|".join(roots))'
    },
    # sweep Y r21-r23: text methods, a slice of its text, a module list that keeps it
    "text-replaced": {"after": 'Path(str(d).replace(str(BASE), "/srv/other")).mkdir()'},
    "text-sliced": {"after": "_CACHE.append(os.path.join(BASE.parent, str(d)[len(str(BASE)) + 1 :]))"},
    "kept-in-a-module-list": {"after": "_CACHE.append(str(d))"},
    # sweep Y r16/r18: its name through a helper; a sibling of another folder
    "a-sibling-of-its-parent": {"after": "d.parent.with_name(d.name).mkdir(exist_ok=True)"},
    # sweep X r09: `+=` extends whatever list the name holds
    "extended-in-place": {"seed_use": "seen = _CACHE\n        seen += roots"},
    # sweep X r10: a decorator on a function the roots pass through
    "a-decorated-helper": {"uri_deco": "@functools.lru_cache(maxsize=None)"},
    # sweep X r11: the base of a comprehension at the call
    "a-comprehension-at-the-call": {"after": "d = [await _profile_dir(ctx, base) for base in ALLOWED][0]"},
}


@pytest.mark.parametrize("changes", list(NOOP.values()), ids=list(NOOP))
def test_noop_roots_not_shown_confined_keep_mr109(tmp_path, changes):
    findings = _findings(tmp_path, **changes)
    assert ("MR109", "marked") in [f[:2] for f in findings], findings
    assert not [f for f in findings if f[1] == "rewritten"], findings


def test_noop_shape_keeps_mr109_without_the_namer(tmp_path):
    # The roots themselves handed up: the check's bound is skipped.
    findings = _findings(tmp_path, returned="Path(seed)")
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings


ONCE_LIFTED = {
    "the-shape": {},
    # the folder used as itself, or a sibling in the same folder
    "made": {"after": "d.mkdir(parents=True, exist_ok=True)"},
    "a-sibling": {"after": 'd.with_name(f"{d.name}-1").mkdir(exist_ok=True)'},
    "filled": {"after": 'shutil.copytree(BASE / "master", d / "Default", dirs_exist_ok=True)'},
    "a-module-global": {"returned": """BASE / f"{label[:48] or 'session'}-{digest}\"""", "checked": "BASE"},
    "md5-and-literal": {"returned": """base / ("profile-" + digest)""", "label": "'x'"},
    "check-in-place": {"tool_use": "pass"},
}


@pytest.mark.parametrize("changes", list(ONCE_LIFTED.values()), ids=list(ONCE_LIFTED))
def test_noop_the_shapes_once_lifted_keep_mr109(tmp_path, changes):
    # What the withdrawn lift rewrote: a symlink below `base` (sweep Z, r29) defeats even these.
    findings = _findings(tmp_path, **changes)
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    assert "the roots read here are not shown to meet that check before their use" in findings[0][2]


def test_noop_the_whole_shape_is_marked(tmp_path):
    root = helpers.package(
        tmp_path,
        {
            "server.py": """\
        import hashlib
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        BASE = Path("/srv/profiles")
        mcp = FastMCP("x")


        async def _named(ctx: Context, base: Path) -> Path:
            result = await ctx.session.list_roots()
            seed = "|".join(sorted(str(r.uri) for r in result.roots))
            return base / f"profile-{hashlib.sha256(seed.encode()).hexdigest()[:12]}"


        @mcp.tool()
        async def open_profile(ctx: Context, profile: str | None = None) -> str:
            if profile:
                try:
                    Path(profile).resolve().relative_to(BASE)
                except ValueError:
                    raise ValueError("the profile must lie in the profiles folder") from None
                return profile
            return str(await _named(ctx, BASE))
        """
        },
    )
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert sorted(f.code for r in results for f in r.findings) == ["MR109"]


COPY_INTO = """\
def _copy_into(target: Path, root: Path) -> None:
    if not _inside(target, root):
        raise ValueError(f"Refusing a folder outside the root: {target}")


@mcp.tool()"""


@pytest.mark.parametrize(
    "handed",
    ["chosen, base", 'chosen, base / "sub"', "chosen, BASE.parent"],
    ids=["same-bound", "a-subfolder", "another-folder"],
)
def test_noop_a_refusing_helper_a_call_further(tmp_path, handed):
    # stealth's `_copy_profile_tree(source, explicit, clone_root)`: its `if not _is_relative_to(target,
    # clone_root): raise` bounds the caller's path by what the tool hands it as `root`.
    text = textwrap.dedent(_server()).replace("@mcp.tool()", COPY_INTO)
    old = """        if not _inside(chosen, base):
            raise ValueError("the profile must lie in the profiles folder")
"""
    assert old in text
    text = text.replace(old, f"        _copy_into({handed})\n")
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    codes = sorted(f.code for r in results for f in r.findings)
    assert codes == ["MR109"], codes  # "same-bound" was the one the withdrawn lift rewrote


def test_noop_a_comprehension_base_is_another_base(tmp_path):
    # sweep W r06: the `base` the check tests is the generator's, one of ALLOWED; the roots go below the tool's.
    text = textwrap.dedent(_server())
    old = "        if not _inside(chosen, base):\n"
    assert old in text
    text = text.replace(old, "        if not any(chosen.is_relative_to(base) for base in ALLOWED):\n")
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert sorted(f.code for r in results for f in r.findings) == ["MR109"]


def test_noop_a_local_that_shadows_the_checked_global(tmp_path):
    # sweep W r07: `_inside_shared` checks the module's SHARED; the tool hands its own local SHARED below.
    text = textwrap.dedent(_server(tool_use='SHARED = base / "sessions"', handed="SHARED"))
    helper = (
        "def _inside_shared(path: Path) -> bool:\n"
        "    try:\n"
        "        path.resolve().relative_to(SHARED.resolve())\n"
        "        return True\n"
        "    except ValueError:\n"
        "        return False\n\n\n"
        "@mcp.tool()"
    )
    old = "        if not _inside(chosen, base):\n"
    assert old in text
    text = text.replace(old, "        if not _inside_shared(chosen):\n").replace("@mcp.tool()", helper)
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert sorted(f.code for r in results for f in r.findings) == ["MR109"]


def test_noop_a_deny_check_bounds_nothing(tmp_path):
    # sweep X r13: `if _inside(chosen, base): raise` refuses the folder; the roots would name one in it.
    text = textwrap.dedent(_server())
    old = "        if not _inside(chosen, base):\n"
    assert old in text
    text = text.replace(old, "        if _inside(chosen, base):\n")
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert sorted(f.code for r in results for f in r.findings) == ["MR109"]


SIBLING_LIFT = """\
    import hashlib
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    BASE = Path("/srv/profiles")
    EXPORTS = Path("/srv/exports")
    mcp = FastMCP("x")


    def _inside(path: Path, parent: Path) -> bool:
        try:
            path.resolve().relative_to(parent.resolve())
            return True
        except ValueError:
            return False


    async def _named(ctx: Context, base: Path) -> Path:
        result = await ctx.session.list_roots()
        seed = "|".join(str(r.uri) for r in result.roots)
        return base / f"profile-{hashlib.sha256(seed.encode()).hexdigest()[:12]}"


    async def _resolve(ctx: Context, profile: str | None) -> Path:
        if profile and not _inside(Path(profile), BASE):
            raise ValueError("outside the profiles folder")
        return Path(profile) if profile else await _named(ctx, BASE)


    @mcp.tool()
    async def export_profile(ctx: Context, dest: str) -> str:
        target = Path(dest)
        if not _inside(target, EXPORTS):
            raise ValueError("outside the exports folder")
        src = await _resolve(ctx, None)
        return str({use})
    """


def test_noop_a_check_met_by_one_lift_is_not_another_check(tmp_path):
    # sweep X r12: `_resolve`'s check of `profile` against BASE, and the tool's of `dest` against EXPORTS
    # through the same helper; the roots' folder name then goes below `target`.
    root = helpers.package(tmp_path, {"server.py": SIBLING_LIFT.replace("{use}", "target / src.name")})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    findings = [(f.code, f.message) for r in results for f in r.findings]
    assert [c for c, _ in findings] == ["MR109"], findings
    assert "`_resolve` checks its path argument `profile`" in findings[0][1], findings


@pytest.mark.parametrize(
    "check",
    [
        # sweep Y r19: `relative_to` whose handler returns the path: the inside is what it refuses
        "try:\n            chosen.resolve().relative_to(base)\n        except ValueError:\n"
        '            return str(chosen)\n        raise ValueError("managed profiles are reserved")',
        # sweep Y r20: a conditional expression; which branch refuses is not read
        'return "refused: reserved" if _inside(chosen, base) else str(chosen)',
        # sweep Z r24: an early return of the caller's path when outside, the refusal after it
        "if not chosen.resolve().is_relative_to(base.resolve()):\n            return str(chosen)\n"
        '        raise ValueError("managed profiles are reserved")',
    ],
    ids=["returned-by-the-handler", "a-conditional-expression", "an-early-return"],
)
def test_noop_a_check_whose_direction_is_not_shown(tmp_path, check):
    text = textwrap.dedent(_server())
    old = """        if not _inside(chosen, base):
            raise ValueError("the profile must lie in the profiles folder")
        return str(chosen)
"""
    assert old in text
    text = text.replace(old, "        " + check + "\n")
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert "MR109" in [f.code for r in results for f in r.findings]
