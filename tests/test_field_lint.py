"""The field check's lint step (audit/fieldcheck/lint.py): new-finding difference, configuration detection, runs.

Tiny made-up trees in tmp_path only; the field itself runs by hand (audit/README.md, "Field check").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "audit"))

from fieldcheck import compare, lint, render  # noqa: E402


def f(file: str, line: int, code: str, message: str) -> dict:
    return {"file": file, "line": line, "code": code, "message": message}


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


# ------------------------------------------------------------------------------------------------------------
# normalisation and the multiset difference
# ------------------------------------------------------------------------------------------------------------


def test_normalise_replaces_every_digit_run():
    assert lint.normalise("Line too long (95 > 88)") == "Line too long (N > N)"
    assert lint.normalise('Name "x" already defined on line 12') == 'Name "x" already defined on line N'
    assert lint.normalise("no digits") == "no digits"


def test_new_findings_ignores_lines_and_counts_duplicates():
    before = [
        f("a.py", 3, "E501", "Line too long (95 > 88)"),
        f("a.py", 9, "arg-type", 'Argument 1 has incompatible type "int"'),
    ]
    after = [
        f("a.py", 5, "E501", "Line too long (101 > 88)"),  # the same long line, moved and longer: not new
        f("a.py", 7, "E501", "Line too long (90 > 88)"),  # a second one: new
        f("a.py", 11, "arg-type", 'Argument 1 has incompatible type "int"'),
        f("b.py", 1, "E501", "Line too long (95 > 88)"),  # another file: new
    ]
    assert lint.new_findings(before, after) == [after[1], after[3]]
    assert lint.new_findings(after, after) == []
    assert lint.new_findings(after, before) == []  # fewer findings after is never new


def test_new_findings_keys_on_code_and_message():
    before = [f("a.py", 1, "no-redef", 'Name "x" already defined on line 12')]
    after = [
        f("a.py", 30, "no-redef", 'Name "x" already defined on line 25'),
        f("a.py", 31, "no-redef", 'Name "y" already defined on line 25'),
        f("a.py", 32, "misc", 'Name "x" already defined on line 25'),
    ]
    assert lint.new_findings(before, after) == after[1:]


def test_compare_tool_incomplete_and_failed_sides():
    ok = {"status": "ok", "findings": [f("a.py", 1, "I001", "Import block is un-sorted or un-formatted")]}
    timeout = {"status": "timeout", "findings": [], "error": "mypy timed out after 300 s on src"}
    failed = {"status": "error", "findings": [], "error": "Traceback ..."}
    assert lint.compare_tool(ok, ok)["new"] == []
    assert lint.compare_tool(ok, ok)["before"]["by_code"] == {"I001": 1}
    got = lint.compare_tool(ok, timeout)
    assert got["new"] is None and got["incomplete"] == "before ok, after timeout"
    (only,) = lint.compare_tool(ok, failed)["new"]
    assert only["code"] == "failed" and "Traceback" in only["message"]
    assert lint.compare_tool(failed, failed)["new"] is None
    assert "findings" not in lint.compare_tool(ok, ok)["after"]  # counts only: raw output stays in the logs


# ------------------------------------------------------------------------------------------------------------
# configuration detection
# ------------------------------------------------------------------------------------------------------------


def test_ruff_config_nearest_and_precedence(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.ruff]\nline-length = 100\n",
            "pkg/ruff.toml": "line-length = 120\n",
            "pkg/.ruff.toml": "line-length = 79\n",
            "pkg/src/m.py": "",
            "other/src/m.py": "",
        },
    )
    got = lint.ruff_config(tmp_path, "pkg/src")
    assert (got["config"], got["config_line_length"], got["line_length"]) == ("pkg/.ruff.toml", 79, None)
    got = lint.ruff_config(tmp_path, "other/src")
    assert (got["config"], got["config_line_length"], got["line_length_from"]) == (
        "pyproject.toml",
        100,
        "ruff",
    )


def test_ruff_config_black_line_length_and_default(tmp_path):
    write(
        tmp_path,
        {
            "a/pyproject.toml": "[tool.black]\nline-length = 100\n",
            "a/src/m.py": "",
            "b/pyproject.toml": "[project]\nname = 'b'\n",
            "b/src/m.py": "",
            "c/pyproject.toml": "[tool.black]\nline-length = 100\n",
            "c/ruff.toml": "[lint]\nselect = ['E']\n",  # a ruff config without line-length: ruff's own (88)
            "c/src/m.py": "",
        },
    )
    got = lint.ruff_config(tmp_path, "a/src")
    assert (got["config"], got["line_length"], got["line_length_from"], got["black"]) == (
        None,
        100,
        "black",
        "a/pyproject.toml",
    )
    got = lint.ruff_config(tmp_path, "b/src")
    assert (got["config"], got["line_length"], got["line_length_from"]) == (None, None, "default")
    got = lint.ruff_config(tmp_path, "c/src")
    assert (got["config"], got["line_length"], got["config_line_length"]) == ("c/ruff.toml", None, None)


def test_ruff_config_above_a_black_only_pyproject_wins(tmp_path):
    write(
        tmp_path,
        {
            "ruff.toml": "line-length = 99\n",
            "pkg/pyproject.toml": "[tool.black]\nline-length = 120\n",
            "pkg/src/m.py": "",
        },
    )
    got = lint.ruff_config(tmp_path, "pkg/src")
    assert (got["config"], got["line_length"], got["black"]) == ("ruff.toml", None, "pkg/pyproject.toml")


def test_ruff_config_that_does_not_parse_is_still_the_config(tmp_path):
    write(tmp_path, {"pyproject.toml": "[tool.ruff\n", "ruff.toml": "line-length = = 3\n", "src/m.py": ""})
    got = lint.ruff_config(tmp_path, "src")
    assert (got["config"], got["config_line_length"]) == ("ruff.toml", None)


def test_mypy_config_order_and_nearest(tmp_path):
    write(
        tmp_path,
        {
            "setup.cfg": "[metadata]\nname = x\n\n[mypy]\nstrict = True\n",
            "pkg/pyproject.toml": "[tool.mypy]\nstrict = true\n",
            "pkg/src/m.py": "",
            "two/mypy.ini": "[mypy]\n",
            "two/pyproject.toml": "[tool.mypy]\n",
            "two/src/m.py": "",
            "three/.mypy.ini": "[mypy]\n",
            "three/setup.cfg": "[mypy]\n",
            "three/src/m.py": "",
            "src/m.py": "",
        },
    )
    assert lint.mypy_config(tmp_path, "pkg/src") == "pkg/pyproject.toml"
    assert lint.mypy_config(tmp_path, "two/src") == "two/mypy.ini"
    assert lint.mypy_config(tmp_path, "three/src") == "three/.mypy.ini"
    assert lint.mypy_config(tmp_path, "src") == "setup.cfg"


def test_mypy_config_needs_the_section(tmp_path):
    write(
        tmp_path,
        {
            "setup.cfg": "[flake8]\nmax-line-length = 100\n",
            "pyproject.toml": "[tool.ruff]\nline-length = 100\n",
            "src/m.py": "",
        },
    )
    assert lint.mypy_config(tmp_path, "src") is None
    write(tmp_path, {"setup.cfg": "[flake8]\n%(bad interpolation\n[mypy]\n"})
    assert lint.mypy_config(tmp_path, "src") == "setup.cfg"


# ------------------------------------------------------------------------------------------------------------
# parsing the tools' output
# ------------------------------------------------------------------------------------------------------------


def test_parse_ruff_makes_paths_relative(tmp_path):
    out = json.dumps(
        [
            {
                "code": "E501",
                "message": "Line too long (95 > 88)",
                "filename": str(tmp_path / "src" / "m.py"),
                "location": {"row": 4, "column": 89},
            }
        ]
    )
    assert lint.parse_ruff(out, tmp_path) == [f("src/m.py", 4, "E501", "Line too long (95 > 88)")]
    assert lint.parse_ruff("ruff failed", tmp_path) is None


def test_parse_mypy_keeps_errors_relative_to_the_tree(tmp_path):
    lines = [
        {
            "file": "src/m.py",
            "line": 3,
            "column": 1,
            "message": "Bad",
            "hint": None,
            "code": "misc",
            "severity": "error",
        },
        {"file": "src/m.py", "line": 3, "column": 1, "message": "A note", "code": None, "severity": "note"},
        {"file": "../x.py", "line": 1, "column": 1, "message": "Up", "code": None, "severity": "error"},
    ]
    stdout = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n"
    errors, other = lint.parse_mypy(stdout, tmp_path, tmp_path / "pkg")
    assert errors == [f("pkg/src/m.py", 3, "misc", "Bad"), f("x.py", 1, "", "Up")]
    assert other == ["not json"]


# ------------------------------------------------------------------------------------------------------------
# the real tools on tiny trees (ruff and mypy are test dependencies)
# ------------------------------------------------------------------------------------------------------------

LONG = "x = '" + "a" * 90 + "'\n"


def test_run_ruff_applies_the_project_config_and_falls_back(tmp_path):
    env = dict(os.environ)
    write(
        tmp_path,
        {"pyproject.toml": "[tool.ruff]\nline-length = 120\n", "src/m.py": "import sys\nimport os\n" + LONG},
    )
    got = lint.run_ruff(tmp_path, ["src"], tmp_path / "logs", env, "before")
    assert got["status"] == "ok" and not got["fallback"]
    assert [x["code"] for x in got["findings"]] == ["I001"]  # 96 columns fit the project's 120
    write(tmp_path, {"pyproject.toml": "[tool.black]\nline-length = 79\n"})
    got = lint.run_ruff(tmp_path, ["src"], tmp_path / "logs", env, "before")
    assert sorted(x["code"] for x in got["findings"]) == ["E501", "I001"]
    assert got["configs"][0]["line_length"] == 79
    # a rule this ruff does not know: recorded, then --isolated with the config's line length
    write(tmp_path, {"ruff.toml": "line-length = 90\n[lint]\nselect = ['ZZZ999']\n"})
    got = lint.run_ruff(tmp_path, ["src"], tmp_path / "logs", env, "before")
    (fallback,) = got["fallback"]
    assert "ZZZ999" in fallback["reason"] and fallback["line_length"] == 90
    assert sorted(x["code"] for x in got["findings"]) == ["E501", "I001"]
    assert not (tmp_path / ".ruff_cache").exists()  # --no-cache: nothing written into the tree


def _git_tree(root: Path) -> dict:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@localhost")
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@localhost")
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "x"]):
        subprocess.run(cmd, cwd=root, env=env, check=True, capture_output=True)
    return env


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0, reason="git")
def test_run_side_mypy_config_fallback_and_a_clean_tree(tmp_path):
    tree = write(
        tmp_path / "tree",
        {
            # a plugin that is not installed (quick mode installs nothing), and a report written into the tree
            "mypy.ini": "[mypy]\nplugins = not_installed_plugin\n",
            "src/pkg/__init__.py": "",
            "src/pkg/m.py": "import not_installed_dep\n\ndef f() -> int:\n    return 'x'\n",
        },
    )
    env = _git_tree(tree)
    side = lint.run_side(tree, ["src"], tmp_path / "scratch", tmp_path / "logs", env, "before")
    mypy = side["mypy"]
    assert mypy["configs"] == [{"source": "src", "config": "mypy.ini"}]
    (fallback,) = mypy["fallback"]
    assert "not_installed_plugin" in fallback["reason"]
    assert mypy["status"] == "ok"
    assert [(x["file"], x["code"]) for x in mypy["findings"]] == [("src/pkg/m.py", "return-value")]
    assert side["left_in_tree"] == []
    assert (tmp_path / "scratch" / "mypy-cache").is_dir()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True, text=True)
    assert status.stdout == ""


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0, reason="git")
def test_run_side_removes_what_the_tools_leave_in_the_tree(tmp_path):
    tree = write(
        tmp_path / "tree",
        {"pyproject.toml": "[tool.mypy]\njunit_xml = 'mypy-junit.xml'\n", "src/m.py": "x: int = 1\n"},
    )
    env = _git_tree(tree)
    side = lint.run_side(tree, ["src"], tmp_path / "scratch", tmp_path / "logs", env, "after")
    assert side["mypy"]["status"] == "ok" and side["mypy"]["findings"] == []
    assert side["left_in_tree"] == ["mypy-junit.xml"]
    assert not (tree / "mypy-junit.xml").exists()


# ------------------------------------------------------------------------------------------------------------
# results: table cell, totals, compare
# ------------------------------------------------------------------------------------------------------------


def lint_result(ruff_new: list[dict] | None, mypy_new: list[dict] | None = None) -> dict:
    def tool(new):
        side = {"status": "ok", "count": 2, "by_code": {}, "configs": [], "fallback": []}
        return {"before": side, "after": {**side, "count": 2 + len(new or [])}, "new": new}

    return {"ruff": tool(ruff_new), "mypy": tool(mypy_new or [])}


def test_cell_totals_and_compare():
    one = f("src/m.py", 7, "E501", "Line too long (91 > 88)")
    repo = {"name": "srv", "sites": [], "lint": lint_result([one])}
    assert render._lint(repo, "ruff") == "2→3 (**1**)"
    assert render._lint(repo, "mypy") == "2→2 (0)"
    assert render._lint({"name": "old"}, "ruff") == "-"
    t = render.totals({"repos": [repo]})
    assert (t["new_ruff"], t["new_mypy"], t["lint_incomplete"]) == (1, 0, 0)
    text = "\n".join(render.lint_section({"repos": [repo]}))
    assert "`src/m.py:7` | E501 | Line too long (91 > 88)" in text

    old = {"repos": [{"name": "srv", "sites": [], "lint": lint_result([])}]}
    new = {"repos": [repo]}
    notes = compare.compare_runs(old, new)["repos"]["srv"]["repo_changes"]
    assert notes == [
        "new ruff I/E501 findings: 0 -> 1",
        "now new (ruff): src/m.py:7: [E501] Line too long (91 > 88)",
    ]
    back = compare.compare_runs(new, old)["repos"]["srv"]["repo_changes"]
    assert back[0] == "new ruff I/E501 findings: 1 -> 0" and back[1].startswith("no longer new (ruff)")
    assert compare.compare_runs(new, new)["repos"]["srv"]["repo_changes"] == []
    # a run without the lint step says nothing about lint
    assert (
        compare.compare_runs({"repos": [{"name": "srv", "sites": []}]}, new)["repos"]["srv"]["repo_changes"]
        == []
    )


# ------------------------------------------------------------------------------------------------------------
# what the scratch area must not change: configurations above the tree, layout, the uninstalled SDK
# ------------------------------------------------------------------------------------------------------------


def test_a_ruff_config_above_the_tree_never_applies(tmp_path):
    # our own pyproject.toml ([tool.ruff] line-length 110) sat above the exported trees once: ruff and
    # migrate-roots look upwards past the repository root
    write(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 200\n"})
    tree = write(tmp_path / "tree", {"src/m.py": LONG})
    assert lint.configs_above(tree) == [str((tmp_path / "pyproject.toml").resolve())]
    assert lint.ruff_config(tree, "src")["config"] is None
    got = lint.run_ruff(tree, ["src"], tmp_path / "logs", dict(os.environ), "before")
    assert [x["code"] for x in got["findings"]] == ["E501"]  # ruff's default 88, not the 200 above


def test_layout_options(tmp_path):
    write(
        tmp_path,
        {
            "__init__.py": "",
            "pkg/__init__.py": "",
            "pkg/skills/graph-retrieval/__init__.py": "",
            "src/app/__init__.py": "",
        },
    )
    options, base = lint.layout_options(tmp_path, "pkg")
    assert options == ["--explicit-package-bases", "--exclude", r"(^|/)graph\-retrieval/"]
    assert base == str(tmp_path.resolve())
    assert lint.layout_options(tmp_path, "src") == (
        ["--explicit-package-bases"],
        str((tmp_path / "src").resolve()),
    )


def test_run_mypy_layout_fallback(tmp_path):
    # a stray __init__.py at the repository root, exported into a folder named `tree`: every module twice
    tree = write(
        tmp_path / "tree",
        {
            "__init__.py": "",
            "pkg/__init__.py": "",
            "pkg/m.py": "def f() -> int:\n    return 'x'\n",
            "pkg/n.py": "from pkg.m import f\n",  # an absolute import: the module found as pkg.m too
        },
    )
    got = lint.run_mypy(tree, ["pkg"], tmp_path / "scratch", tmp_path / "logs", dict(os.environ), "before")
    (fallback,) = got["fallback"]
    assert fallback["kind"] == "layout" and "found twice" in fallback["reason"]
    assert got["status"] == "ok"
    assert [(x["file"], x["code"]) for x in got["findings"]] == [("pkg/m.py", "return-value")]


def test_unresolved_sdk_imports_are_listed_not_counted():
    sdk = f(
        "src/p/_mcp_roots_compat.py",
        52,
        "import-not-found",
        'Cannot find implementation or library stub for module named "mcp.types"',
    )
    fast = f(
        "src/p/server.py",
        3,
        "import-not-found",
        'Cannot find implementation or library stub for module named "fastmcp"',
    )
    other = f(
        "src/p/server.py",
        4,
        "import-not-found",
        'Cannot find implementation or library stub for module named "mcpx"',
    )
    assert [lint.unresolved_sdk(x) for x in (sdk, fast, other)] == [True, True, False]
    ruff = {"status": "ok", "findings": [], "fallback": []}
    before = {"ruff": ruff, "mypy": {"status": "ok", "findings": [], "fallback": []}}
    after = {"ruff": ruff, "mypy": {"status": "ok", "findings": [sdk, fast, other], "fallback": []}}
    got = lint.compare_sides(before, after, sdk_missing=True)
    assert got["mypy"]["new"] == [other] and got["mypy"]["unresolved_sdk"] == [sdk, fast]
    assert lint.compare_sides(before, after)["mypy"]["new"] == [
        sdk,
        fast,
        other,
    ]  # the SDK installed: all count
