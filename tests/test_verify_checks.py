"""`verify` without an SDK: finding the path argument, arguments from a schema, the checks, the output, usage.

The end-to-end runs against real servers are in test_verify_sdk.py; here the client's records are written
out by hand, to pin each rule of migrate_roots/verify/checks.py on both sides of its line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from migrate_roots.cli import app
from migrate_roots.codemods.roots_call import DESCRIPTION_MANY, DESCRIPTION_ONE
from migrate_roots.verify.checks import evaluate, names_argument, normalize
from migrate_roots.verify.model import SESSIONS, Call, SessionInfo, SessionRun, ToolInfo, VerifyResult
from migrate_roots.verify.plan import (
    MARKER,
    PlanError,
    ToolPlan,
    example_arguments,
    parse_tool_option,
    plan_tool,
)
from migrate_roots.verify.render import render_json, render_markdown, render_rich, render_text
from migrate_roots.verify.runner import default_python

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "migrate_roots" / "schemas" / "verify-v1.json").read_text()
)
WS = "/tmp/ws one"


def root_prop(description: str = DESCRIPTION_ONE, array: bool = False) -> dict:
    inner = {"type": "array", "items": {"type": "string"}} if array else {"type": "string"}
    return {"anyOf": [inner, {"type": "null"}], "default": None, "description": description}


def schema(**props: dict) -> dict:
    return {"type": "object", "properties": props}


# ---------------------------------------------------------------------------------------------- plan


def test_no_marker_no_path_argument():
    plan = plan_tool("echo", schema(text={"type": "string"}), {}, None)
    assert plan.path_argument is None and plan.found_by is None


def test_marker_both_descriptions_and_a_reworded_start():
    assert DESCRIPTION_MANY.endswith(MARKER)
    assert plan_tool("t", schema(root=root_prop()), {}, None).path_argument == "root"
    many = plan_tool("t", schema(roots=root_prop(DESCRIPTION_MANY, array=True)), {}, None)
    assert (many.path_argument, many.shape, many.found_by) == ("roots", "list", "marker")
    reworded = plan_tool("t", schema(project=root_prop("Your checkout. " + MARKER)), {}, None)
    assert reworded.path_argument == "project"


def test_marker_inside_the_non_null_branch():
    prop = {"anyOf": [{"type": "string", "description": DESCRIPTION_ONE}, {"type": "null"}]}
    assert plan_tool("t", schema(root=prop), {}, None).path_argument == "root"


def test_tool_option_names_the_argument_or_finds_it():
    props = schema(folder={"type": "string"}, q={"type": "string"})
    assert plan_tool("t", props, {"t": "folder"}, None).found_by == "option"
    assert plan_tool("t", schema(root={"type": "string"}, q={}), {"t": None}, None).path_argument == "root"
    with pytest.raises(PlanError, match=r"--tool t=ARGUMENT"):
        plan_tool("t", props, {"t": None}, None)
    with pytest.raises(PlanError, match=r"no property 'nope'"):
        plan_tool("t", props, {"t": "nope"}, None)


def test_parse_tool_option():
    assert parse_tool_option(["a", "b=dir"]) == {"a": None, "b": "dir"}
    for bad in ("=x", "a="):
        with pytest.raises(PlanError):
            parse_tool_option([bad])


def test_arguments_from_the_schema_required_only():
    s = {
        "type": "object",
        "properties": {
            "root": root_prop(),
            "name": {"type": "string"},
            "mode": {"enum": ["fast", "slow"]},
            "limit": {"type": "integer", "minimum": 5},
            "when": {"type": "string", "format": "date-time"},
            "code": {"type": "string", "minLength": 3},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "opt": {"type": "string"},
            "item": {"$ref": "#/$defs/Item"},
            "n": {"anyOf": [{"type": "null"}, {"type": "number"}]},
        },
        "required": ["root", "name", "mode", "limit", "when", "code", "flag", "tags", "item", "n"],
        "$defs": {"Item": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]}},
    }
    assert example_arguments(s, skip="root") == {
        "name": "example",
        "mode": "fast",
        "limit": 5,
        "when": "2026-01-01T00:00:00Z",
        "code": "xxx",
        "flag": False,
        "tags": [],
        "item": {"k": "example"},
        "n": 1.0,
    }


def test_args_file_wins_and_the_path_argument_is_ours():
    plan = plan_tool("t", schema(root=root_prop()), {}, {"root": "/elsewhere", "q": 1})
    assert plan.args_from == "file"
    assert plan.with_path(WS) == {"q": 1, "root": WS}
    assert plan.without_path() == {"q": 1}
    many = ToolPlan("t", "roots", "list")
    assert many.with_path(WS) == {"roots": [WS]}


# ---------------------------------------------------------------------------------------------- checks


def names_text(arg: str = "root") -> str:
    return f"This tool needs the `{arg}` argument: ... (SEP-2577)."


def runs(
    with_=None, without_legacy=None, without_noroots=None, without_modern=None, listed=True, modern="ran"
) -> list[SessionRun]:
    out = []
    answers = {
        "legacy-roots": without_legacy or Call({}, False, WS),
        "legacy-noroots": without_noroots or Call({}, True, names_text()),
        "modern": without_modern or Call({}, True, names_text()),
    }
    for sid, *_ in SESSIONS:
        run = SessionRun(sid, workspace=WS)
        if sid == "modern" and modern != "ran":
            run.status, run.reason = modern, "mcp 1.30.0 has no 2026-07-28 era"
        if listed:
            run.tools = {"where": schema(root=root_prop()), "echo": schema()}
        run.calls[("where", "with")] = with_ or Call({"root": WS}, False, WS)
        run.calls[("where", "without")] = answers[sid]
        run.calls[("echo", "call")] = Call({}, False, "hi")
        out.append(run)
    return out


PLANS = [ToolPlan("where", "root", "single", "marker"), ToolPlan("echo")]


def statuses(rows) -> dict[tuple[str, str], list[str]]:
    return {(r.tool, r.check): [c.status for c in r.cells] for r in rows}


def summaries(rows, tool="where", check="without-argument") -> list[str]:
    return next([c.summary for c in r.cells] for r in rows if (r.tool, r.check) == (tool, check))


def test_a_good_migration_passes_everywhere():
    rows = evaluate(PLANS, runs(), call_all=True)
    assert statuses(rows) == {
        ("where", "listed"): ["pass"] * 3,
        ("where", "with-argument"): ["pass"] * 3,
        ("where", "without-argument"): ["pass"] * 3,
        ("echo", "listed"): ["pass"] * 3,
        ("echo", "call"): ["pass"] * 3,
    }
    assert summaries(rows) == ["ok, same answer", "ok, asks for `root`", "ok, asks for `root`"]
    assert rows[2].cells[0].detail == "<workspace>"


def test_other_tools_are_not_called_without_call_all():
    assert ("echo", "call") not in statuses(evaluate(PLANS, runs(), call_all=False))


def test_modern_answer_without_the_argument_fails():
    rows = evaluate(PLANS, runs(without_modern=Call({}, False, "/home/me")), call_all=False)
    assert summaries(rows)[2] == "answered without it"
    assert statuses(rows)[("where", "without-argument")] == ["pass", "pass", "fail"]


def test_a_protocol_error_or_timeout_is_never_the_tool_error():
    raised = Call({}, True, "MCPError: needs the `root` argument", raised="MCPError")
    rows = evaluate(PLANS, runs(without_modern=raised), call_all=False)
    assert summaries(rows)[2] == "protocol error (MCPError)"
    rows = evaluate(PLANS, runs(without_noroots=Call({}, True, "no answer", raised="TimeoutError")), False)
    assert summaries(rows)[1] == "timeout"
    gone = Call({}, True, "MCPError: Connection closed", raised="MCPError")
    assert summaries(evaluate(PLANS, runs(without_modern=gone), False))[2] == "connection lost"


def test_the_error_must_name_the_argument():
    crash = Call({}, True, "Error executing tool where")
    rows = evaluate(PLANS, runs(without_modern=crash), call_all=False)
    assert summaries(rows)[2] == "error does not name `root`"
    assert names_argument("pass `root`", "root") and names_argument("root: missing", "root")
    assert not names_argument("client has no roots", "root") and not names_argument("root_dir", "root")


def test_legacy_with_roots_must_give_the_same_answer():
    rows = evaluate(PLANS, runs(without_legacy=Call({}, False, "/srv/cwd")), call_all=False)
    assert summaries(rows)[0] == "differs from with `root`"
    rows = evaluate(PLANS, runs(without_legacy=Call({}, True, names_text())), call_all=False)
    assert summaries(rows)[0] == "tool error"


def test_the_same_answer_modulo_the_workspace_spelling():
    uri_answer = Call({}, False, "file:///tmp/ws%20one")
    plain_answer = Call({"root": WS}, False, WS)
    rows = evaluate(PLANS, runs(with_=plain_answer, without_legacy=uri_answer), call_all=False)
    assert summaries(rows)[0] == "ok, same answer"
    assert normalize(f"{WS}/a and file:///tmp/ws%20one", WS) == "<workspace>/a and <workspace>"


def test_time_stamps_do_not_make_answers_differ_and_a_difference_is_shown_where_it_is():
    stamped = Call({}, False, '{"at": "2026-12-01T23:49:14.517556+00:00", "root": "/tmp/ws one"}')
    later = Call({"root": WS}, False, '{"at": "2026-12-01T23:49:24.745297+00:00", "root": "/tmp/ws one"}')
    rows = evaluate(PLANS, runs(with_=later, without_legacy=stamped), call_all=False)
    assert summaries(rows)[0] == "ok, same answer"
    other = Call({}, False, '{"at": "2026-12-01T23:49:14Z", "root": "/srv/elsewhere"}')
    rows = evaluate(PLANS, runs(with_=later, without_legacy=other), call_all=False)
    cell = rows[2].cells[0]
    assert cell.summary == "differs from with `root`"
    assert cell.detail == (
        'first difference at character 26: without: \'{"at": "<time>", "root": "/srv/elsewhere"}\' '
        '| with: \'{"at": "<time>", "root": "<workspace>"}\''
    )


def test_with_the_argument_a_tool_error_fails():
    rows = evaluate(PLANS, runs(with_=Call({"root": WS}, True, "Invalid `root` argument")), call_all=False)
    assert statuses(rows)[("where", "with-argument")] == ["fail"] * 3


def test_not_listed_or_argument_gone_from_the_schema():
    rs = runs()
    rs[1].tools = {"echo": schema()}
    rs[2].tools = {"where": schema(q={"type": "string"})}
    rows = evaluate(PLANS, rs, call_all=False)
    listed = next(r for r in rows if (r.tool, r.check) == ("where", "listed"))
    assert [c.summary for c in listed.cells] == ["ok", "not listed", "no `root` in inputSchema"]


def test_skipped_and_failed_sessions():
    assert statuses(evaluate(PLANS, runs(modern="skipped"), False))[("where", "with-argument")] == [
        "pass",
        "pass",
        "skip",
    ]
    assert statuses(evaluate(PLANS, runs(modern="failed"), False))[("where", "listed")][2] == "fail"


# ---------------------------------------------------------------------------------------------- output


def result(rows, exit_code: int, **kw) -> VerifyResult:
    sessions = [SessionInfo(sid, label, era, roots, "ran", None) for sid, era, roots, label in SESSIONS]
    tools = [ToolInfo("where", "root", "single", "marker", True, {}, "schema")]
    return VerifyResult(
        ["python", "-m", "srv"], "/venv/bin/python", {"mcp": "2.3.0", "fastmcp": None}, 30.0, sessions,
        tools, rows, exit_code, **kw,
    )  # fmt: skip


def test_text_table_and_the_failures_spelled_out():
    rows = evaluate(PLANS[:1], runs(without_modern=Call({}, False, f"{WS}/x")), call_all=False)
    text = render_text(result(rows, 1))
    assert "migrate-roots verify: python -m srv" in text
    assert "client: /venv/bin/python (mcp 2.3.0)" in text
    header = next(ln for ln in text.splitlines() if ln.startswith("tool"))
    assert header.split("  ")[0] == "tool" and "legacy + roots" in header and "2026-07-28" in header
    assert "FAIL where / 2026-07-28 / without `root`: answered without it" in text
    assert "expected a tool error naming `root`, got: <workspace>/x" in text
    assert text.rstrip().endswith("9 checks: 8 passed, 0 skipped; 1 failed.")


def test_rich_table_on_a_terminal():
    rows = evaluate(PLANS[:1], runs(), call_all=False)
    out = render_rich(result(rows, 0), width=120)
    assert "\x1b[" in out and ("┃" in out or "│" in out)
    assert "ok, same answer" in out and "every check holds" in out


def test_json_matches_the_schema():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    rows = evaluate(PLANS, runs(modern="skipped"), call_all=True)
    data = json.loads(render_json(result(rows, 0)))
    validator.validate(data)
    assert data["ok"] is True and data["counts"] == {"pass": 10, "fail": 0, "skip": 5}
    broken = json.loads(render_json(result([], 2, error="ConnectionError: closed", stderr_tail="boom")))
    validator.validate(broken)
    assert broken["exit_code"] == 2 and broken["ok"] is False
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**data, "exit_code": 3})


def test_not_started_text_shows_the_stderr_tail():
    text = render_text(
        result([], 2, error="McpError: Connection closed", stderr_tail="Traceback\nKeyError: 'TOKEN'")
    )
    assert "the server did not start: McpError: Connection closed" in text
    assert "  KeyError: 'TOKEN'" in text


# ---------------------------------------------------------------------------------------------- CLI usage

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["verify", *args])


def test_usage_errors_are_one_line_and_exit_2(tmp_path: Path):
    bad = tmp_path / "args.json"
    bad.write_text("[1]")
    cases = [
        ((), "Missing argument"),
        (("--python", str(tmp_path / "nope"), "--", "srv"), "cannot run it"),
        (("--python", sys.executable, "--args", str(bad), "--", "srv"), "expected a JSON object"),
        (("--python", sys.executable, "--tool", "=x", "--", "srv"), "give NAME or NAME=ARGUMENT"),
        (("--python", sys.executable, "--seed", str(bad), "--", "srv"), "not a folder"),
    ]
    for args, message in cases:
        got = invoke(*args)
        assert got.exit_code == 2, (args, got.output)
        assert message in got.output, (args, got.output)


def test_a_python_without_an_sdk_is_a_usage_error():
    got = invoke("--python", sys.executable, "--", sys.executable, "-c", "pass")  # this env has no mcp
    assert got.exit_code == 2, got.output
    assert "no MCP SDK importable by" in got.output and "--python" in got.output


def test_default_python_is_the_project_venv(tmp_path: Path):
    assert default_python(tmp_path) != str(tmp_path / ".venv" / "bin" / "python")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").write_text("")
    assert default_python(tmp_path) == str(tmp_path / ".venv" / "bin" / "python")


def test_markdown_for_a_job_summary_and_back_from_json():
    rows = evaluate(PLANS[:1], runs(without_modern=Call({}, False, "a | b")), call_all=False)
    res = result(rows, 1)
    md = render_markdown(res)
    assert md.startswith("### migrate-roots verify: `python -m srv`")
    assert "| tool | check | legacy + roots | legacy, no roots | 2026-07-28 |" in md
    assert (
        "| `where` | without `root` | ✅ ok, same answer | ✅ ok, asks for `root` | ❌ FAIL: answered without it |"
        in md
    )
    assert "got: a \\| b" in md
    back = VerifyResult.from_json(json.loads(render_json(res)))
    assert back == res
    not_started = render_markdown(result([], 2, error="McpError: Connection closed", stderr_tail="KeyError"))
    assert (
        "**The server did not start**: McpError: Connection closed" in not_started
        and "KeyError" in not_started
    )


def test_the_shipped_client_needs_only_the_standard_library_and_the_sdk():
    import ast

    import migrate_roots.verify as package

    tree = ast.parse((Path(package.__file__).parent / "client.py").read_text())
    imported = {
        (alias.name if isinstance(node, ast.Import) else node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert imported - set(sys.stdlib_module_names) - {"__future__"} == {"mcp", "anyio"}
