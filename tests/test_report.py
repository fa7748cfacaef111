"""`migrate-roots report`: every format, the committed JSON Schema, SARIF 2.1.0 validity, baselines."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from migrate_roots.cli import app
from migrate_roots.report import schema as report_schema
from tests import helpers

DATA = Path(__file__).parent / "data"
SARIF_SCHEMA = DATA / "sarif-schema-2.1.0.json"

SERVER = textwrap.dedent(
    """\
    import logging

    from mcp.server.fastmcp import Context, FastMCP

    logger = logging.getLogger(__name__)
    mcp = FastMCP("files")


    @mcp.tool()
    async def where(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        logger.info("stdlib logging: never reported")
        await ctx.info("found roots")
        return str(result.roots[0].uri)


    @mcp.tool()
    async def summarize(text: str, ctx: Context) -> str:
        reply = await ctx.session.create_message(messages=[], max_tokens=10)
        return str(reply)


    async def on_ready(ctx: Context):
        await ctx.session.list_roots()
    """
)


def make_project(tmp_path: Path, server: str = SERVER) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(server)
    return root


def invoke(root: Path, *args: str):
    old = os.getcwd()
    os.chdir(root)
    try:
        # MR2xx (listChanged wiring, dead helpers) belong to another rule family: kept out of these fixtures.
        return CliRunner().invoke(app, ["report", ".", "--no-progress", "--ignore", "MR2", *args])
    finally:
        os.chdir(old)


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def report_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(report_schema.SCHEMA_PATH.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def load_report(text: str) -> dict:
    """Every JSON report a test sees goes through here: it must validate against the committed schema."""
    doc = json.loads(text)
    report_validator().validate(doc)
    return doc


# --- the schema ------------------------------------------------------------------------------------------


def test_committed_schema_is_generated_from_the_models():
    assert report_schema.SCHEMA_PATH.read_text() == report_schema.dumps(), (
        "migrate_roots/schemas/report-v1.json is stale: run `python -m migrate_roots.report.schema`"
    )


def test_schema_is_versioned_and_strict_about_version():
    schema = json.loads(report_schema.SCHEMA_PATH.read_text())
    assert schema["$id"].endswith(":v1")
    with pytest.raises(jsonschema.ValidationError):
        report_validator().validate({"schema_version": "2", "tool_version": "x"})


# --- content ---------------------------------------------------------------------------------------------


def test_json_report_content(tmp_path):
    root = make_project(tmp_path)
    before = snapshot(root)
    result = invoke(root, "--format", "json")
    assert result.exit_code == 0, result.output
    assert snapshot(root) == before, "report must write nothing"
    doc = load_report(result.stdout)
    by_code = {}
    for f in doc["findings"]:
        by_code.setdefault(f["code"], []).append(f)
    assert by_code["MR101"][0]["action"] == "rewritten"
    assert by_code["MR101"][0]["tool"] == "where"
    assert "`root`" in by_code["MR101"][0]["todo"]
    assert by_code["MR103"][0]["action"] == "marked"
    assert "# migrate-roots: MR103" in by_code["MR103"][0]["todo"]
    assert by_code["MR401"][0]["severity"] == "broken"
    assert by_code["MR501"][0]["severity"] == "deprecated"
    assert [f["line"] for f in by_code["MR501"]] == [13]  # logger.info on line 12 is not reported
    assert doc["tools"] == [
        {
            "tool": "where",
            "path": "pkg/server.py",
            "line": doc["tools"][0]["line"],
            "parameter": "root",
            "shape": "single",
            "reused_existing": False,
            "legacy_fallback": True,
        }
    ]
    totals = doc["totals"]
    assert totals["files_changed"] == 2  # server.py and the new compatibility module
    assert totals["tools_changed"] == 1
    assert totals["findings"] == len(doc["findings"]) == 4
    assert totals["by_action"] == {"marked": 1, "reported": 2, "rewritten": 1}
    diffs = {f["path"]: f["diff"] for f in doc["files"] if f["diff"]}
    assert any("+async def where(ctx: Context, root:" in d.replace("+    ", "+") for d in diffs.values())


def test_text_report(tmp_path):
    result = invoke(make_project(tmp_path))
    assert result.exit_code == 0
    out = result.stdout
    assert "Tools that take a new argument:" in out
    assert re.search(
        r"where  pkg/server.py:\d+  `root` \(new single parameter\); legacy roots fallback: kept", out
    )
    assert "pkg/server.py:11:20: MR101 [broken, apply would rewrite]" in out
    assert "to do: Resolve the `# migrate-roots: MR103`" in out
    assert out.rstrip().splitlines()[-1].startswith("Totals: 4 findings (3 broken, 1 deprecated);")


def test_markdown_report(tmp_path):
    result = invoke(make_project(tmp_path), "--format", "markdown")
    assert result.exit_code == 0
    md = result.stdout
    assert md.startswith("## migrate-roots")
    assert re.search(r"\| `where` \| `pkg/server.py:\d+` \| `root` \(new\) \| single \| kept \|", md)
    assert "### What `apply` rewrites (1)" in md
    assert "### Left for a person (2)" in md
    assert "### Deprecated, still working (1)" in md
    assert "<details><summary>" in md and "```diff" in md
    for line in md.splitlines():
        if line.startswith("| `pkg"):
            assert line.count(" | ") == 6, line  # no stray pipes break the table


def test_github_annotations(tmp_path):
    result = invoke(make_project(tmp_path), "--format", "github")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("::error file=pkg/server.py,line=11,col=20,title=MR101 roots-session-call::")
    assert any(line.startswith("::warning file=pkg/server.py,line=13,") for line in lines)
    assert lines[-1].startswith("::notice title=migrate-roots::4 findings")
    for line in lines[:-1]:
        command, _, message = line[2:].partition("::")
        level, _, props = command.partition(" ")
        assert level in ("error", "warning", "notice")
        assert [p.split("=", 1)[0] for p in props.split(",")] == ["file", "line", "col", "title"], line
        assert message and "\n" not in message


@pytest.mark.parametrize("output_format", ["text", "markdown", "github"])
def test_report_says_what_apply_would_do(tmp_path, output_format):
    """`report` writes nothing: no format labels a finding as done (`[rewritten]`, `[marked]`)."""
    result = invoke(make_project(tmp_path), "--format", output_format)
    assert result.exit_code == 0
    out = result.stdout
    assert "apply would rewrite" in out and "apply would mark" in out
    for done in ("[rewritten]", "[marked]", "rewritten by", "apply rewrites", "apply marks", "| marked "):
        assert done not in out, done
    assert not list(tmp_path.rglob("_mcp_roots_compat.py"))  # and indeed nothing was written


def test_github_escaping():
    from migrate_roots.report.github import escape_data, escape_property

    assert escape_data("50% a\nb\r") == "50%25 a%0Ab%0D"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"


def test_sarif_validates_against_the_official_schema(tmp_path):
    result = invoke(make_project(tmp_path), "--format", "sarif")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    schema = json.loads(SARIF_SCHEMA.read_text())
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, errors[0]
    run = doc["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == {"MR101", "MR103", "MR401", "MR501"}
    first = run["results"][0]
    assert first["ruleId"] == "MR101" and first["level"] == "error"
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "pkg/server.py",
        "uriBaseId": "%SRCROOT%",
    }
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 11, "startColumn": 20}
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels["MR501"] == "warning"


def test_sarif_schema_rejects_a_broken_log():
    schema = json.loads(SARIF_SCHEMA.read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "2.1.0", "runs": [{"results": []}]}, schema)  # a run needs a tool


def test_output_file_and_clean_project(tmp_path):
    root = make_project(tmp_path, "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n")
    result = invoke(root, "--format", "json", "--output", "out/report.json")
    assert result.exit_code == 0
    assert result.stdout == ""
    doc = load_report((root / "out" / "report.json").read_text())
    assert doc["findings"] == [] and doc["totals"]["findings"] == 0


def test_fail_on(tmp_path):
    root = make_project(tmp_path)
    assert invoke(root, "--format", "json").exit_code == 0
    assert invoke(root, "--format", "json", "--fail-on", "changes").exit_code == 1
    assert invoke(root, "--format", "json", "--fail-on", "findings").exit_code == 1
    clean = make_project(tmp_path / "clean", "x = 1\n")
    assert invoke(clean, "--fail-on", "findings").exit_code == 0


# --- baselines -------------------------------------------------------------------------------------------


def test_baseline_reports_only_new_findings(tmp_path):
    root = make_project(tmp_path)
    result = invoke(root, "--format", "json", "--write-baseline", "baseline.json")
    assert result.exit_code == 0
    assert len(load_report(result.stdout)["findings"]) == 4
    stored = json.loads((root / "baseline.json").read_text())
    assert stored["format"] == "migrate-roots-baseline" and len(stored["findings"]) == 4

    again = load_report(invoke(root, "--format", "json", "--baseline", "baseline.json").stdout)
    assert again["findings"] == []
    assert again["totals"]["baselined"] == 4 and again["baseline"] == "baseline.json"

    # Unrelated edits move every line: nothing comes back.
    server = root / "pkg" / "server.py"
    text = server.read_text()
    server.write_text(
        '"""A docstring added later."""\n\nimport os\n\n'
        + text.replace("    return str(reply)", "    x = 1\n    return str(reply)")
    )
    moved = load_report(invoke(root, "--format", "json", "--baseline", "baseline.json").stdout)
    assert moved["findings"] == [], moved["findings"]

    # A new site with the same code and message is new, even though an identical one is baselined.
    server.write_text(
        server.read_text() + '\n\nasync def later(ctx: Context):\n    await ctx.info("found roots")\n'
    )
    new = load_report(invoke(root, "--format", "json", "--baseline", "baseline.json").stdout)
    last = server.read_text().splitlines().index('    await ctx.info("found roots")', 20) + 1
    assert [(f["code"], f["line"]) for f in new["findings"]] == [("MR501", last)]
    assert new["totals"]["findings"] == 1 and new["totals"]["baselined"] == 4

    text_out = invoke(root, "--baseline", "baseline.json").stdout
    assert "4 known findings left out (baseline baseline.json)" in text_out


def test_baseline_duplicate_sites_are_counted(tmp_path):
    body = 'from mcp.server.fastmcp import Context\n\nasync def f(ctx: Context):\n    await ctx.info("x")\n'
    root = make_project(tmp_path, body)
    invoke(root, "--write-baseline", "b.json")
    (root / "pkg" / "server.py").write_text(body + '    await ctx.info("x")\n')
    doc = load_report(invoke(root, "--format", "json", "--baseline", "b.json").stdout)
    assert len(doc["findings"]) == 1 and doc["totals"]["baselined"] == 1


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "cannot read baseline"),
        ("{nope", "invalid JSON"),
        ('{"format": "other"}', "not a migrate-roots baseline"),
    ],
)
def test_bad_baseline_is_usage_error(tmp_path, content, message):
    root = make_project(tmp_path)
    if content is not None:
        (root / "b.json").write_text(content)
    result = invoke(root, "--baseline", "b.json")
    assert result.exit_code == 2
    assert message in result.output


def test_report_help_lists_formats():
    result = CliRunner().invoke(app, ["report", "--help"])
    assert result.exit_code == 0
    for name in ("text", "markdown", "json", "sarif", "github", "--baseline", "--write-baseline", "--output"):
        assert name in result.output


def test_awkward_paths_and_unparsable_files_stay_valid(tmp_path):
    root = make_project(tmp_path)
    (root / "pkg" / "my server, v2 100%.py").write_text(
        "from mcp.server.fastmcp import Context\n\nasync def f(ctx: Context):\n    await ctx.info('x')\n"
    )
    (root / "pkg" / "ünïcode.py").write_bytes(b"def broken(:\n    mcp.list_roots\n")
    result = invoke(root, "--format", "sarif")
    assert result.exit_code == 3, result.output  # one file could not be parsed: reported, the rest processed
    doc = json.loads(result.stdout)
    schema = json.loads(SARIF_SCHEMA.read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert not list(validator.iter_errors(doc))
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]
    }
    assert "pkg/my%20server%2C%20v2%20100%25.py" in uris and "pkg/%C3%BCn%C3%AFcode.py" in uris
    levels = {r["ruleId"]: r["level"] for r in doc["runs"][0]["results"]}
    assert levels["MR903"] == "error"

    report = load_report(invoke(root, "--format", "json").stdout)
    assert report["totals"]["files_failed"] == 1
    failed = [f for f in report["findings"] if f["code"] == "MR903"]
    assert failed and failed[0]["severity"] == "error" and "valid Python" in failed[0]["todo"]

    annotations = invoke(root, "--format", "github").stdout
    assert "file=pkg/my server%2C v2 100%25.py," in annotations


def test_json_report_of_a_bound_says_to_set_the_variable(tmp_path):
    """MR110 adds no argument: its todo is the variable, and no tool is listed as taking one."""
    doc = load_report(invoke(make_project(tmp_path, helpers.BOUND_SERVER), "--format", "json").stdout)
    (bound,) = [f for f in doc["findings"] if f["code"] == "MR110"]
    assert bound["action"] == "rewritten" and bound["tool"] == "view"
    assert (
        "MCP_ROOTS_ALLOWED_PATHS" in bound["message"]
        and "set the variable the message names" in bound["todo"]
    )
    assert doc["tools"] == []
