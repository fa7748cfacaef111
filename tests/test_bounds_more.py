"""Roots that bound what a tool may touch through checks first seen in session 14's adversarial sweep: never
given to the caller as an argument (MR110: the operator's bound, `allowed_roots_compat`). A caller-chosen `root`
beside them would let it pick its own sandbox."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = "import os\nfrom fnmatch import fnmatch\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('w')\n"

READ = """

@mcp.tool()
async def read(p: str, ctx: Context) -> str:
    r = await ctx.session.list_roots()
{check}
    return open(p).read()
"""

CHECKS = {
    "set membership": "    allowed = {r.uri.path for r in r.roots}\n"
    "    if os.path.dirname(os.path.abspath(p)) not in allowed:\n        return 'denied'",
    "exact membership": "    if os.path.abspath(p) not in [r.uri.path for r in r.roots]:\n        return 'denied'",
    "fnmatch": "    if not any(fnmatch(os.path.abspath(p), x.uri.path + '/*') for x in r.roots):\n        return 'denied'",
    "relpath": "    base = r.roots[0].uri.path\n"
    "    if os.path.relpath(os.path.realpath(p), base).startswith('..'):\n        return 'denied'",
    "uri prefix": "    if not any(('file://' + p).startswith(str(x.uri)) for x in r.roots):\n        return 'denied'",
    # Session 15's sweep B: r03 (unresolved membership), r04 (a bare `relative_to`), r08 (an unresolved prefix
    # test, whose MR109 said the roots were not its bound).
    "unresolved membership": "    shared = {x.uri.path for x in r.roots}\n"
    "    if os.path.dirname(p) not in shared:\n        raise PermissionError(p)",
    "bare relative_to": "    from pathlib import Path\n\n"
    "    Path(p).resolve().relative_to(Path(r.roots[0].uri.path).resolve())",
    "unresolved prefix": "    allowed = [x.uri.path for x in r.roots]\n"
    "    if not any(p.startswith(a) for a in allowed):\n        raise PermissionError(p)",
    # Session 16's sweep G: r03 (a walk up the parents, refused by a message), r12 (`parts` and `..` spellings).
    "parent walk": "    from pathlib import Path\n\n    allowed = {Path(x.uri.path) for x in r.roots}\n"
    "    target = Path(p).resolve()\n    probe = target\n    while probe not in allowed:\n        if probe == probe.parent:\n"
    "            return 'Access denied'\n        probe = probe.parent",
    "parent walk that raises": "    allowed = {x.uri.path for x in r.roots}\n    target = os.path.realpath(p)\n"
    "    probe = target\n    while True:\n        if probe in allowed:\n            break\n        if probe == os.path.dirname(probe):\n"
    "            raise PermissionError(p)\n        probe = os.path.dirname(probe)",
    "parent walk, looked up after": "    from pathlib import Path\n\n    allowed = {Path(x.uri.path) for x in r.roots}\n"
    "    target = Path(p).resolve()\n    probe = target\n"
    "    while probe not in allowed and probe != probe.parent:\n"
    "        probe = probe.parent\n    if probe not in allowed:\n        return 'Access denied'",
    "leading parts": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return 'Access denied'",
    "leading parts, else refuses": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    if base.parts == Path(p).resolve().parts[: len(base.parts)]:\n        print(p)\n"
    "    else:\n        raise PermissionError(p)",
    "relpath first part": "    base = os.path.realpath(r.roots[0].uri.path)\n"
    "    target = os.path.realpath(os.path.join(base, p))\n"
    "    if os.path.relpath(target, base).split(os.sep)[0] == os.pardir:\n        return 'Access denied'",
    "relpath first part, dots": "    base = r.roots[0].uri.path\n"
    "    if not os.path.relpath(p, base).split('/')[0] != '..':\n        return False",
    "relpath starts with pardir": "    base = r.roots[0].uri.path\n"
    "    if os.path.relpath(os.path.realpath(p), base).startswith(os.pardir):\n        return 'denied'",
    # Session 16's sweep I: r01 (the relpath held in a name), r02 (a refusal returned as a structured error).
    "held relpath, pardir or prefix": "    base = os.path.realpath(r.roots[0].uri.path)\n"
    "    rel = os.path.relpath(os.path.realpath(p), base)\n"
    "    if rel == os.pardir or rel.startswith(os.pardir + os.sep):\n        return 'Access denied'",
    "held relpath, dots": "    base = r.roots[0].uri.path\n    rel = os.path.relpath(os.path.realpath(p), base)\n"
    "    if rel.startswith('..'):\n        raise PermissionError('Access denied')",
    "held relpath, first part": "    base = r.roots[0].uri.path\n    rel = os.path.relpath(os.path.realpath(p), base)\n"
    "    if rel.split(os.sep)[0] == '..':\n        return {'error': 'not allowed'}",
    "leading parts, dict refusal": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return {'error': 'Access denied'}",
    "parent walk, dict refusal": "    from pathlib import Path\n\n    allowed = {Path(x.uri.path) for x in r.roots}\n"
    "    probe = Path(p).resolve()\n    while probe not in allowed:\n        if probe == probe.parent:\n"
    "            return {'error': 'Access denied'}\n        probe = probe.parent",
    # Session 16's sweep N, r04: refusals worded otherwise than denied / outside; a label read before the test.
    "leading parts, must be within": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return {'error': 'Path must be within the workspace'}",
    "leading parts, traversal": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return {'error': 'Path traversal detected'}",
    "leading parts, not in the workspace": "    from pathlib import Path\n\n"
    "    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return {'error': f'{p} is not in the workspace'}",
    "relpath, content read first": "    base = r.roots[0].uri.path\n    text = open(p).read()\n"
    "    if os.path.relpath(os.path.realpath(p), base).startswith(os.pardir):\n"
    "        return f'{p} is outside the workspace'\n    return text",
}

NOT_BOUNDS = {
    # A test that names no roots on its bound side, and a `relative_to` whose ValueError picks another folder.
    "constant prefix": "    if p.startswith('/etc'):\n        return 'denied'\n    print(r.roots[0].uri)",
    "constant membership": "    if os.path.basename(p) in ('a', 'b'):\n        return 'denied'\n    print(r.roots[0].uri)",
    # Session 15's sweep D, r02 (Myco's shape): a key looked up in data read from a root is no path.
    # ragconnect's project-context match: a prefix test whose body goes on refuses nothing.
    "prefix match that picks": "    best = None\n    for root in [x.uri.path for x in r.roots]:\n"
    "        if p.startswith(root + '/'):\n            best = root\n    print(best)",
    "key in data": "    import json\n\n    raw = json.loads(open(r.roots[0].uri.path + '/app.json').read())\n"
    "    for key in ('name', 'version'):\n        if key not in raw:\n            raise ValueError(key)",
    # Session 16's sweep G near-misses: a parts comparison or a `..` test whose body goes on refuses nothing; a
    # walk up from the root to a marker file finds a folder; a walk that stops at a root refuses nothing; the
    # leading parts compared with a constant tuple, or with a root's name, name no bound.
    "leading parts that go on": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = Path(p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        print('outside', target)",
    "relpath outside, inside refused": "    base = r.roots[0].uri.path\n"
    "    if os.path.relpath(p, base).split(os.sep)[0] == os.pardir:\n        print(p)\n"
    "    else:\n        p = os.path.join(base, p)",
    "relpath inside, refused": "    base = r.roots[0].uri.path\n"
    "    if os.path.relpath(p, base).split(os.sep)[0] != os.pardir:\n        return 'inside'",
    "marker walk": "    from pathlib import Path\n\n    probe = Path(r.roots[0].uri.path).resolve()\n"
    "    while not (probe / 'pyproject.toml').exists():\n        if probe == probe.parent:\n"
    "            return 'no project'\n        probe = probe.parent\n    print(probe)",
    "walk to a root": "    from pathlib import Path\n\n    allowed = {Path(x.uri.path) for x in r.roots}\n"
    "    probe = Path(p).resolve()\n    while probe not in allowed and probe != probe.parent:\n"
    "        probe = probe.parent\n    print(probe)",
    "leading parts against a constant": "    from pathlib import Path\n\n    print(r.roots[0].uri)\n"
    "    if Path(p).parts[:2] != ('/', 'srv'):\n        return 'denied'",
    "root name against parts": "    from pathlib import Path\n\n    name = Path(r.roots[0].uri.path).name\n"
    "    if Path(p).parts[0] != name:\n        return 'denied'",
    # Session 16's sweep I: r12 (a marker walk that refuses once it reaches a root: a file outside is served),
    # r02's near-misses (a structured value that refuses nothing, a held relpath whose body goes on).
    "marker walk stopped by the roots": "    from pathlib import Path\n\n"
    "    tops = {Path(x.uri.path).resolve() for x in r.roots}\n    probe = Path(p).resolve().parent\n"
    "    while not (probe / 'pyproject.toml').exists():\n        if probe in tops or probe == probe.parent:\n"
    "            raise FileNotFoundError(p)\n        probe = probe.parent\n    print(probe)",
    "leading parts, dict answer": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = (base / p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return {'external': True}",
    "held relpath that goes on": "    base = r.roots[0].uri.path\n    rel = os.path.relpath(p, base)\n"
    "    if rel.startswith(os.pardir):\n        print('outside', rel)",
    # Session 16's sweep N, r05: a labeller (every way out returns a label of the path) guards nothing.
    "labeller": "    base = r.roots[0].uri.path\n    rel = os.path.relpath(os.path.abspath(p), base)\n"
    "    if rel.startswith(os.pardir):\n        return f'{p} (outside the workspace)'\n    return rel",
    "status that says outside": "    from pathlib import Path\n\n    base = Path(r.roots[0].uri.path).resolve()\n"
    "    target = Path(p).resolve()\n    if target.parts[: len(base.parts)] != base.parts:\n"
    "        return 'outside the workspace'\n    return 'in the workspace'",
}

SHOWN = """

@mcp.tool()
async def changed_files(paths: list[str], ctx: Context) -> str:
    result = await ctx.session.list_roots()
    base = result.roots[0].uri.path
    return "\\n".join(_shown(os.path.abspath(p), base) for p in paths)


def _shown(path: str, base: str) -> str:
    rel = os.path.relpath(path, base)
    if rel.startswith(os.pardir):
        return f"{path} (outside the workspace)"
    return rel
"""

KEPT = """

ALLOWED: list = []


@mcp.tool()
async def refresh(ctx: Context) -> int:
    r = await ctx.session.list_roots()
{fill}
    return len(ALLOWED)


@mcp.tool()
async def read(p: str) -> str:
    if not any(os.path.realpath(p).startswith(a) for a in ALLOWED):
        raise PermissionError(f"{{p}} is outside the allowed roots")
    return open(p).read()
"""

FILLS = {
    "slice": "    ALLOWED[:] = [x.uri.path for x in r.roots]",
    "extend": "    ALLOWED.clear()\n    ALLOWED.extend(x.uri.path for x in r.roots)",
}


def _codes(tmp_path, source):
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path, select=["MR1"])
    return [f for r in results for f in r.findings], (tmp_path / "server.py").read_text()


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_a_check_against_the_roots_keeps_them_the_operators(tmp_path, check):
    findings, text = _codes(tmp_path, HEAD + READ.format(check=CHECKS[check]))
    assert [f.code for f in findings] == ["MR110"], findings
    assert "allowed_roots_compat(ctx.session)" in text and "root: " not in text


@pytest.mark.parametrize("fill", sorted(FILLS))
def test_a_bound_kept_in_a_global_by_another_tool_is_the_operators(tmp_path, fill):
    findings, text = _codes(tmp_path, HEAD + KEPT.format(fill=FILLS[fill]))
    assert "MR110" in [f.code for f in findings] and "MR101" not in [f.code for f in findings]
    assert "against `ALLOWED`, which this function fills" in next(
        f.message for f in findings if f.code == "MR110"
    )
    assert "allowed_roots_compat(ctx.session)" in text and "root: " not in text


@pytest.mark.parametrize("check", sorted(NOT_BOUNDS))
def test_noop_a_check_the_roots_do_not_reach_is_no_bound(tmp_path, check):
    findings, text = _codes(tmp_path, HEAD + READ.format(check=NOT_BOUNDS[check]))
    assert [f.code for f in findings] == ["MR101"], findings


def test_noop_a_helper_that_labels_paths_outside_is_no_bound(tmp_path):
    """Sweep N, r05: `_shown` answers every path, outside ones labelled; the tool may take a `root`."""
    findings, text = _codes(tmp_path, HEAD + SHOWN)
    assert [f.code for f in findings] == ["MR101"], findings
    assert "root: " in text


FAR_SERVER = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

{spelling}

mcp = FastMCP("files")


@mcp.tool()
async def read_file(relpath: str, ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return read_inside(Path(result.roots[0].uri.path), relpath)
"""

GUARD = """\
from pathlib import Path


def ensure_within(target: Path, base: Path) -> None:
    if not target.is_relative_to(base.resolve()):
        raise PermissionError(f"{target} is outside {base}")
"""

# Session 15's sweep C, r09: the check one module further than the module the read hands its result to.
FAR = {
    "two modules": {
        "files.py": "from pathlib import Path\n\nfrom .guard import ensure_within\n\n\n"
        "def read_inside(base: Path, relpath: str) -> str:\n    target = (base / relpath).resolve()\n"
        "    ensure_within(target, base)\n    return target.read_text()\n",
        "guard.py": GUARD,
    },
    "three modules": {
        "files.py": "from pathlib import Path\n\nfrom pkg.checks import within\n\n\n"
        "def read_inside(base: Path, relpath: str) -> str:\n    target = (base / relpath).resolve()\n"
        "    within(target, base)\n    return target.read_text()\n",
        "checks.py": "from . import guard\n\n\ndef within(target, base):\n    guard.ensure_within(target, base)\n",
        "guard.py": GUARD,
    },
    "re-exported by a subpackage": {
        "files.py": "from pathlib import Path\n\nfrom .safety import ensure_within\n\n\n"
        "def read_inside(base: Path, relpath: str) -> str:\n    target = (base / relpath).resolve()\n"
        "    ensure_within(target, base)\n    return target.read_text()\n",
        "safety/__init__.py": "from .guard import ensure_within\n\n__all__ = ['ensure_within']\n",
        "safety/guard.py": GUARD,
    },
}


@pytest.mark.parametrize("spelling", ["from .files import read_inside", "from pkg.files import read_inside"])
@pytest.mark.parametrize("layout", sorted(FAR))
def test_a_bound_checked_modules_away_is_the_operators(tmp_path, layout, spelling):
    """Stage two follows the modules a followed module calls into (`Rule.follow_onward`), three deep: before,
    the third module was not read and the roots became the caller's choice (`{"root": "/etc"}` read
    /etc/hostname)."""
    root = helpers._layout(tmp_path, FAR_SERVER.format(spelling=spelling), FAR[layout], True)
    results = helpers.run_engine(root, select=["MR1"])
    findings = [f for r in results for f in r.findings]
    assert [f.code for f in findings] == ["MR110"], findings
    assert "`ensure_within`" in findings[0].message
    text = (root / "pkg" / "server.py").read_text()
    assert "allowed_roots_compat(ctx.session)" in text and "root: " not in text


def test_a_bound_the_tools_module_imports_beside_the_read_is_the_operators(tmp_path):
    """Sweep M, r01: `server.py` imports `resolve_workspace` (which reads roots, untyped, without the SDK) and
    `safe_join` from `paths.py`, which only the tools' module imports: it was not read, and the caller chose
    its own sandbox."""
    files = {
        "workspace.py": "from pathlib import Path\n\n\nasync def resolve_workspace(ctx) -> Path:\n"
        "    result = await ctx.session.list_roots()\n    return Path(result.roots[0].uri.path)\n",
        "paths.py": "from pathlib import Path\n\n\ndef safe_join(base: Path, relative: str) -> Path:\n"
        "    target = (base / relative).resolve()\n    if not target.is_relative_to(base.resolve()):\n"
        "        raise ValueError(f'{relative} escapes the workspace')\n    return target\n",
    }
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .paths import safe_join\n"
        "from .workspace import resolve_workspace\n\nmcp = FastMCP('notes')\n\n\n@mcp.tool()\n"
        "async def read_note(name: str, ctx: Context) -> str:\n    base = await resolve_workspace(ctx)\n"
        "    return safe_join(base, name).read_text()\n"
    )
    root = helpers._layout(tmp_path, server, files, True)
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert [f.code for f in findings] == ["MR110"], findings
    assert "`safe_join`" in findings[0].message
