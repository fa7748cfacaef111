"""The shim's path checks, in the main env (no MCP SDK needed): what is refused, what is accepted and how.

Documented behaviour (see migrate_roots/templates/_mcp_roots_compat.py):
- accepted: absolute paths and ``file://`` URIs (empty host or ``localhost``, any case of the scheme),
  percent-decoded as UTF-8; ``..`` is resolved lexically; the result is the normalized local path.
- refused (RootsArgumentError naming the argument): non-strings, empty/blank, NUL (also ``%00``), relative
  paths (``~`` too), other schemes, ``file:`` without ``//``, a remote host, a query or fragment, invalid
  percent-encoded UTF-8, lone surrogates, values over MAX_PATH_LENGTH characters, a Windows drive URI on a
  non-Windows server, and (when MCP_ROOTS_ALLOWED_PATHS is set) anything outside the allow-list after
  resolving ``..`` and symlinks; under an allow-list the resolved path is returned.
- an empty list counts as "no value" (the shim then falls back to roots or the missing-argument error).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SHIM_PATH = Path(__file__).resolve().parent.parent / "migrate_roots" / "templates" / "_mcp_roots_compat.py"


def _load_shim():
    spec = importlib.util.spec_from_file_location("_mcp_roots_compat_under_test", SHIM_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shim = _load_shim()
Err = shim.RootsArgumentError
posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX path semantics")


@pytest.fixture(autouse=True)
def _no_allowlist(monkeypatch):
    monkeypatch.delenv(shim.ALLOWLIST_ENV, raising=False)


def refused(value, match=None, **kw):
    with pytest.raises(Err, match=match) as info:
        shim.validate_root(value, **kw)
    return str(info.value)


# ---------------------------------------------------------------------------------------------------------
# The module itself
# ---------------------------------------------------------------------------------------------------------


def test_allowlist_constant_is_one_substitutable_line():
    lines = SHIM_PATH.read_text(encoding="utf-8").splitlines()
    assert lines.count('ALLOWLIST_ENV = "MCP_ROOTS_ALLOWED_PATHS"') == 1


def test_imports_without_any_sdk_and_without_migrate_roots():
    text = SHIM_PATH.read_text(encoding="utf-8")
    assert "migrate_roots" not in text
    if "mcp" not in sys.modules and not importlib.util.find_spec("mcp"):
        assert Err.__bases__ == (ValueError,)
    assert issubclass(Err, ValueError)


def test_error_names_the_argument():
    msg = refused("relative/dir", name="workspace")
    assert "`workspace`" in msg and "absolute path" in msg


# ---------------------------------------------------------------------------------------------------------
# Relative paths, `..`, empty values, NUL, non-strings
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["foo", "./foo", "../etc", "foo/../../bar", "~", "~/x", ".", "C:relative"])
@posix_only
def test_relative_paths_are_refused(value):
    refused(value, match="not an absolute path")


@posix_only
@pytest.mark.parametrize(
    "value, normalized",
    [("/a/b/../c", "/a/c"), ("/../../etc", "/etc"), ("/a/./b//c/", "/a/b/c"), ("/", "/")],
)
def test_dotdot_is_resolved_lexically_without_allowlist(value, normalized):
    assert shim.validate_root(value) == normalized


@pytest.mark.parametrize("value", ["", " ", "\t\n"])
def test_empty_values_are_refused(value):
    refused(value, match="empty")


@pytest.mark.parametrize("value", ["/tmp/a\x00b", "\x00", "file:///tmp/a%00b", "file:///tmp/%00"])
def test_nul_bytes_are_refused(value):
    refused(value, match="NUL")


@pytest.mark.parametrize("value", [1, 1.5, True, b"/tmp", {"a": 1}, object(), ["/tmp", 3], ("/tmp", None)])
def test_non_strings_are_refused(value):
    with pytest.raises(Err, match="expected a string"):
        shim.validate_roots(value)


def test_none_and_empty_list_mean_no_value():
    assert shim.validate_roots(None) == []
    assert shim.validate_roots([]) == []
    assert shim.validate_roots(()) == []


@posix_only
def test_lists_keep_order():
    assert shim.validate_roots(["/b", "file:///a"]) == ["/b", "/a"]


# ---------------------------------------------------------------------------------------------------------
# URIs: percent-encoding, Unicode, hosts, schemes, Windows drives
# ---------------------------------------------------------------------------------------------------------


@posix_only
@pytest.mark.parametrize(
    "uri, path",
    [
        ("file:///tmp/a%20b", "/tmp/a b"),
        ("file:///tmp/%C3%BC/%E6%97%A5", "/tmp/ü/日"),
        ("file:///tmp/ü", "/tmp/ü"),
        ("file://localhost/tmp/x", "/tmp/x"),
        ("file://LOCALHOST/tmp/x", "/tmp/x"),
        ("FILE:///tmp/x", "/tmp/x"),
        ("file:///tmp/a%2Fb", "/tmp/a/b"),
        ("file:///tmp/x/%2E%2E/y", "/tmp/y"),
        ("file:///", "/"),
    ],
)
def test_file_uris_are_decoded(uri, path):
    assert shim.validate_root(uri) == path


@posix_only
def test_unicode_paths_are_accepted_as_is():
    assert shim.validate_root("/tmp/ünïcødé/日本語/😀") == "/tmp/ünïcødé/日本語/😀"


def test_lone_surrogates_are_refused():
    refused("/tmp/\ud800", match="cannot occur in a file name")


def test_invalid_percent_utf8_is_refused():
    refused("file:///tmp/%FF%FE", match="not valid UTF-8")


@pytest.mark.parametrize(
    "uri", ["file://evil.example/share", "file://127.0.0.1/x", "file://user@localhost/x", "file://[::1]/x"]
)
def test_remote_hosts_are_refused(uri):
    refused(uri, match="another host")


def test_malformed_host_is_refused():
    refused("file://[abc/x", match="not a valid URI")


@pytest.mark.parametrize("uri", ["file:/tmp/x", "file:tmp/x"])
def test_file_uris_need_two_slashes(uri):
    refused(uri, match="must start with file://")


@pytest.mark.parametrize("uri", ["file:///tmp/x?y=1", "file:///tmp/x#frag", "file:///tmp/x?"])
def test_query_and_fragment_are_refused(uri):
    refused(uri, match="query or fragment")


@pytest.mark.parametrize(
    "uri",
    ["http://example.com/x", "https://h/x", "ftp://h/x", "s3://bucket/key", "mailto:a@b", "data:,x", "ab:/x"],
)
def test_other_schemes_are_refused(uri):
    refused(uri, match="only file:// URIs")


@pytest.mark.parametrize(
    "uri, path",
    [("file:///C:/Users/me", "C:\\Users\\me"), ("file:///c|/x%20y", "c:\\x y"), ("file:///D:", "D:\\")],
)
def test_windows_drive_uris_on_windows(uri, path):
    assert shim.validate_root(uri, windows=True) == path


@pytest.mark.parametrize(
    "value, ok", [("C:\\Users\\me", True), ("c:/x/../y", True), ("\\x", False), ("C:x", False)]
)
def test_windows_plain_paths(value, ok):
    if ok:
        assert shim.validate_root(value, windows=True).lower().startswith("c:\\")
    else:
        refused(value, windows=True, match="not an absolute path")


@pytest.mark.parametrize(
    "value", ["\\\\server\\share\\x", "//server/share/x", "\\\\?\\C:\\x", "file:////server/share"]
)
def test_windows_unc_and_device_paths_are_refused(value):
    refused(value, windows=True, match="UNC")


def test_windows_drive_uri_on_posix_is_refused_clearly():
    refused("file:///C:/Users/me", windows=False, match="Windows drive")


def test_path_to_uri_windows():
    assert shim.path_to_uri("C:\\a b", windows=True) == "file:///C:/a%20b"


# ---------------------------------------------------------------------------------------------------------
# Length
# ---------------------------------------------------------------------------------------------------------


@posix_only
def test_very_long_paths():
    at_limit = "/" + "a/" * ((shim.MAX_PATH_LENGTH - 1) // 2)
    at_limit = at_limit[: shim.MAX_PATH_LENGTH]
    assert shim.validate_root(at_limit).startswith("/a/a")
    refused("/" + "a" * shim.MAX_PATH_LENGTH, match="longer than")


@posix_only
def test_long_component_under_allowlist_does_not_crash(tmp_path, monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tmp_path))
    assert shim.validate_root(str(tmp_path / ("x" * 1000))).endswith("x" * 1000)


# ---------------------------------------------------------------------------------------------------------
# Allow-list
# ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path):
    allowed = tmp_path / "allowed"
    (allowed / "sub").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "allowed-sibling").mkdir()
    return SimpleNamespace(base=tmp_path, allowed=allowed, outside=outside)


@posix_only
def test_allowlist_accepts_inside_and_returns_resolved(tree, monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tree.allowed))
    real = os.path.realpath(tree.allowed)
    assert shim.validate_root(str(tree.allowed)) == real
    assert shim.validate_root(str(tree.allowed / "sub")) == os.path.join(real, "sub")
    assert shim.validate_root("file://" + str(tree.allowed / "sub")) == os.path.join(real, "sub")
    assert shim.validate_root(str(tree.allowed / "not-yet-created")) == os.path.join(real, "not-yet-created")


@posix_only
@pytest.mark.parametrize(
    "rel", ["outside", "allowed/../outside", "allowed-sibling", "", "allowed/sub/../../outside"]
)
def test_allowlist_refuses_outside(tree, monkeypatch, rel):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tree.allowed))
    refused(str(tree.base / rel) if rel else str(tree.base), match="outside the directories allowed")


@posix_only
def test_allowlist_refuses_percent_encoded_traversal(tree, monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tree.allowed))
    refused("file://" + str(tree.allowed) + "/%2E%2E/outside", match="outside")


@posix_only
def test_symlink_escaping_the_allowlist_is_refused(tree, monkeypatch):
    (tree.allowed / "escape").symlink_to(tree.outside, target_is_directory=True)
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tree.allowed))
    refused(str(tree.allowed / "escape"), match="outside")
    refused(str(tree.allowed / "escape" / "deeper"), match="outside")


@posix_only
def test_symlink_into_the_allowlist_resolves_inside(tree, monkeypatch):
    link = tree.outside / "into"
    link.symlink_to(tree.allowed / "sub", target_is_directory=True)
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tree.allowed))
    assert shim.validate_root(str(link)) == os.path.realpath(tree.allowed / "sub")


@posix_only
def test_symlinked_allowlist_entry_is_resolved_too(tree, monkeypatch):
    alias = tree.base / "alias"
    alias.symlink_to(tree.allowed, target_is_directory=True)
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(alias))
    assert shim.validate_root(str(tree.allowed / "sub")) == os.path.realpath(tree.allowed / "sub")


@posix_only
def test_allowlist_with_several_entries_and_blanks(tree, monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, os.pathsep.join(["", str(tree.outside), " ", str(tree.allowed)]))
    assert shim.validate_root(str(tree.outside))
    assert shim.validate_root(str(tree.allowed / "sub"))
    refused(str(tree.base / "allowed-sibling"), match="outside")


@posix_only
def test_empty_allowlist_means_no_restriction(tree, monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, "")
    assert shim.validate_root(str(tree.outside)) == str(tree.outside)


@posix_only
def test_allowlist_of_root_allows_everything(monkeypatch):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, "/")
    assert shim.validate_root("/etc") == os.path.realpath("/etc")


# ---------------------------------------------------------------------------------------------------------
# list_roots_compat without an SDK: the fallback decisions, with fake contexts
# ---------------------------------------------------------------------------------------------------------

ROOTS_RESULT = SimpleNamespace(roots=["<root from the client>"])


class FakeSession:
    """Duck-typed like mcp's ServerSession (1.x: client_params; 2.x: client_capabilities, protocol_version)."""

    def __init__(self, *, roots_declared=True, version=None, v1=False, fail=None):
        caps = SimpleNamespace(roots=SimpleNamespace(listChanged=True) if roots_declared else None)
        if v1:
            self.client_params = SimpleNamespace(capabilities=caps, protocolVersion="2026-07-28")
        else:
            self.client_capabilities = caps
        if version is not None:
            self.protocol_version = version
        self.fail = fail
        self.calls = 0

    def check_client_capability(self, capability):  # only there so the session is recognised as one
        raise AssertionError("the shim reads capabilities itself")

    def list_roots(self):
        self.calls += 1
        warnings.warn("roots is deprecated", DeprecationWarning, stacklevel=2)

        async def answer():
            if self.fail:
                raise self.fail
            return ROOTS_RESULT

        return answer()


def run(coro):
    return asyncio.run(coro)


def missing(ctx, name="root", shape="result"):
    with pytest.raises(Err) as info:
        run(shim.list_roots_compat(ctx, None, name=name, shape=shape))
    assert f"needs the `{name}` argument" in str(info.value)
    assert "SEP-2577" in str(info.value)
    return info.value


@pytest.mark.parametrize(
    "session",
    [
        FakeSession(version="2025-11-25"),  # mcp 2.x legacy request
        FakeSession(v1=True),  # mcp 1.x: no version attribute; the requested version is not trusted
    ],
)
def test_legacy_with_roots_declared_asks_the_client(session):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # like `python -W error`
        assert run(shim.list_roots_compat(SimpleNamespace(session=session), None)) is ROOTS_RESULT
        assert run(shim.list_roots_compat(session, None, shape="list")) == ROOTS_RESULT.roots
    assert session.calls == 2


def test_modern_request_never_asks_even_if_roots_declared():
    session = FakeSession(version="2026-07-28")
    missing(SimpleNamespace(session=session))
    missing(SimpleNamespace(session=session, protocol_version="2026-07-28"))
    assert session.calls == 0


@pytest.mark.parametrize("version", ["2027-01-01", "draft", "DRAFT-2026-v1", "2026-07-28"])
def test_unknown_or_newer_versions_count_as_modern(version):
    session = FakeSession(version="2025-06-18")
    ctx = SimpleNamespace(session=session, request_context=SimpleNamespace(protocol_version=version))
    missing(ctx)
    assert session.calls == 0


def test_ctx_version_wins_over_session_version():
    session = FakeSession(version="2025-06-18")
    missing(SimpleNamespace(session=session, protocol_version="2026-07-28"))


def test_no_roots_capability_no_request():
    session = FakeSession(roots_declared=False, version="2025-06-18")
    missing(SimpleNamespace(session=session), name="workspace")
    assert session.calls == 0


class RaisingContext:
    @property
    def session(self):
        raise RuntimeError("session is not available because the MCP session has not been established yet")


@pytest.mark.parametrize("ctx", [None, object(), RaisingContext(), SimpleNamespace(session=None)])
def test_no_session_means_missing_argument(ctx):
    missing(ctx)


def test_failing_roots_request_becomes_the_tool_error():
    session = FakeSession(version="2025-06-18", fail=RuntimeError("Method not found"))
    err = missing(SimpleNamespace(session=session))
    assert "roots/list failed: Method not found" in str(err)


def test_bad_shape_is_a_programming_error():
    with pytest.raises(ValueError, match="shape"):
        run(shim.list_roots_compat(None, "/tmp", shape="dict"))


def test_invalid_value_is_refused_before_any_fallback():
    session = FakeSession(version="2025-06-18")
    with pytest.raises(Err, match="not an absolute path"):
        run(shim.list_roots_compat(SimpleNamespace(session=session), "relative"))
    assert session.calls == 0


# Where the era cannot be told (a test double, a foreign context object), the old call is kept; only a
# provably modern request or a client provably without roots gets the missing-argument error.


def test_double_without_client_params_keeps_the_old_session_call():
    from unittest.mock import AsyncMock

    session = SimpleNamespace(list_roots=AsyncMock(return_value=ROOTS_RESULT))
    assert run(shim.list_roots_compat(SimpleNamespace(session=session), None)) is ROOTS_RESULT
    assert run(shim.list_roots_compat(SimpleNamespace(session=session), None, shape="list")) == [
        "<root from the client>"
    ]
    assert session.list_roots.await_count == 2


def test_magicmock_context_with_fastmcp_list_roots_is_called_for_the_list_shape():
    from unittest.mock import AsyncMock, MagicMock

    ctx = MagicMock()
    ctx.list_roots = AsyncMock(return_value=["<root>"])
    assert run(shim.list_roots_compat(ctx, None, shape="list")) == ["<root>"]
    ctx.list_roots.assert_awaited_once()


def test_double_failing_call_keeps_its_error_in_the_message():
    from unittest.mock import AsyncMock

    ctx = SimpleNamespace(list_roots=AsyncMock(side_effect=RuntimeError("not supported")))
    err = missing(ctx, shape="list")
    assert "roots/list failed: not supported" in str(err)


def test_provably_modern_double_still_gets_the_error():
    from unittest.mock import AsyncMock

    session = SimpleNamespace(list_roots=AsyncMock(return_value=ROOTS_RESULT))
    missing(SimpleNamespace(session=session, protocol_version="2026-07-28"), name="workspace")
    session.list_roots.assert_not_called()


def test_known_capabilities_without_roots_still_get_the_error():
    from unittest.mock import AsyncMock

    session = SimpleNamespace(
        list_roots=AsyncMock(return_value=ROOTS_RESULT),
        client_params=SimpleNamespace(capabilities=SimpleNamespace(roots=None)),
    )
    missing(SimpleNamespace(session=session))
    session.list_roots.assert_not_called()


def test_nothing_to_call_is_the_missing_argument():
    missing(SimpleNamespace(session=SimpleNamespace()))
    missing(SimpleNamespace(list_roots="not callable"), shape="list")


# ---------------------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------------------

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=6,
)
pathlike = st.one_of(
    st.text(),
    st.text().map(lambda t: "/" + t),
    st.text().map(lambda t: "file://" + t),
    st.text().map(lambda t: "file:///" + t),
    st.from_regex(r"\Afile://[a-zA-Z0-9.%:\[\]@|/\\-]{0,30}\Z"),
    st.from_regex(r"\A(/|file:///)([A-Za-z][:|]?)?([/\\.%0-9A-Fa-f]|\.\.){0,20}\Z"),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.one_of(pathlike, anything, st.lists(pathlike, max_size=3)),
    windows=st.booleans(),
    allow=st.booleans(),
)
def test_arbitrary_values_only_ever_raise_the_shim_error(value, windows, allow):
    saved = os.environ.get(shim.ALLOWLIST_ENV)
    try:
        if allow:
            os.environ[shim.ALLOWLIST_ENV] = os.pathsep.join(["/tmp", "/nonexistent/allowed"])
        else:
            os.environ.pop(shim.ALLOWLIST_ENV, None)
        try:
            paths = shim.validate_roots(value, windows=windows)
        except Err as exc:
            assert str(exc)
        else:
            assert all(isinstance(p, str) and p and "\x00" not in p for p in paths)
            if not windows:
                assert all(p.startswith("/") for p in paths)
            for p in paths:  # every accepted path can be turned into a URI (what the shim returns)
                shim.path_to_uri(p, windows=windows)
    finally:
        if saved is None:
            os.environ.pop(shim.ALLOWLIST_ENV, None)
        else:
            os.environ[shim.ALLOWLIST_ENV] = saved


@posix_only
@settings(max_examples=300, deadline=None)
@given(
    segments=st.lists(st.text(min_size=1).filter(lambda s: "/" not in s and s not in (".", "..")), max_size=5)
)
def test_path_uri_roundtrip(segments):
    try:
        path = shim.validate_root("/" + "/".join(segments))
    except Err:
        return  # NUL, surrogates, too long: refused either way
    assert shim.validate_root(shim.path_to_uri(path)) == path


@posix_only
@pytest.mark.parametrize("path", ["/A:", "/a|", "/C:/x", "/" + "\u0126" * 2000])
def test_path_uri_roundtrip_examples(path):
    """Found by the property test above: a POSIX name `A:` percent-encoded (`file:///A%3A`) is no Windows drive,
    and a 2,000-character non-ASCII path fits although its URI is longer than 4,096 characters."""
    assert shim.validate_root(shim.path_to_uri(shim.validate_root(path))) == shim.validate_root(path)


def test_windows_rules_under_an_allow_list_never_return_a_host_path(monkeypatch, tmp_path):
    """Found by the property test above (run from a folder inside the allow-list): `FILE:///A:` with Windows
    rules on a POSIX host was resolved by the host's realpath to `<cwd>/A:\\`, accepted, and then no file URI
    could express it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tmp_path))
    with pytest.raises(Err, match="outside the directories allowed"):
        shim.validate_roots("FILE:///A:", windows=True)


# ---------------------------------------------------------------------------------------------------------
# allowed_roots_compat (MR110): roots that bound a tool; the operator's list on 2026-07-28, else the old call
# ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def fake_types(monkeypatch):
    """A stand-in for `mcp.types` (this test environment has no SDK; tests/test_roots_bound_operator_e2e.py
    drives the real ones): Root and ListRootsResult as plain records."""

    class Root(SimpleNamespace):
        @classmethod
        def model_validate(cls, data):
            return cls(**data)

    module = SimpleNamespace(Root=Root, ListRootsResult=lambda roots: SimpleNamespace(roots=roots))
    monkeypatch.setitem(sys.modules, "mcp.types", module)
    return module


@pytest.mark.parametrize("session", [FakeSession(version="2025-11-25"), FakeSession(v1=True)])
def test_bound_legacy_makes_the_old_call_whatever_the_operator_lists(monkeypatch, tmp_path, session):
    monkeypatch.setenv(shim.ALLOWLIST_ENV, str(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the old call warns; the shim keeps that from failing the tool
        assert run(shim.allowed_roots_compat(session)) is ROOTS_RESULT
    assert session.calls == 1


@pytest.mark.parametrize("listed", [None, "", f" {os.pathsep} "])
def test_bound_modern_with_nothing_listed_fails_as_the_old_call_did(monkeypatch, listed):
    """The server's own fallback sees the very error it saw before (telegram-mcp reads its code)."""
    if listed is not None:
        monkeypatch.setenv(shim.ALLOWLIST_ENV, listed)
    error = RuntimeError("no back-channel on a 2026-07-28 request")
    session = FakeSession(version="2026-07-28", fail=error)
    with pytest.raises(RuntimeError) as info:
        run(shim.allowed_roots_compat(session))
    assert info.value is error and session.calls == 1


@posix_only
def test_bound_modern_gets_the_operator_list_resolved_in_either_shape(monkeypatch, tmp_path, fake_types):
    real = tmp_path / "real dir"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv(shim.ALLOWLIST_ENV, f"{tmp_path / 'link'}{os.pathsep}{os.pathsep}/srv")
    session = FakeSession(version="2026-07-28", fail=AssertionError("the old call must not be made"))
    result = run(shim.allowed_roots_compat(session))
    assert [r.uri for r in result.roots] == [real.as_uri(), "file:///srv"]
    ctx = SimpleNamespace(request_context=SimpleNamespace(protocol_version="2026-07-28"))
    listed = run(shim.allowed_roots_compat(ctx, shape="list"))
    assert [r.uri for r in listed] == [real.as_uri(), "file:///srv"]
    assert session.calls == 0


def test_bound_list_shape_returns_the_old_call_as_it_was():
    """fastmcp 2.x/3.x's `ctx.list_roots()` gives a list; the holder is that context, its answer unchanged."""
    from unittest.mock import AsyncMock

    answer = ["<root>"]
    ctx = SimpleNamespace(list_roots=AsyncMock(return_value=answer))
    assert run(shim.allowed_roots_compat(ctx, shape="list")) is answer


def test_bound_holder_without_list_roots_fails_as_before():
    """What the old call was made on is the holder: no `list_roots` there fails as `x.list_roots()` did."""
    with pytest.raises(AttributeError):
        run(shim.allowed_roots_compat(object()))
    with pytest.raises(ValueError, match="shape must be"):
        run(shim.allowed_roots_compat(FakeSession(), shape="dict"))
