"""A cache keyed by the arguments, applied through a name (sweep N r06 of session 22): `per_session =
alru_cache(maxsize=32)` then `@per_session` was not taken for a cache, and the list-shaped `root` joined its key
(every call passing it failed: unhashable type 'list'). The same for `cached = functools.lru_cache(maxsize=None)`,
`memo = functools.lru_cache` then `@memo(maxsize=8)`, a decorator of the project that applies one (`def
memo(fn): return functools.lru_cache()(fn)`), and one imported from another module of the project."""

from __future__ import annotations

import pytest

from tests import helpers
from tests.test_cached_helpers import HEAD, LISTED, SINGLE

NAMED = {
    "alru_cache-called": (
        "per_session = alru_cache(maxsize=32)\n\n",
        "@per_session",
        "alru_cache(maxsize=32)",
    ),
    "lru_cache-called": (
        "cached = functools.lru_cache(maxsize=None)\n\n",
        "@cached",
        "functools.lru_cache(maxsize=None)",
    ),
    "renamed": ("memo = functools.lru_cache\n\n", "@memo(maxsize=8)", "functools.lru_cache"),
    "project-decorator": (
        "def memo(fn):\n    return functools.lru_cache()(fn)\n\n",
        "@memo",
        "functools.lru_cache()(fn)",
    ),
    "project-decorator-cache": (
        "def memo(fn):\n    return functools.cache(fn)\n\n",
        "@memo",
        "functools.cache(fn)",
    ),
}


def _run(tmp_path, body, extra=None):
    (tmp_path / "server.py").write_text(HEAD + body)
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    findings = [f for r in helpers.run_engine(tmp_path) for f in r.findings]
    return findings, (tmp_path / "server.py").read_text()


@pytest.mark.parametrize(("defs", "decorator", "_value"), NAMED.values(), ids=NAMED.keys())
def test_noop_a_single_root_is_keyed_by_a_named_cache(tmp_path, defs, decorator, _value):
    findings, text = _run(tmp_path, defs + SINGLE.format(decorator=decorator))
    assert helpers.codes(findings) == ["MR101", "MR107"], findings
    assert "async def _workspace(session: ServerSession, root: str | None = None) -> str:" in text


@pytest.mark.parametrize(
    "defs",
    [
        pytest.param("def per_session(fn):\n    return fn\n\n", id="a-decorator-of-no-cache"),
        pytest.param(
            "per_session = cachetools.cached(cachetools.LRUCache(8), key=lambda *a, **k: 0)\n\n",
            id="a-cache-keyed-by-the-project",
        ),
    ],
)
def test_noop_a_name_bound_to_no_argument_cache_is_rewritten(tmp_path, defs):
    findings, text = _run(tmp_path, defs + LISTED.format(decorator="@per_session"))
    assert helpers.codes(findings) == ["MR101", "MR107"], findings
    assert "root: list[str] | None = None" in text


@pytest.mark.parametrize(("defs", "decorator", "value"), NAMED.values(), ids=NAMED.keys())
def test_a_list_is_never_given_to_a_named_cache(tmp_path, defs, decorator, value):
    findings, text = _run(tmp_path, defs + LISTED.format(decorator=decorator))
    assert helpers.codes(findings) == ["MR103"], findings
    spelled = decorator.partition("(")[0]
    assert findings[0].message.startswith(
        f"`_workspaces` is cached by `{spelled}` (`{value}`), whose key is its arguments: the path argument it "
        "would take from `where` is a list (the roots are used beyond the first), which the key cannot hold"
    ), findings[0].message
    assert "RootPaths" not in text and "root=root" not in text


@pytest.mark.parametrize(
    ("caching", "value"),
    [
        pytest.param(
            "from async_lru import alru_cache\n\nper_session = alru_cache(maxsize=32)\n",
            "alru_cache(maxsize=32)",
            id="assigned",
        ),
        pytest.param(
            "import functools\n\n\ndef per_session(fn):\n    return functools.lru_cache(maxsize=None)(fn)\n",
            "functools.lru_cache(maxsize=None)(fn)",
            id="project-decorator",
        ),
    ],
)
def test_a_named_cache_of_another_module(tmp_path, caching, value):
    body = "from caching import per_session\n\n" + LISTED.format(decorator="@per_session")
    findings, text = _run(tmp_path, body, {"caching.py": caching})
    assert helpers.codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        f"`_workspaces` is cached by `@per_session` (`{value}` in `caching`), whose key is its arguments"
    ), findings[0].message
    assert "RootPaths" not in text
