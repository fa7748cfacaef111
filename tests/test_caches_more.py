"""Roots kept beyond a call in ways first seen in session 15's sweep B: on disk (r05/r06), and beside a once-flag
whose guard fills other module state. Each is marked, never rewritten into code that ignores the argument or
repeats itself. Noop cases first."""

from __future__ import annotations

from tests import helpers

HEAD = """\
import shutil
from pathlib import Path

import mcp.types as types
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("search")
INDEX_DIR = Path("/tmp/index")
"""

DISK = """

@mcp.tool()
async def search(query: str, ctx: Context) -> list[str]:
    if not INDEX_DIR.exists():
        result = await ctx.session.list_roots()
        INDEX_DIR.mkdir(parents=True)
        (INDEX_DIR / "files.txt").write_text("\\n".join(str(r.uri) for r in result.roots))
    return [f for f in (INDEX_DIR / "files.txt").read_text().splitlines() if query in f]
"""

HANDLER = """

async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
    shutil.rmtree(INDEX_DIR, ignore_errors=True)


mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed
"""

FLAG = """
_INDEX: list = []
_DONE = False


@mcp.tool()
async def search(query: str, ctx: Context) -> list[str]:
    global _DONE
    if not _DONE:
        result = await ctx.session.list_roots()
        _INDEX.extend(str(r.uri) for r in result.roots)
        _DONE = True
    return [f for f in _INDEX if query in f]
"""


def _run(tmp_path, source):
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path)
    return [f for r in results for f in r.findings], (tmp_path / "server.py").read_text()


def test_a_flag_whose_guard_fills_only_the_cache_is_still_removed(tmp_path):
    source = FLAG.replace(
        "_INDEX.extend(str(r.uri) for r in result.roots)", "_INDEX = [str(r.uri) for r in result.roots]"
    )
    source = source.replace("    global _DONE\n", "    global _DONE, _INDEX\n")
    findings, text = _run(tmp_path, HEAD + source)
    assert "MR101" in helpers.codes(findings) and "_DONE" not in text


def test_roots_built_into_a_folder_served_while_it_exists_are_marked(tmp_path):
    findings, text = _run(tmp_path, HEAD + DISK)
    assert helpers.codes(findings) == ["MR211"]
    assert (
        "roots read only while `INDEX_DIR` is not on disk (the test at server.py:13)" in findings[0].message
    )
    assert "root" not in text.replace("roots", "")


def test_a_handler_that_deletes_a_module_path_stays(tmp_path):
    findings, text = _run(tmp_path, HEAD + DISK + HANDLER)
    assert "MR201" not in helpers.codes(findings)
    assert any(f.code == "MR202" and "changes `INDEX_DIR`" in f.message for f in findings)
    assert "shutil.rmtree(INDEX_DIR" in text


def test_a_once_flag_whose_guard_fills_other_state_stays(tmp_path):
    findings, text = _run(tmp_path, HEAD + FLAG)
    assert helpers.codes(findings) == ["MR211", "MR211"]
    assert any("its guard in `search` also changes `_INDEX`" in f.message for f in findings)
    assert "if not _DONE:" in text and "root: " not in text


KEPT_ON = {
    # Session 15's sweep C: r04 (on the SDK's session), c14 (by getattr/setattr), r08 (a per-session dict on
    # the lifespan value), c37 (a service object's dict), r02 (fastmcp's per-session state).
    "session attribute": (
        "    session = ctx.session\n    if not hasattr(session, 'workspace_dir'):\n"
        "        result = await session.list_roots()\n        session.workspace_dir = str(result.roots[0].uri)\n"
        "    return session.workspace_dir",
        "roots read once into `session.workspace_dir`",
    ),
    "getattr and setattr": (
        "    cached = getattr(ctx.session, '_dir', None)\n    if cached is None:\n"
        "        result = await ctx.session.list_roots()\n        cached = str(result.roots[0].uri)\n"
        "        setattr(ctx.session, '_dir', cached)\n    return cached",
        "roots read once into `ctx.session._dir`",
    ),
    "per-session dict on an object": (
        "    app = ctx.request_context.lifespan_context\n    hit = app.workspaces.get(id(ctx.session))\n"
        "    if hit is not None:\n        return hit\n    result = await ctx.session.list_roots()\n"
        "    app.workspaces[id(ctx.session)] = str(result.roots[0].uri)\n    return str(result.roots[0].uri)",
        "roots read behind `app.workspaces`, a cache kept on an object beyond this call",
    ),
    "fastmcp session state": (
        "    path = await ctx.get_state('workspace')\n    if path is None:\n"
        "        result = await ctx.session.list_roots()\n        path = str(result.roots[0].uri)\n"
        "        await ctx.set_state('workspace', path)\n    return path",
        "roots read once into the session's state (`set_state`)",
    ),
}


def test_roots_kept_on_an_object_beyond_the_call_are_marked(tmp_path):
    for number, (body, said) in enumerate(KEPT_ON.values()):
        folder = tmp_path / str(number)
        folder.mkdir()
        source = HEAD + f"\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n{body}\n"
        findings, text = _run(folder, source)
        assert helpers.codes(findings) == ["MR211"], (said, findings)
        assert said in findings[0].message
        assert "root: " not in text


def test_a_guard_that_fetches_through_a_helper_is_named_as_a_fetcher(tmp_path):
    # Session 15's sweep D, r04 (djinnvim's shape): the flag's marker said `_ensure_roots` does not fetch.
    source = HEAD + (
        "\n\nclass State:\n    roots: list | None = None\n\n\nstate = State()\n_roots_stale = False\n\n\n"
        "async def _on_roots_changed(_n: types.RootsListChangedNotification) -> None:\n"
        "    global _roots_stale\n    _roots_stale = True\n\n\n"
        "mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed\n\n\n"
        "async def _client_roots(ctx: Context) -> list:\n    result = await ctx.session.list_roots()\n"
        "    return list(result.roots)\n\n\nasync def _ensure_roots(ctx: Context) -> None:\n"
        "    global _roots_stale\n    if state.roots is not None and not _roots_stale:\n        return\n"
        "    state.roots = await _client_roots(ctx)\n    _roots_stale = False\n\n\n"
        "@mcp.tool()\nasync def workspace(ctx: Context) -> str:\n    await _ensure_roots(ctx)\n"
        "    return str(state.roots)\n"
    )
    findings, _ = _run(tmp_path, source)
    flag = [f for f in findings if f.code == "MR211" and "`_roots_stale` keeps roots" in f.message]
    assert flag and "read by `_ensure_roots`, which reads roots behind a guard" in flag[0].message
    assert "does not fetch" not in flag[0].message


CLOSURE = """
def register(server: FastMCP) -> None:
    workspace: str | None = None

    @server.tool()
    async def where(ctx: Context) -> str:
        nonlocal workspace
        if {test}:
            result = await ctx.session.list_roots()
            workspace = str(result.roots[0].uri)
        return workspace


register(mcp)
"""


def test_roots_kept_in_a_variable_of_the_enclosing_function_are_marked(tmp_path):
    """Sweep G, r04: `nonlocal workspace` in a `register(mcp)` factory; rewritten, one call's root answered every
    later call (and legacy calls without it)."""
    for test in ("workspace is None", "not workspace"):
        findings, text = _run(tmp_path, HEAD + CLOSURE.format(test=test))
        assert helpers.codes(findings) == ["MR211"], findings
        assert "roots read behind `workspace`, a variable of the enclosing function kept across calls" in (
            findings[0].message
        )
        assert "root:" not in text


KEPT_ON_SELF = """
class Workspace:
    def __init__(self) -> None:
        self.roots: list = []

    async def load(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        self.roots = result.roots
        return str(result.roots[0].uri)


workspace = Workspace()


@mcp.tool()
async def where(ctx: Context) -> str:
    return await workspace.load(ctx)
"""


def test_a_deselected_cache_rule_is_not_pointed_to(tmp_path):
    """Sweep I (minor): with MR212 ignored, the read's marker still said "(see its MR212 marker)"."""
    (tmp_path / "server.py").write_text(HEAD + KEPT_ON_SELF)
    results = helpers.run_engine(tmp_path, ignore=["MR212"], write=False)
    messages = [f.message for r in results for f in r.findings if f.code.startswith("MR1")]
    assert messages and not any("see its MR2" in m for m in messages), messages
    shown = [f.message for r in helpers.run_engine(tmp_path, write=False) for f in r.findings]
    assert any("(see its MR212 marker)" in m for m in shown), shown


def test_a_cache_in_a_helper_module_without_the_sdk_is_marked(tmp_path):
    """Sweep M, r03: a helper module that never imports the SDK keeps its untyped read in a `global` or on a
    module-level settings object; rewritten, the first call's argument answered every later one."""
    workspace = "from pathlib import Path\n\n{head}\n\nasync def workspace_dir(ctx) -> Path:\n{body}"
    shapes = {
        "global": (
            "_workspace = None",
            "    global _workspace\n    if _workspace is None:\n"
            "        result = await ctx.session.list_roots()\n        _workspace = Path(result.roots[0].uri.path)\n"
            "    return _workspace\n",
            "a module variable kept across calls",
        ),
        "settings": (
            "from .config import SETTINGS",
            "    if SETTINGS.workspace is None:\n"
            "        result = await ctx.session.list_roots()\n"
            "        SETTINGS.workspace = Path(result.roots[0].uri.path)\n    return SETTINGS.workspace\n",
            "roots read once into `SETTINGS.workspace`",
        ),
    }
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .workspace import workspace_dir\n\n"
        "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    return str(await workspace_dir(ctx))\n"
    )
    config = "class Settings:\n    workspace = None\n\n\nSETTINGS = Settings()\n"
    for name, (head, body, said) in shapes.items():
        root = helpers.package(
            tmp_path / name,
            {
                "server.py": server,
                "config.py": config,
                "workspace.py": workspace.format(head=head, body=body),
            },
        )
        findings = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
        assert [f.code for f in findings] == ["MR211"], (name, findings)
        assert said in findings[0].message and "see its MR211" not in findings[0].message
