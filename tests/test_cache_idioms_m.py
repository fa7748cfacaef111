"""Caches and holders of sweep M of session 22. Marked now (each was silent and, rewritten, served the first
caller's value to later calls): an `@lru_cache` settings factory imported from another module (r06), a dict
looked up by a conditional expression (r07), a `shelve` / `dbm` store of the module (r08). Rewritten now (each
was marked for a cache it is not, and the rewrite honours every argument): a registry keyed by the root itself
(r09), a pin file the module only reads (r10). And the holder a marker names is the code as written, of the
kind it is (r11)."""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

TOOL_HEAD = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
{imports}
mcp = FastMCP("files")
{defs}

@mcp.tool()
async def where(ctx: Context) -> str:
"""
READ = "await ctx.session.list_roots()"
FIRST = "str(result.roots[0].uri)"


def _findings(tmp_path, files: dict[str, str]) -> list:
    root = package(tmp_path, files)
    return [f for r in run_engine(root, write=False) for f in r.findings]


def _server(body: str, imports: str = "", defs: str = "") -> str:
    return TOOL_HEAD.format(imports=imports, defs=defs) + body


def _rewritten(findings: list) -> None:
    assert codes(findings) in (["MR101"], ["MR101", "MR107"]), [(f.code, f.message) for f in findings]


# --- r06: an `@lru_cache` factory imported from the project -------------------------------------------
SETTINGS = """\
import functools
from functools import cache, lru_cache
from pathlib import Path


class Settings:
    def __init__(self) -> None:
        self.project_dir: Path | None = None


{decorator}
def get_settings() -> Settings:
    return Settings()
"""
USES_SETTINGS = f"""\
    settings = {{call}}
    if settings.project_dir is None:
        result = {READ}
        settings.project_dir = Path({FIRST})
    return str(settings.project_dir)
"""


@pytest.mark.parametrize(
    ("decorator", "imports", "call"),
    [
        ("", "\nfrom .config import get_settings\n", "get_settings()"),  # a new object per call
        ("@functools.wraps(print)", "\nfrom .config import get_settings\n", "get_settings()"),
    ],
    ids=["plain-factory", "other-decorator"],
)
def test_noop_imported_factory_not_memoised_is_rewritten(tmp_path, decorator, imports, call):
    files = {
        "config.py": SETTINGS.format(decorator=decorator),
        "server.py": _server(USES_SETTINGS.format(call=call), imports=imports),
    }
    _rewritten(_findings(tmp_path, files))


@pytest.mark.parametrize(
    ("decorator", "imports", "call"),
    [
        ("@functools.lru_cache", "\nfrom .config import get_settings\n", "get_settings()"),
        ("@functools.cache", "\nfrom .config import get_settings\n", "get_settings()"),
        ("@lru_cache(maxsize=None)", "\nfrom .config import get_settings\n", "get_settings()"),
        ("@cache", "\nfrom pkg.config import get_settings as settings_of\n", "settings_of()"),
        ("@lru_cache", "\nfrom . import config\n", "config.get_settings()"),
    ],
    ids=["lru_cache", "functools-cache", "lru_cache-called", "absolute-renamed", "module-attribute"],
)
def test_imported_memoised_factory_is_marked(tmp_path, decorator, imports, call):
    files = {
        "config.py": SETTINGS.format(decorator=decorator),
        "server.py": _server(USES_SETTINGS.format(call=call), imports=imports),
    }
    findings = _findings(tmp_path, files)
    assert codes(findings) == ["MR212", "MR212"], [(f.code, f.message) for f in findings]
    kept = next(f.message for f in findings if f.message.startswith("roots kept on"))
    assert kept.startswith(
        f"roots kept on `settings.project_dir` outlive the request (`settings = {call}`, one object a memoised "
        "function keeps per argument, shared by the requests that pass it)"
    ), kept


# --- r07: a dict looked up by a conditional expression ----------------------------------------------
HELPER = f"""
_CACHE: dict[int, str] = {{}}


async def _read(ctx: Context) -> str:
    result = {READ}
    return {FIRST}

"""


@pytest.mark.parametrize(
    "lookup",
    [
        "_LABELS[key] if key in _LABELS else await _read(ctx)",  # another dict, never filled: no cache
        "'-' if key < 0 else await _read(ctx)",
    ],
    ids=["unfilled-dict", "test-of-no-cache"],
)
def test_noop_conditional_without_the_cache_is_rewritten(tmp_path, lookup):
    body = f"    key = id(ctx.session)\n    ws = {lookup}\n    _CACHE[key] = ws\n    return ws\n"
    server = _server(body, defs=HELPER + "_LABELS: dict[int, str] = {0: 'x'}\n")
    _rewritten(_findings(tmp_path, {"server.py": server}))


@pytest.mark.parametrize(
    "lookup",
    [
        "_CACHE[key] if key in _CACHE else await _read(ctx)",
        "await _read(ctx) if key not in _CACHE else _CACHE[key]",
        "_CACHE.get(key) if _CACHE.get(key) else await _read(ctx)",
    ],
    ids=["in", "not-in-inverted", "get-test"],
)
def test_conditional_lookup_of_a_filled_dict_is_marked(tmp_path, lookup):
    body = f"    key = id(ctx.session)\n    ws = {lookup}\n    _CACHE[key] = ws\n    return ws\n"
    findings = _findings(tmp_path, {"server.py": _server(body, defs=HELPER)})
    assert codes(findings) == ["MR211"], [(f.code, f.message) for f in findings]
    assert findings[0].message.startswith(
        "`where` keeps what this read gives in `_CACHE`, a cache it returns from before the call (server.py:"
    ), findings[0].message
    assert "would be ignored while the cache holds an entry" in findings[0].message


def test_conditional_lookup_around_the_read_itself_is_marked(tmp_path):
    body = (
        "    key = id(ctx.session)\n"
        f"    ws = _CACHE[key] if key in _CACHE else ({READ}).roots[0].uri\n"
        "    _CACHE[key] = ws\n    return str(ws)\n"
    )
    findings = _findings(tmp_path, {"server.py": _server(body, defs="\n_CACHE: dict = {}\n")})
    assert codes(findings) == ["MR211"], [(f.code, f.message) for f in findings]
    assert findings[0].message.startswith(
        "roots read behind `_CACHE`, a module-level cache returned from before"
    )


# --- r08: a shelve / dbm store of the module ----------------------------------------------------------
STORE_DEFS = '\nimport dbm\nimport shelve\n\n_DB = str(Path.home() / ".cache" / "files" / "roots")\n'


@pytest.mark.parametrize(
    "body",
    [  # read but never stored: the store is configuration here
        f'    with shelve.open(_DB) as db:\n        if "root" in db:\n            return db["root"]\n'
        f"    result = {READ}\n    return {FIRST}\n",
        # stored but never looked up before the read: every call reads
        f'    result = {READ}\n    with shelve.open(_DB) as db:\n        db["root"] = found = {FIRST}\n'
        "    return found\n",
        # a store opened on a path the tool is given, not one of the module
        f'    with shelve.open(ctx.request_id) as db:\n        if "root" in db:\n            return db["root"]\n'
        f'        result = {READ}\n        db["root"] = found = {FIRST}\n        return found\n',
    ],
    ids=["only-read", "only-stored", "not-a-module-path"],
)
def test_noop_store_not_a_cache_is_rewritten(tmp_path, body):
    _rewritten(_findings(tmp_path, {"server.py": _server(body, defs=STORE_DEFS)}))


@pytest.mark.parametrize(
    ("body", "opened"),
    [
        (
            f'    with shelve.open(_DB) as db:\n        if "root" in db:\n            return db["root"]\n'
            f'        result = {READ}\n        db["root"] = found = {FIRST}\n        return found\n',
            "shelve.open(_DB)",
        ),
        (
            f'    db = dbm.open(_DB, "c")\n    if (hit := db.get("root")) is not None:\n        return hit.decode()\n'
            f'    result = {READ}\n    db["root"] = found = {FIRST}\n    return found\n',
            'dbm.open(_DB, "c")',
        ),
        (
            f'    with shelve.open(str(_DB)) as db:\n        try:\n            return db["root"]\n'
            f"        except KeyError:\n            pass\n        result = {READ}\n"
            f'        db.update(root={FIRST})\n        return db["root"]\n',
            "shelve.open(str(_DB))",
        ),
    ],
    ids=["shelve-with", "dbm-assigned-walrus", "shelve-try-update"],
)
def test_store_of_the_module_returned_from_is_marked(tmp_path, body, opened):
    findings = _findings(tmp_path, {"server.py": _server(body, defs=STORE_DEFS)})
    assert codes(findings) == ["MR211"], [(f.code, f.message) for f in findings]
    assert findings[0].message.startswith(
        f"roots read behind `{opened}`, an on-disk store of the module's, filled here and returned from before "
        "the read (server.py:"
    ), findings[0].message
    assert "ignored while the store holds an entry, across restarts too" in findings[0].message


def test_store_in_a_caller_is_named_at_the_helper_read(tmp_path):
    body = (
        '    with shelve.open(_DB) as db:\n        if "root" in db:\n            return db["root"]\n'
        '        db["root"] = found = await _read(ctx)\n        return found\n'
    )
    helper = f"\n\nasync def _read(ctx: Context) -> str:\n    result = {READ}\n    return {FIRST}\n"
    findings = _findings(tmp_path, {"server.py": _server(body, defs=STORE_DEFS + helper)})
    assert codes(findings) == ["MR211"], [(f.code, f.message) for f in findings]
    assert findings[0].message.startswith(
        "`where` keeps what this read gives in `shelve.open(_DB)`, an on-disk store of the module's it returns "
        "from before the call (server.py:"
    ), findings[0].message


# --- r09: a registry keyed by the root itself ----------------------------------------------------------
INDEX = """
class Index:
    def __init__(self, root: str) -> None:
        self.root = root


_INDEXES: dict[str, Index] = {}
"""


@pytest.mark.parametrize(
    ("defs", "body"),
    [
        (
            INDEX
            + "\n\ndef _index_for(root: str) -> Index:\n    return _INDEXES.setdefault(root, Index(root))\n",
            f"    result = {READ}\n    return _index_for({FIRST}).root\n",
        ),
        (
            INDEX
            + "\n\ndef _index_for(root: str) -> Index:\n    return _INDEXES.setdefault(str(root), Index(root))\n",
            f"    result = {READ}\n    return _index_for({FIRST}).root\n",
        ),
        (
            INDEX,
            f"    result = {READ}\n    found = {FIRST}\n    return _INDEXES.setdefault(found, Index(found)).root\n",
        ),
        (
            INDEX,
            f"    result = {READ}\n    found = Path({FIRST})\n"
            "    return _INDEXES.setdefault(found.resolve(), Index(str(found))).root\n",
        ),
    ],
    ids=["function", "function-str-key", "inline", "inline-resolved-key"],
)
def test_registry_keyed_by_the_root_is_rewritten(tmp_path, defs, body):
    _rewritten(_findings(tmp_path, {"server.py": _server(body, defs=defs)}))


@pytest.mark.parametrize(
    ("defs", "body", "code", "said"),
    [
        (  # keyed by a constant: the first root wins
            INDEX,
            f"    result = {READ}\n    found = {FIRST}\n    return _INDEXES.setdefault('main', Index(found)).root\n",
            "MR211",
            "roots read into `_INDEXES` by `setdefault`",
        ),
        (  # keyed by something that loses the root
            INDEX,
            f"    result = {READ}\n    found = {FIRST}\n"
            "    return _INDEXES.setdefault(len(found), Index(found)).root\n",
            "MR211",
            "roots read into `_INDEXES` by `setdefault`",
        ),
        (  # keyed by the first root, holding all of them
            INDEX,
            f"    result = {READ}\n    roots = [str(r.uri) for r in result.roots]\n    first = roots[0]\n"
            "    return _INDEXES.setdefault(first, Index(roots)).root\n",
            "MR211",
            "roots read into `_INDEXES` by `setdefault`",
        ),
        (  # a function whose key is another parameter
            INDEX + "\n\ndef _index_for(key: str, root: str) -> Index:\n"
            "    return _INDEXES.setdefault(key, Index(root))\n",
            f"    result = {READ}\n    return _index_for('main', {FIRST}).root\n",
            "MR212",
            "roots handed to `_index_for()` stay on `_INDEXES`",
        ),
    ],
    ids=["constant-key", "lossy-key", "first-of-many", "function-other-key"],
)
def test_setdefault_not_keyed_by_the_root_stays_marked(tmp_path, defs, body, code, said):
    findings = _findings(tmp_path, {"server.py": _server(body, defs=defs)})
    assert code in codes(findings) and "MR101" not in codes(findings), [(f.code, f.message) for f in findings]
    assert any(f.message.startswith(said) and "keeps the first value" in f.message for f in findings), [
        f.message for f in findings
    ]


# --- r10: a pin file the module only reads -----------------------------------------------------------
PIN_DEFS = '\nimport os\n\nPINNED = Path.home() / ".config" / "files" / "pinned"\n'
PIN_READS = {
    "try-read": "    try:\n        return PINNED.read_text().strip()\n    except FileNotFoundError:\n        pass\n",
    "exists-then-read": "    if PINNED.exists():\n        return PINNED.read_text().strip()\n",
    "isfile-open": "    if os.path.isfile(PINNED):\n        with open(PINNED, encoding='utf-8') as fh:\n"
    "            return fh.read()\n",
    "path-open": "    try:\n        with PINNED.open('r') as fh:\n            return fh.read()\n    except OSError:\n"
    "        pass\n",
}


@pytest.mark.parametrize("lookup", list(PIN_READS.values()), ids=list(PIN_READS))
def test_pin_file_only_read_is_rewritten(tmp_path, lookup):
    body = lookup + f"    result = {READ}\n    return {FIRST}\n"
    _rewritten(_findings(tmp_path, {"server.py": _server(body, defs=PIN_DEFS)}))


@pytest.mark.parametrize(
    ("lookup", "write", "tested"),
    [
        (PIN_READS["try-read"], "    PINNED.write_text(found)\n", "its read tried first"),
        (PIN_READS["exists-then-read"], "    PINNED.write_text(found)\n", "the test"),
        (
            PIN_READS["isfile-open"],
            "    with open(PINNED, 'w') as fh:\n        fh.write(found)\n",
            "the test",
        ),
        (PIN_READS["path-open"], "    _save(PINNED, found)\n", "its read tried first"),  # a helper may write
    ],
    ids=["write_text-try", "write_text-exists", "open-w", "handed-to-a-helper"],
)
def test_path_the_module_writes_stays_an_on_disk_cache(tmp_path, lookup, write, tested):
    body = lookup + f"    result = {READ}\n    found = {FIRST}\n" + write + "    return found\n"
    defs = PIN_DEFS + "\n\ndef _save(path: Path, text: str) -> None:\n    path.write_text(text)\n"
    findings = _findings(tmp_path, {"server.py": _server(body, defs=defs)})
    assert codes(findings) == ["MR211"], [(f.code, f.message) for f in findings]
    assert findings[0].message.startswith(
        f"roots read only while `PINNED` is not on disk ({tested} at server.py:"
    ), findings[0].message


def test_imported_path_is_not_shown_read_only(tmp_path):
    """A path another module binds may be written there: the read stays marked."""
    body = PIN_READS["try-read"] + f"    result = {READ}\n    return {FIRST}\n"
    files = {
        "paths.py": 'from pathlib import Path\n\nPINNED = Path.home() / "pinned"\n',
        "server.py": _server(body, imports="\nfrom .paths import PINNED\n"),
    }
    assert codes(_findings(tmp_path, files)) == ["MR211"]


# --- r11: the holder as written, of its kind ----------------------------------------------------------
WORKSPACE = "\n\nclass Workspace:\n    project: str | None = None\n"


@pytest.mark.parametrize(
    ("defs", "body", "spelled", "kind"),
    [
        (
            "\nimport functools\n\n\nclass Settings:\n    project_dir: str | None = None\n\n\n"
            "@functools.cache\ndef get_settings() -> Settings:\n    return Settings()\n",
            f"    if get_settings().project_dir is None:\n        result = {READ}\n"
            f"        get_settings().project_dir = {FIRST}\n    return str(get_settings().project_dir)\n",
            "get_settings().project_dir",
            "the object `get_settings()` returns, one a memoised function keeps per argument, shared by the "
            "requests that pass it",
        ),
        (
            "\n_BINDING = object()\n\n\ndef get_binding():\n    return _BINDING\n",
            f"    result = {READ}\n    get_binding().project = {FIRST}\n    return 'x'\n",
            "get_binding().project",
            "the object `get_binding()` returns, one a module keeps, shared by every request",
        ),
        (
            WORKSPACE.replace(
                "None = None\n", "None = None\n\n    async def load(self, ctx: Context) -> str:\n"
            )
            + f"        if type(self).project is None:\n            result = {READ}\n"
            f"            type(self).project = {FIRST}\n        return str(type(self).project)\n",
            "    return await Workspace().load(ctx)\n",
            "type(self).project",
            "a class attribute, shared by every instance",
        ),
        (
            WORKSPACE.replace(
                "None = None\n", "None = None\n\n    async def load(self, ctx: Context) -> str:\n"
            )
            + f"        if self.__class__.project is None:\n            result = {READ}\n"
            f"            self.__class__.project = {FIRST}\n        return str(self.__class__.project)\n",
            "    return await Workspace().load(ctx)\n",
            "self.__class__.project",
            "a class attribute, shared by every instance",
        ),
    ],
    ids=["memoised-call", "getter-of-a-global", "type-self", "self-class"],
)
def test_holder_spelled_as_written_and_of_its_kind(tmp_path, defs, body, spelled, kind):
    findings = _findings(tmp_path, {"server.py": _server(body, defs=defs)})
    assert codes(findings) == ["MR212", "MR212"], [(f.code, f.message) for f in findings]
    messages = sorted(f.message for f in findings)
    assert messages[0].startswith(f"roots kept on `{spelled}` outlive the request ({kind}): "), messages[0]
    assert messages[1].startswith(f"this function keeps the roots it reads on `{spelled}` (see its"), (
        messages[1]
    )
    assert "..." not in " ".join(messages) and "long-lived object" not in " ".join(messages)
