"""The field check's scoring (audit/fieldcheck): site count, classification, checks, compare, verdicts.

Small made-up inputs only: the field itself (real servers at pinned commits) runs by hand, see audit/README.md.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "audit"))

from fieldcheck import checks, compare, verdicts  # noqa: E402
from fieldcheck.classify import classify_file, find_marker, mark_broken  # noqa: E402
from fieldcheck.sites import Untokenizable, find_sites, site_keys  # noqa: E402


def sites_of(src: str) -> list[tuple[int, str, str]]:
    return [(s.line, s.kind, s.token) for s in find_sites(textwrap.dedent(src), "m.py")]


def outcomes(before: str, after: str | None) -> list[tuple[str, str | None]]:
    before = textwrap.dedent(before)
    found = find_sites(before, "m.py")
    return [
        (o.status, o.code)
        for o in classify_file(before, None if after is None else textwrap.dedent(after), found)
    ]


# ------------------------------------------------------------------------------------------------------------
# the independent site count
# ------------------------------------------------------------------------------------------------------------


def test_no_site_in_comments_docstrings_imports_or_definitions():
    assert (
        sites_of('''
        """Calls ctx.session.list_roots() and handles notifications/roots/list_changed."""
        from mcp.types import RootsListChangedNotification
        import list_roots
        # roots = await ctx.list_roots()
        def list_roots(self):
            return "roots are listed here"
        send_roots_list_changed = 1
    ''')
        == []
    )


def test_calls_attributes_names_and_strings():
    assert sites_of("""
        async def f(ctx, session):
            a = await ctx.session.list_roots()
            b = await asyncio.wait_for(session.list_roots, 5)
            c = getattr(session, "list_roots", None)
            d = hasattr(ctx, 'list_roots')
            e = await list_roots(ctx)
            f = await ctx.list_roots  ()
    """) == [
        (3, "call", "list_roots"),
        (4, "attr", "list_roots"),
        (5, "string", '"list_roots"'),
        (6, "string", "'list_roots'"),
        (7, "name", "list_roots"),
        (8, "call", "list_roots"),
    ]


def test_notification_registrations():
    assert sites_of("""
        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = h
        server = Server("x", on_roots_list_changed=h)
        session.on("notifications/roots/list_changed", h)
        class M(Middleware):
            async def on_roots_list_changed(self, context): ...
    """) == [
        (2, "notification", "RootsListChangedNotification"),
        (3, "notification", "on_roots_list_changed"),
        (4, "notification", '"notifications/roots/list_changed"'),
        (6, "notification", "on_roots_list_changed"),
    ]


def test_hand_built_roots_requests():
    assert sites_of("""
        from mcp.types import ListRootsRequest
        r = await session.send_request(types.ServerRequest(types.ListRootsRequest()), RawRoots)
        msg = {"jsonrpc": "2.0", "method": "roots/list", "id": 1}
    """) == [(3, "request", "ListRootsRequest"), (4, "request", '"roots/list"')]


def test_a_call_spread_over_lines_is_one_site_on_the_token_line():
    assert sites_of("""
        roots = await (
            ctx.session
            .list_roots()
        )
    """) == [(4, "call", "list_roots")]


def test_untokenizable_file_is_reported():
    with pytest.raises(Untokenizable):
        find_sites("def f(:\n    x = (\n", "bad.py")


def test_site_keys_survive_line_moves_and_tell_identical_lines_apart():
    src = "async def f(ctx):\n    r = await ctx.list_roots()\n    r = await ctx.list_roots()\n"
    keys = site_keys(find_sites(src, "a.py"))
    assert keys == [
        "a.py: r = await ctx.list_roots() [list_roots]",
        "a.py: r = await ctx.list_roots() #2 [list_roots]",
    ]
    moved = site_keys(find_sites("\n\n" + src, "a.py"))
    assert moved == keys


# ------------------------------------------------------------------------------------------------------------
# classification after apply
# ------------------------------------------------------------------------------------------------------------

BEFORE = """
    async def tool(ctx):
        roots = await ctx.session.list_roots()
        return roots
"""


def test_unchanged_line_without_marker_is_silent():
    assert outcomes(BEFORE, BEFORE) == [("silent", None)]


def test_a_capability_test_the_rewrite_widened_is_rewritten_not_silent():
    before = """\
        if hasattr(ctx, "list_roots"):
            roots = await ctx.list_roots()
        """
    widened = """\
        if root is not None or hasattr(ctx, "list_roots"):
            roots = await list_roots_compat(ctx, root, name="root", shape="list")
        """
    assert outcomes(before, widened) == [("rewritten", None), ("rewritten", None)]
    edited = """\
        if hasattr(ctx, "list_roots") and ready:
            roots = await list_roots_compat(ctx, root, name="root", shape="list")
        """
    assert outcomes(before, edited) == [("silent", None), ("rewritten", None)]


def test_a_capability_test_kept_before_a_read_that_passes_no_value_is_rewritten():
    before = """\
        if session is None or not hasattr(session, "list_roots"):
            return None
        result = await session.list_roots()
        """
    kept = before.replace("session.list_roots()", 'list_roots_compat(session, None, name="project_dir")')
    assert outcomes(before, kept) == [("rewritten", None), ("rewritten", None)]
    # A read given a value would have widened the test: kept as it was, it is silent.
    given = before.replace("session.list_roots()", 'list_roots_compat(session, root, name="root")')
    assert outcomes(before, given) == [("silent", None), ("rewritten", None)]
    # Before the operator's bound (MR110) the capability check stays on purpose (mcp-guide, session 20).
    bound = before.replace("session.list_roots()", "allowed_roots_compat(session)")
    assert outcomes(before, bound) == [("rewritten", None), ("rewritten", None)]


def test_marker_above_is_recorded_with_code_and_text():
    after = """
        async def tool(ctx):
            # migrate-roots: MR150: roots reached through a session of unknown type: pass the path instead
            roots = await ctx.session.list_roots()
            return roots
    """
    before = textwrap.dedent(BEFORE)
    site = find_sites(before, "m.py")
    (outcome,) = classify_file(before, textwrap.dedent(after), site)
    assert (outcome.status, outcome.code, outcome.after_line) == ("marked", "MR150", 4)
    assert outcome.message == "roots reached through a session of unknown type: pass the path instead"


def test_marker_too_far_above_does_not_count():
    after = """
        # migrate-roots: MR150: somewhere else
        x = 1
        y = 2
        z = 3
        w = 4
        async def tool(ctx):
            roots = await ctx.session.list_roots()
            return roots
    """
    assert outcomes(BEFORE, after) == [("silent", None)]


def test_rewrite_through_the_shim_and_deleted_lines_are_rewritten():
    shim = """
        async def tool(ctx, root=None):
            roots = await list_roots_compat(ctx, root, name="root")
            return roots
    """
    assert outcomes(BEFORE, shim) == [("rewritten", None)]
    gone = """
        async def tool(ctx, root):
            return [root]
    """
    assert outcomes(BEFORE, gone) == [("rewritten", None)]
    assert outcomes(BEFORE, None) == [("rewritten", None)]


def test_edited_line_that_still_calls_roots_is_not_rewritten():
    edited = """
        async def tool(ctx):
            roots = await asyncio.wait_for(ctx.session.list_roots(), 5)
            return roots
    """
    assert outcomes(BEFORE, edited) == [("silent", None)]
    commented = """
        async def tool(ctx, root=None):
            roots = await list_roots_compat(ctx, root)  # was ctx.session.list_roots()
            return roots
    """
    assert outcomes(BEFORE, commented) == [("rewritten", None)]


def test_two_sites_in_one_changed_block_are_judged_one_by_one():
    before = """
        async def tool(ctx):
            a = await ctx.session.list_roots()
            b = await other.session.list_roots()
    """
    after = """
        async def tool(ctx, root=None):
            a = await list_roots_compat(ctx, root)
            # migrate-roots: MR150: the session of `other` is not the request's
            b = await other.session.list_roots()
    """
    assert outcomes(before, after) == [("rewritten", None), ("marked", "MR150")]


def test_string_site_kept_in_getattr_is_found_after_edit():
    before = 's = getattr(ctx, "list_roots", None)\n'
    after = "s = getattr(ctx, 'list_roots', None)  # reformatted\n"
    assert outcomes(before, after) == [("silent", None)]


def test_broken_overrides_the_outcome():
    (outcome,) = classify_file(
        textwrap.dedent(BEFORE), textwrap.dedent(BEFORE), find_sites(textwrap.dedent(BEFORE), "m")
    )
    assert mark_broken(outcome).status == "broken"


def test_find_marker_takes_the_nearest():
    lines = ["# migrate-roots: MR101: far", "# migrate-roots: MR218: near", "x = ctx.list_roots()"]
    assert find_marker(lines, 2) == ("MR218", "near")
    assert find_marker(["x = 1"], 0) is None


# ------------------------------------------------------------------------------------------------------------
# compile and pyflakes, before and after
# ------------------------------------------------------------------------------------------------------------


def test_compile_error():
    assert checks.compile_error("x = 1\n", "a.py") is None
    assert checks.compile_error("def f(:\n", "a.py").startswith("SyntaxError")


def test_pyflakes_names_only_undefined_and_unused():
    found = checks.pyflakes_names(
        "import os\nimport sys\nprint(sys, undefined_thing)\nx: int = 'a' % ()\n", "a.py"
    )
    assert sorted(kind for _, kind, _ in found) == ["UndefinedName", "UnusedImport"]
    assert checks.pyflakes_names("def f(:\n", "a.py") is None


def test_new_items_is_a_multiset_difference():
    before = [("a.py", "UnusedImport", "'os' imported but unused")]
    after = before * 2 + [("a.py", "UndefinedName", "undefined name 'root'")]
    assert checks.new_items(before, after) == after[1:]
    assert checks.new_items(after, before) == []


def test_scan_and_compare(tmp_path):
    (tmp_path / "ok.py").write_text("import os\n")
    (tmp_path / "bad.py").write_text("x = 1\n")
    before = checks.scan(tmp_path, ["ok.py", "bad.py"])
    (tmp_path / "bad.py").write_text("def f(:\n")
    (tmp_path / "ok.py").write_text("import os\nprint(root)\n")
    after = checks.scan(tmp_path, ["ok.py", "bad.py"])
    result = checks.compare_scans(before, after)
    assert list(result["stopped_compiling"]) == ["bad.py"]
    assert result["new_pyflakes"] == [["ok.py", "UndefinedName", "undefined name 'root'"]]


def test_a_pyflakes_name_whose_cited_line_moved_is_not_new(tmp_path):
    # gdc-claude-plugin (session 15): an import added above moved "from line 194" to 195.
    source = "import os\n\n\ndef f():\n    pass\n\n\ndef f():\n    pass\n"
    (tmp_path / "a.py").write_text(source)
    before = checks.scan(tmp_path, ["a.py"])
    (tmp_path / "a.py").write_text("import sys\n" + source)
    after = checks.scan(tmp_path, ["a.py"])
    assert [n[-1] for n in checks.compare_scans(before, after)["new_pyflakes"]] == [
        "'sys' imported but unused"
    ]


# ------------------------------------------------------------------------------------------------------------
# --compare and the verdicts
# ------------------------------------------------------------------------------------------------------------


def site(key: str, status: str, code: str | None = None, text: str = "r = await ctx.list_roots()") -> dict:
    return {"key": key, "file": "a.py", "text": text, "status": status, "code": code}


def run_of(*sites: dict, **repo) -> dict:
    return {"repos": [{"name": "srv", "sites": list(sites), **repo}]}


def test_compare_categories():
    old = run_of(
        site("k1", "marked", "MR150"),
        site("k2", "silent"),
        site("k3", "rewritten"),
        site("k4", "marked", "MR150"),
        site("k5", "rewritten"),
        site("gone", "silent"),
    )
    new = run_of(
        site("k1", "rewritten"),
        site("k2", "marked", "MR150"),
        site("k3", "broken"),
        site("k4", "marked", "MR160"),
        site("k5", "silent"),
        site("k6", "silent"),
    )
    result = compare.compare_runs(old, new)
    got = {c["key"]: c["category"] for c in result["repos"]["srv"]["changes"]}
    assert got == {
        "k1": "newly rewritten",
        "k2": "newly marked",
        "k3": "newly broken",
        "k4": "marker code changed",
        "k5": "newly silent",
        "k6": "new site",
        "gone": "site gone",
    }
    text = compare.render(result, "old.json", "new.json")
    assert "| newly silent | 1 |" in text and "`k5`" in text


def test_compare_same_run_is_quiet_and_repo_changes_show():
    old = run_of(
        site("k1", "rewritten"), idempotent=True, broken={"stopped_compiling": {}, "new_pyflakes": []}
    )
    new = run_of(
        site("k1", "rewritten"),
        idempotent=False,
        broken={
            "stopped_compiling": {"a.py": "SyntaxError"},
            "new_pyflakes": [["a.py", "UndefinedName", "n"]],
        },
    )
    assert compare.compare_runs(old, old)["repos"]["srv"] == {"changes": [], "repo_changes": []}
    notes = compare.compare_runs(old, new)["repos"]["srv"]["repo_changes"]
    assert notes == [
        "newly stops compiling: a.py",
        "new pyflakes name: a.py: n",
        "a second apply now changes something",
    ]
    assert "No site changed." in compare.render(compare.compare_runs(old, old), "a", "b")


def test_verdict_join(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(
        textwrap.dedent("""
        [[verdict]]
        repo = "srv"
        file = "a.py"
        line = "r = await ctx.list_roots()"
        status = "rewritten"
        verdict = "right"
        note = "the fallback keeps legacy clients"

        [[verdict]]
        repo = "srv"
        file = "a.py"
        line = "r = await ctx.list_roots()"
        nth = 2
        status = "marked"
        verdict = "wrong"
        note = "the marker blames the session type; the real reason is the cache"

        [[verdict]]
        repo = "srv"
        file = "b.py"
        line = "gone"
        verdict = "right"
    """)
    )
    entries = verdicts.load(path)
    rows = [site("k1", "rewritten"), site("k2", "rewritten"), site("k3", "silent", text="x = s.list_roots")]
    orphans = verdicts.join("srv", rows, entries)
    assert [(r["verdict"], r["verdict_note"][:12]) for r in rows] == [
        ("right", "the fallback"),
        ("stale", "judged when "),
        ("wrong", "silent: neve"),
    ]
    assert [o["file"] for o in orphans] == ["b.py"]
    assert verdicts.tally(rows)["stale"] == 1


def test_verdict_file_errors_are_one_line(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('[[verdict]]\nrepo = "srv"\nfile = "a.py"\nline = "x"\nverdict = "maybe"\n')
    with pytest.raises(ValueError, match="not one of"):
        verdicts.load(path)
    assert verdicts.load(tmp_path / "absent.toml") == []


def test_a_wrapped_marker_counts_whole_and_its_lines_do_not_use_the_window():
    lines = [
        "    # migrate-roots: MR109: roots bound what this tool may touch (a raise that says",
        "    #   the path is outside): an explicit argument would let the caller choose",
        "    #   its own bound. Keep the bound with the operator and migrate this by",
        "    #   hand",
        "    #   (five lines in all)",
        "    roots = await ctx.list_roots()",
    ]
    code, text = find_marker(lines, 5)
    assert code == "MR109"
    assert text.startswith("roots bound what this tool may touch (a raise that says the path is outside)")
    assert text.endswith("hand (five lines in all)")
    assert find_marker(["x = 1", *lines[1:]], 5) is None  # continuation lines alone are no marker


def test_a_verdict_that_names_a_code_is_stale_when_another_code_marks_the_site(tmp_path):
    """A true MR103 says nothing of an MR211 that now marks the same line."""
    path = tmp_path / "v.toml"
    path.write_text(
        '[[verdict]]\nrepo = "srv"\nfile = "a.py"\nline = "r = await ctx.list_roots()"\n'
        'status = "marked"\ncode = "MR103"\nverdict = "right"\nnote = "no tool reaches it"\n'
    )
    entries = verdicts.load(path)
    same, other = site("k1", "marked"), site("k1", "marked")
    same["code"], other["code"] = "MR103", "MR211"
    verdicts.join("srv", [same], entries)
    verdicts.join("srv", [other], entries)
    assert (same["verdict"], other["verdict"]) == ("right", "stale")
    assert other["verdict_note"] == "judged when marked MR103, now marked MR211: no tool reaches it"


def test_a_missing_blob_at_several_paths_is_left_out_at_each(tmp_path):
    """A partial mirror lacks a blob that two paths share (one data file copied around): both paths are left
    out of the export, or `git archive` fails on the second (mito's evals/data/loans.csv)."""
    import subprocess

    from fieldcheck import source

    work = tmp_path / "work"
    work.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
    subprocess.run([*git, "init", "-q"], check=True)
    for name in ("a/data.csv", "b/data.csv"):
        (work / name).parent.mkdir()
        (work / name).write_text("same bytes\n")
    (work / "server.py").write_text("print('hi')\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "x"], check=True)
    commit = subprocess.run(
        [*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    blob = subprocess.run([*git, "rev-parse", "HEAD:a/data.csv"], check=True, capture_output=True, text=True)
    obj = blob.stdout.strip()
    (work / ".git" / "objects" / obj[:2] / obj[2:]).unlink()  # loose objects: the blob is gone

    git_dir = work / ".git"
    assert source.missing_blobs(git_dir, commit) == ["a/data.csv", "b/data.csv"]
    dest = tmp_path / "out"
    assert source.export(git_dir, commit, dest) == ["a/data.csv", "b/data.csv"]
    assert (dest / "server.py").read_text() == "print('hi')\n"
