"""`migrate-roots guide`: a per-project upgrade guide in Markdown, from migrate_roots/templates/guide.md (string.Template)."""

from __future__ import annotations

import os
from collections import defaultdict
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Any

from migrate_roots.model import MigrationReport, ReportFinding
from migrate_roots.report.markdown import cell


def _project_name(paths: list[str]) -> str:
    first = Path(paths[0]).resolve() if paths else Path.cwd()
    folder = first if first.is_dir() else first.parent
    return f"`{folder.name or folder}`"


def _needs_person(f: ReportFinding) -> bool:
    """A marker `apply` leaves in the code (whatever its severity: a kept list_changed handler, a roots cache),
    or a broken site it does not rewrite (sweep H, r06: the guide said "nothing" while markers remained)."""
    return f.action.value == "marked" or (
        f.action.value != "rewritten" and f.severity.value in ("broken", "error")
    )


def _still_working(report: MigrationReport) -> list[ReportFinding]:
    return [
        f
        for f in report.findings
        if f.action.value != "rewritten"
        and f.severity.value in ("deprecated", "info")
        and not _needs_person(f)
    ]


# What each family of codes is about, for the line that counts what still works.
_FAMILIES = {"MR2": "roots wiring", "MR3": "client-side roots", "MR4": "sampling", "MR5": "logging"}


def _families(found: list[ReportFinding]) -> str:
    names = sorted({_FAMILIES.get(f.code[:3], "other") for f in found}, key=list(_FAMILIES.values()).index)
    return " or ".join(names) if names else "sampling or logging"


def _summary(report: MigrationReport) -> str:
    t = report.totals
    rewritten = t.by_action.get("rewritten", 0)
    left = sum(1 for f in report.findings if _needs_person(f))
    still = _still_working(report)
    deprecated = len(still)
    parts = [
        f"For this project, `migrate-roots apply` rewrites {rewritten} {'site' if rewritten == 1 else 'sites'} "
        f"and changes {t.files_changed} {'file' if t.files_changed == 1 else 'files'}"
        + (" (counting the small compatibility module it adds)" if rewritten else "")
        + f", and {t.tools_changed} "
        f"{'tool takes' if t.tools_changed == 1 else 'tools take'} a new argument.",
        f"{left} {'place needs' if left == 1 else 'places need'} a person (listed below), and "
        f"{deprecated} {'use' if deprecated == 1 else 'uses'} of deprecated {_families(still)} still "
        f"{'works' if deprecated == 1 else 'work'} for now.",
    ]
    if t.files_failed:
        parts.append(f"{t.files_failed} files could not be read or parsed; fix them and run the guide again.")
    return " ".join(parts)


def _tools(report: MigrationReport) -> str:
    if not report.tools:
        return "No tool needs a new argument: none of them reads roots (or every site is left for a person below)."
    rows = [
        "| tool | defined at | argument | what to pass | legacy clients |",
        "| --- | --- | --- | --- | --- |",
    ]
    for tool in report.tools:
        what = (
            "absolute paths of directories (a list; the first is the main one)"
            if tool.shape == "list"
            else "absolute path of a directory"
        )
        arg = f"`{tool.parameter}`" + (
            " (it already existed)" if tool.reused_existing else " (new, optional)"
        )
        legacy = "may omit it: their roots are still asked for" if tool.legacy_fallback else "must pass it"
        rows.append(f"| `{tool.tool}` | `{tool.path}:{tool.line}` | {arg} | {what} | {legacy} |")
    return "\n".join(rows)


def _clients(report: MigrationReport, settings: Any) -> str:
    tool = report.tools[0] if report.tools else None
    name = tool.tool if tool else "your_tool"
    param = tool.parameter if tool else settings.param_name
    value: object = ["/home/me/project"] if tool is not None and tool.shape == "list" else "/home/me/project"
    import json

    call = json.dumps(
        {"method": "tools/call", "params": {"name": name, "arguments": {param: value}}}, indent=2
    )
    return "\n".join(
        [
            "- The argument is declared in each tool's `inputSchema` with a description, so the model driving the "
            "client sees it and fills it, like any other argument. A client may also set it itself, for example "
            "to the folder the user has open:",
            "",
            "  ```json",
            *("  " + line for line in call.splitlines()),
            "  ```",
            "- An absolute path or a `file://` URI is accepted (`file:///home/me/my%20project`); a relative path is "
            "refused.",
            "- Clients on the old protocol (before 2026-07-28) that declared roots may leave it out: the server then "
            f"asks them for their roots as before (in `{settings.shim_module}.py`), so nothing breaks for them.",
            "- Any other client that leaves it out gets a tool error that names the argument, so the model can retry "
            "with it.",
        ]
    )


def _manual(report: MigrationReport) -> str:
    items = [f for f in report.findings if _needs_person(f)]
    if not items:
        return "Nothing in the roots migration: every roots site is rewritten by `migrate-roots apply`."
    out = [
        f"{'This place was' if len(items) == 1 else f'These {len(items)} places were'} not rewritten, because a safe "
        "rewrite needs a decision the tool cannot make. After `apply`, each marked one carries a "
        '`# migrate-roots: CODE: ...` comment above it; `grep -rn "# migrate-roots:" .` lists them.',
        "",
        "| where | rule | why | what to do |",
        "| --- | --- | --- | --- |",
    ]
    out += [
        f"| `{f.path}:{f.line}` | `{f.code}` {cell(f.name)} | {cell(f.message)} | {cell(f.todo)} |"
        for f in items
    ]
    return "\n".join(out)


def _bounded(report: MigrationReport, settings: Any) -> str:
    """The reads whose roots bound a tool (MR110): the variable is their only bound on 2026-07-28 requests
    (a paragraph that starts with its own blank line, or nothing)."""
    items = [f for f in report.findings if f.code == "MR110" and f.action.value == "rewritten"]
    if not items:
        return ""
    env = settings.allowlist_env
    out = [
        "",
        "",
        f"Where the roots *bounded* what a tool may touch (a path must lie inside one of them), the tool takes no "
        f"argument: the caller must not choose its own bound. Those reads now call `allowed_roots_compat`: a "
        f"legacy client's own roots stay the bound, and a 2026-07-28 request is bound by `{env}`. Without the "
        "variable, a 2026-07-28 request gets what it got before the migration (the old call fails there, and "
        "your server's own fallback, such as the working directory, applies). Set it for these tools:",
        "",
        "| where | tool |",
        "| --- | --- |",
    ]
    out += [f"| `{f.path}:{f.line}` | {f'`{f.tool}`' if f.tool else '-'} |" for f in items]
    return "\n".join(out)


def _deprecated(report: MigrationReport) -> str:
    items = _still_working(report)
    if not items:
        return "No use of deprecated sampling or logging was found."
    by_code: dict[str, list[ReportFinding]] = defaultdict(list)
    for f in items:
        by_code[f.code].append(f)
    out = [
        "### Still working, but deprecated",
        "",
        "These keep working until a protocol revision on or after 2027-07-28; plan their replacement now.",
        "",
    ]
    for code, found in sorted(by_code.items()):
        where = ", ".join(f"`{f.path}:{f.line}`" for f in found[:8]) + (
            f" and {len(found) - 8} more" if len(found) > 8 else ""
        )
        out.append(f"- **{code} {found[0].name}** ({len(found)}): {where}. {found[0].message}.")
    return "\n".join(out)


def _verify(paths: list[str], settings: Any) -> str:
    where = " ".join(paths) or "."
    return "\n".join(
        [
            "```sh",
            f"migrate-roots apply {where}            # make the changes; review them with `git diff`",
            f"migrate-roots apply {where} --check    # exits 0 once nothing is left to rewrite",
            f'grep -rn "# migrate-roots:" {where}    # the places left for a person: none should remain',
            f"migrate-roots report {where} --format markdown   # what is left, for a pull request",
            "python -m pytest                     # your own tests",
            "```",
            "",
            "Then prove it on the running server, with the MCP client of the server's own environment, in both",
            "eras (from the project root; its `.venv` python is used, else `--python PY`):",
            "",
            "```sh",
            "migrate-roots verify -- python -m your_server   # your server's own start command after `--`",
            "```",
            "",
            "It starts the server once per session (a legacy client that provides roots, one that does not, and a",
            "2026-07-28 client where your SDK has that era), calls each migrated tool with "
            f"`{settings.param_name}` set to a fresh",
            "folder and without it, and exits 0 only when every check holds: with roots, the same answer as with",
            f"the argument; without roots, a tool error naming `{settings.param_name}`. `--call-all` calls the "
            "other tools too,",
            "`--seed DIR` fills each folder, `--format json` is for CI.",
        ]
    )


def render_guide(report: MigrationReport, settings: Any, paths: list[str]) -> str:
    template = Template((files("migrate_roots.templates") / "guide.md").read_text(encoding="utf-8"))
    from migrate_roots import __version__

    return template.substitute(
        project=_project_name(paths),
        paths=" ".join(paths) or ".",
        tool_version=__version__,
        summary=_summary(report),
        tools=_tools(report),
        clients=_clients(report, settings),
        allowlist_env=settings.allowlist_env,
        bounded=_bounded(report, settings),
        pathsep=os.pathsep,
        shim_module=settings.shim_module,
        manual=_manual(report),
        deprecated=_deprecated(report),
        verify=_verify(paths, settings),
    )
