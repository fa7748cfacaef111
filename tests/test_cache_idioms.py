"""Roots caches in the idioms sweep K of session 22 found silent (each was rewritten, and in one legacy session
the calls with `root=beta`, `root=gamma`, then none all answered beta): the module object reached dynamically
(`sys.modules[__name__]`, `globals()[...]`, r02); `setattr`, `object.__setattr__` and `vars(self).setdefault`
on a lasting object (r03); `_CACHE.get(k) or <read>` (r04); an on-disk cache read first (`try: return
STATE.read_text()`, `contextlib.suppress`, r05); the holder from an `@lru_cache` factory (r06); `setdefault`
fed through a local (r07); a tuple assignment (r08); a first-wins module function (r09); a store behind a
look-up of the same module (r11). Each is marked now (MR211 or MR212, whose text names the holder)."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = """\
import contextlib
import functools
import json
import sys
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")
_CACHE: dict = {}
_PROJECT = None
STATE = Path.home() / ".cache" / "files" / "state.json"


class Registry:
    def __init__(self) -> None:
        self.name = ""


REGISTRY = Registry()


class Project:
    root = None


"""


def findings(tmp_path, body: str, extra: str = "") -> list:
    source = HEAD + extra + "\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body
    root = helpers._layout(tmp_path, source, None, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


READ = "    result = await ctx.session.list_roots()\n"
FIRST = "str(result.roots[0].uri)"

NOOPS = {
    "setattr-on-a-local": READ
    + f"    box = Registry()\n    setattr(box, 'name', {FIRST})\n    return box.name\n",
    "tuple-on-a-local": READ + f"    box = Registry()\n    box.name, n = {FIRST}, 1\n    return box.name\n",
    "or-of-an-unfilled-lookup": "    ws = ctx.session.client_params or (await ctx.session.list_roots()).roots[0].uri\n"
    "    return str(ws)\n",
    "try-read-of-a-parameter": "    try:\n        return Path(ctx.request_id).read_text()\n    except OSError:\n        pass\n"
    + READ
    + f"    return {FIRST}\n",
    "setdefault-on-a-local": READ + f"    seen = {{}}\n    return seen.setdefault('ws', {FIRST})\n",
    "a-factory-without-memo": READ
    + f"    project = new_project()\n    project.root = {FIRST}\n    return project.root\n",
    "a-function-that-always-sets": READ + f"    return str(keep({FIRST}))\n",
}
EXTRA = {
    "a-factory-without-memo": "def new_project() -> Project:\n    return Project()\n",
    "a-function-that-always-sets": "def keep(found):\n    global _PROJECT\n    _PROJECT = found\n    return _PROJECT\n",
}


@pytest.mark.parametrize("case", sorted(NOOPS))
def test_noop_values_that_die_with_the_request_are_rewritten(tmp_path, case):
    found = findings(tmp_path, NOOPS[case], EXTRA.get(case, ""))
    assert not {"MR211", "MR212"} & set(helpers.codes(found)), found
    assert "MR101" in helpers.codes(found), found


CACHES = {
    "sys-modules-alias": (
        "    this = sys.modules[__name__]\n    if getattr(this, 'DIR', None) is None:\n"
        + READ.replace("    ", "        ", 1)
        + f"        this.DIR = {FIRST}\n    return this.DIR\n",
        "",
        ("MR212", "`this = sys.modules[__name__]`"),
    ),
    "setattr-sys-modules": (
        READ + f"    setattr(sys.modules[__name__], 'DIR', {FIRST})\n    return {FIRST}\n",
        "",
        ("MR212", "(the module object, shared by every request)"),
    ),
    "globals-item": (
        READ + f"    globals()['_PROJECT'] = {FIRST}\n    return {FIRST}\n",
        "",
        ("MR212", "(a global of this module, shared by every request)"),
    ),
    "setattr-on-a-module-object": (
        READ + f"    setattr(REGISTRY, 'name', {FIRST})\n    return REGISTRY.name\n",
        "",
        ("MR212", "roots kept on `REGISTRY.name` by `setattr()`"),
    ),
    "object-setattr-on-a-class": (
        READ + f"    object.__setattr__(Project, 'root', {FIRST})\n    return str(Project.root)\n",
        "",
        ("MR212", "by `object.__setattr__()`"),
    ),
    "get-or-read": (
        "    ws = _CACHE.get('ws') or (await ctx.session.list_roots()).roots[0].uri\n"
        "    _CACHE['ws'] = ws\n    return str(ws)\n",
        "",
        ("MR211", "roots read behind `_CACHE`"),
    ),
    "try-read-from-disk": (
        "    try:\n        return json.loads(STATE.read_text())['root']\n    except FileNotFoundError:\n"
        "        pass\n" + READ + f"    STATE.write_text({FIRST})\n    return {FIRST}\n",
        "",
        ("MR211", "roots read only while `STATE` is not on disk"),
    ),
    "suppressed-read-from-disk": (
        "    with contextlib.suppress(OSError):\n        return STATE.read_text()\n"
        + READ
        + f"    STATE.write_text({FIRST})\n    return {FIRST}\n",
        "",
        ("MR211", "roots read only while `STATE` is not on disk"),
    ),
    "memoised-factory": (
        "    project = project_for('default')\n    if project.root is None:\n"
        + READ.replace("    ", "        ", 1)
        + f"        project.root = {FIRST}\n    return str(project.root)\n",
        "@functools.lru_cache(maxsize=None)\ndef project_for(client: str) -> Project:\n    return Project()\n",
        ("MR212", "one object a memoised function keeps per argument"),
    ),
    "setdefault-through-a-local": (
        READ + "    first = result.roots[0]\n    return _CACHE.setdefault('ws', str(first.uri))\n",
        "",
        ("MR211", "roots read into `_CACHE` by `setdefault`"),
    ),
    "vars-setdefault": (
        READ + f"    return vars(REGISTRY).setdefault('name', {FIRST})\n",
        "",
        ("MR211", "roots read into `vars(REGISTRY)` by `setdefault`"),
    ),
    "tuple-assignment": (
        READ + f"    REGISTRY.name, n = {FIRST}, 1\n    return REGISTRY.name\n",
        "",
        ("MR212", "roots kept on `REGISTRY.name`"),
    ),
    "first-wins-function": (
        READ + f"    return str(remember({FIRST}))\n",
        "def remember(found):\n    global _PROJECT\n    if _PROJECT is None:\n        _PROJECT = found\n"
        "    return _PROJECT\n",
        ("MR212", "which keeps the first value only"),
    ),
    "first-wins-setdefault-function": (
        READ + f"    return str(remember({FIRST}))\n",
        "def remember(found):\n    return _CACHE.setdefault('project', found)\n",
        ("MR212", "roots handed to `remember()` stay on `_CACHE`"),
    ),
    "store-behind-a-lookup": (
        "    if (hit := lookup('ws')) is not None:\n        return hit\n"
        + READ
        + f"    return store('ws', {FIRST})\n",
        "def lookup(key):\n    return _CACHE.get(key)\n\n\ndef store(key, value):\n    _CACHE[key] = value\n"
        "    return value\n",
        ("MR212", "and `lookup('ws')` returns them from before the read"),
    ),
}


@pytest.mark.parametrize("case", sorted(CACHES))
def test_roots_caches_in_everyday_idioms_are_marked(tmp_path, case):
    body, extra, (code, said) = CACHES[case]
    found = findings(tmp_path, body, extra)
    assert code in helpers.codes(found), found
    assert "MR101" not in helpers.codes(found), found
    assert any(said in f.message for f in found), [f.message for f in found]


def test_a_store_of_another_module_behind_its_look_up(tmp_path):
    cache = "_BY = {}\n\n\ndef lookup(k):\n    return _BY.get(k)\n\n\ndef store(k, v):\n    _BY[k] = v\n    return v\n"
    source = HEAD.replace("import sys\n", "import sys\n\nfrom pkg import cache\n") + (
        "\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    if (hit := cache.lookup('ws')) is not None:\n        return hit\n"
        + READ
        + f"    return cache.store('ws', {FIRST})\n"
    )
    root = helpers._layout(tmp_path, source, {"cache.py": cache}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("stay on `_BY` (a global of module `pkg.cache`" in f.message for f in found), found


@pytest.mark.parametrize(
    "keeps",
    [
        "    global _PROJECT\n    if not _PROJECT:\n        _PROJECT = found\n    return _PROJECT\n",
        "    global _PROJECT\n    _PROJECT = _PROJECT or found\n    return _PROJECT\n",
    ],
    ids=["if-not", "or"],
)
def test_first_wins_functions_in_other_spellings(tmp_path, keeps):
    """sweep M r03 (session 22): not only `if _P is None: _P = found`."""
    found = findings(
        tmp_path, READ + f"    return str(remember({FIRST}))\n", "def remember(found):\n" + keeps
    )
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("which keeps the first value only" in f.message for f in found), found


def test_noop_a_function_that_replaces_the_global_each_time(tmp_path):
    keeps = "    global _PROJECT\n    _PROJECT = found or _PROJECT\n    return _PROJECT\n"
    found = findings(
        tmp_path, READ + f"    return str(remember({FIRST}))\n", "def remember(found):\n" + keeps
    )
    assert "MR212" not in helpers.codes(found), found


def test_a_first_wins_method_spelled_with_or(tmp_path):
    extra = "class Binding:\n    project = None\n\n    def bind_once(self, p):\n        self.project = self.project or p\n"
    extra += "        return self.project\n\n\nbinding = Binding()\n"
    found = findings(tmp_path, READ + f"    return str(binding.bind_once({FIRST}))\n", extra)
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("it sets `self.project` while that is unset" in f.message for f in found), found
