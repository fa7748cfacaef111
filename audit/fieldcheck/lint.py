"""Per repository: ruff (I, E501) and mypy on the ``source`` folders before and after the migration.

Each project's own configuration applies. ruff runs from the repository root and finds the project's
``.ruff.toml`` / ``ruff.toml`` / ``pyproject.toml [tool.ruff]`` itself (closest to each file); where the
repository has none, ruff runs ``--isolated`` (no configuration above the repository applies) with
``--line-length`` = the nearest ``[tool.black] line-length``, else ruff's default (88). ``--select I,E501`` replaces the project's rule selection (a
project that ignores E501 is still measured on it; its per-file ignores and ``# noqa`` still apply). A
configuration this ruff rejects (an unknown rule, a removed option) is recorded and the run falls back to
``--isolated --line-length N`` (N from that configuration when readable).

mypy runs from the folder of the project's configuration (``mypy.ini``, ``.mypy.ini``, ``pyproject.toml
[tool.mypy]``, ``setup.cfg [mypy]``, the nearest at or above the source folder), given explicitly; without
one, mypy's defaults plus ``--ignore-missing-imports``. A configuration mypy cannot load (a plugin that is
not installed) is recorded and the run falls back to the defaults; a layout error (a module found twice, a
package folder that is no identifier) runs again with ``layout_options``. Quick mode installs nothing, so
unresolved third-party imports are expected: they are there before and after alike, and only new errors
count; a new unresolved import of the MCP SDK itself (the shim's) is listed apart, not counted
(``compare_sides``). The cache lives in the scratch area, so the run after the migration is incremental.

A new finding is one of the multiset difference after minus before, keyed by (file, code, message) with
line and column numbers ignored and every digit run in the message replaced (``Line too long (95 > 88)``,
``defined on line 12``): the migration moves lines. Both tools are the running Python's (``sys.executable
-m ruff`` / ``-m mypy``, the project's test extras), so before and after use the same versions.
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import tomllib

RUFF_SELECT = "I,E501"
RUFF_DEFAULT_LINE_LENGTH = 88
RUFF_TIMEOUT_S = 120
MYPY_TIMEOUT_S = 300
TIMED_OUT = "[audit] timed out"  # what run.run appends to stderr on a timeout (rc 124)
_DIGITS = re.compile(r"\d+")
RUFF_FILES = (".ruff.toml", "ruff.toml")  # ruff's precedence within one folder, before pyproject.toml


def normalise(message: str) -> str:
    """The message with every run of digits replaced: line lengths and line numbers move with the code."""
    return _DIGITS.sub("N", message)


def finding_key(finding: dict) -> tuple[str, str, str]:
    return (finding["file"], finding["code"] or "", normalise(finding["message"]))


def new_findings(before: list[dict], after: list[dict]) -> list[dict]:
    """Findings of ``after`` not in ``before`` as multisets (each before finding cancels one equal after one)."""
    left = Counter(finding_key(f) for f in before)
    out = []
    for finding in after:
        key = finding_key(finding)
        if left[key]:
            left[key] -= 1
        else:
            out.append(finding)
    return out


# ------------------------------------------------------------------------------------------------------------
# configuration detection
# ------------------------------------------------------------------------------------------------------------


def _toml(path: Path) -> dict | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return None


def _upwards(tree: Path, folder: str) -> list[Path]:
    """``tree/folder`` and each folder above it, up to and including ``tree``."""
    here = (tree / folder).resolve()
    root = tree.resolve()
    out = []
    while True:
        out.append(here)
        if here == root or root not in here.parents:
            return out
        here = here.parent


def _rel(tree: Path, path: Path) -> str:
    return path.resolve().relative_to(tree.resolve()).as_posix()


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def ruff_config(tree: Path, folder: str) -> dict:
    """The ruff configuration that reaches ``folder`` and the ``--line-length`` to pass (None: the config's).

    ``config``: the file, relative to ``tree``, or None; ``config_line_length``: its ``line-length`` when it
    can be read (for the ``--isolated`` fallback); ``line_length_from``: ``ruff``, ``black`` or ``default``;
    ``black``: the nearest pyproject.toml with a ``[tool.black] line-length``.
    """
    out: dict[str, Any] = {"config": None, "line_length": None, "config_line_length": None, "black": None}
    for here in _upwards(tree, folder):
        table: Any = None
        for name in RUFF_FILES:
            if (here / name).is_file():
                out["config"], table = _rel(tree, here / name), _toml(here / name) or {}
                break
        tool = (
            ((_toml(here / "pyproject.toml") or {}).get("tool") or {})
            if (here / "pyproject.toml").is_file()
            else {}
        )
        if out["config"] is None and "ruff" in tool:
            out["config"], table = _rel(tree, here / "pyproject.toml"), tool["ruff"]
        if out["config"] is not None:
            out["config_line_length"] = _int(table.get("line-length")) if isinstance(table, dict) else None
            return {**out, "line_length": None, "line_length_from": "ruff"}
        black = _int(tool["black"].get("line-length")) if isinstance(tool.get("black"), dict) else None
        if out["black"] is None and black is not None:
            out["black"], out["line_length"] = _rel(tree, here / "pyproject.toml"), black
    return {**out, "line_length_from": "black" if out["black"] else "default"}


def _has_section(path: Path, section: str) -> bool:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, configparser.Error):
        text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        return re.search(rf"^\[{re.escape(section)}\]", text, re.M) is not None
    return parser.has_section(section)


def mypy_config(tree: Path, folder: str) -> str | None:
    """The mypy configuration file that applies to ``folder`` (relative to ``tree``), or None.

    mypy's order within one folder (mypy.ini, .mypy.ini, pyproject.toml with [tool.mypy], setup.cfg with
    [mypy]), the nearest folder at or above ``folder`` first, up to the repository root.
    """
    for here in _upwards(tree, folder):
        for name in ("mypy.ini", ".mypy.ini"):
            if (here / name).is_file():
                return _rel(tree, here / name)
        pyproject = here / "pyproject.toml"
        if pyproject.is_file() and "mypy" in ((_toml(pyproject) or {}).get("tool") or {}):
            return _rel(tree, pyproject)
        setup_cfg = here / "setup.cfg"
        if setup_cfg.is_file() and _has_section(setup_cfg, "mypy"):
            return _rel(tree, setup_cfg)
    return None


def configs_above(tree: Path) -> list[str]:
    """Configuration files above the repository root that ruff, black or migrate-roots would look upwards to
    (a ``pyproject.toml`` with ``[tool.ruff]`` or ``[tool.black]``, ``ruff.toml``, ``.ruff.toml``): there
    should be none, or the measured style is not the project's (the field's scratch area is kept outside
    this checkout for that reason: our own pyproject.toml has a ``[tool.ruff]``)."""
    found = []
    for here in tree.resolve().parents:
        for name in RUFF_FILES:
            if (here / name).is_file():
                found.append(str(here / name))
        tool = (
            ((_toml(here / "pyproject.toml") or {}).get("tool") or {})
            if (here / "pyproject.toml").is_file()
            else {}
        )
        if "ruff" in tool or "black" in tool:
            found.append(str(here / "pyproject.toml"))
    return found


# ------------------------------------------------------------------------------------------------------------
# running the tools
# ------------------------------------------------------------------------------------------------------------


def _run(cmd: list[str], log: Path, cwd: Path, env: dict, timeout: float) -> subprocess.CompletedProcess:
    import run as audit  # audit/run.py, on sys.path when the field check runs (not needed by the tests)

    return audit.run(cmd, log, cwd=cwd, env=env, timeout=timeout)


def _timed_out(proc: subprocess.CompletedProcess) -> bool:
    return proc.returncode == 124 and TIMED_OUT in (proc.stderr or "")


def parse_ruff(stdout: str, tree: Path) -> list[dict] | None:
    try:
        items = json.loads(stdout)
    except json.JSONDecodeError:
        return None
    out = []
    for item in items:
        path = Path(item["filename"])
        file = _rel(tree, path) if path.is_absolute() else path.as_posix()
        line = (item.get("location") or {}).get("row")
        out.append({"file": file, "line": line, "code": item.get("code") or "", "message": item["message"]})
    return out


def run_ruff(tree: Path, sources: list[str], logs: Path, env: dict, label: str) -> dict:
    """ruff I/E501 on the source folders, from the repository root; one run per source folder."""
    started = time.monotonic()
    out: dict[str, Any] = {"status": "ok", "configs": [], "findings": [], "fallback": []}
    for i, folder in enumerate(sources):
        cfg = ruff_config(tree, folder)
        out["configs"].append({"source": folder, **cfg})
        base = [sys.executable, "-m", "ruff", "check", "--no-cache", "--exit-zero", "--output-format", "json"]
        base += ["--select", RUFF_SELECT]
        # no configuration in the repository: ruff's defaults (or black's line length), never a configuration
        # above the repository (ruff looks upwards past it: ours, when the scratch area sits in this checkout)
        length = (
            []
            if cfg["config"]
            else ["--isolated", "--line-length", str(cfg["line_length"] or RUFF_DEFAULT_LINE_LENGTH)]
        )
        proc = _run([*base, *length, folder], logs / f"ruff-{label}-{i}.log", tree, env, RUFF_TIMEOUT_S)
        found = None if _timed_out(proc) else parse_ruff(proc.stdout, tree)
        if found is None and not _timed_out(proc):
            # the project's configuration is one this ruff rejects: recorded, then ruff without it
            n = cfg["config_line_length"] or cfg["line_length"] or RUFF_DEFAULT_LINE_LENGTH
            reason = (proc.stderr or "").strip().splitlines()
            out["fallback"].append({"source": folder, "reason": " / ".join(reason)[:400], "line_length": n})
            proc = _run(
                [*base, "--isolated", "--line-length", str(n), folder],
                logs / f"ruff-{label}-{i}-isolated.log",
                tree,
                env,
                RUFF_TIMEOUT_S,
            )
            found = None if _timed_out(proc) else parse_ruff(proc.stdout, tree)
        if found is None:
            out["status"] = "timeout" if _timed_out(proc) else "error"
            out["error"] = (proc.stderr or "").strip()[-400:]
            break
        out["findings"].extend(found)
    out["seconds"] = round(time.monotonic() - started, 1)
    return out


def parse_mypy(stdout: str, tree: Path, cwd: Path) -> tuple[list[dict], list[str]]:
    """Errors (notes dropped), paths made relative to ``tree``; and the lines that were not JSON."""
    errors, other = [], []
    for raw in stdout.splitlines():
        try:
            item = json.loads(raw)
        except json.JSONDecodeError:
            if raw.strip():
                other.append(raw)
            continue
        if not isinstance(item, dict) or item.get("severity") != "error":
            continue
        path = Path(item.get("file") or "")
        path = path if path.is_absolute() else cwd / path
        try:
            file = _rel(tree, Path(os.path.normpath(path)))
        except ValueError:
            file = str(item.get("file"))
        errors.append(
            {
                "file": file,
                "line": item.get("line"),
                "code": item.get("code") or "",
                "message": item["message"],
            }
        )
    return errors, other


def _config_failed(errors: list[dict], config: str | None, stderr: str) -> bool:
    """mypy stopped at the configuration itself (a plugin it cannot import, a config it cannot parse)."""
    if config and any(e["file"] == config for e in errors):
        return True
    return any(e["message"].startswith("Error importing plugin") for e in errors) or (
        not errors and bool(config) and "config" in stderr.lower()
    )


#: blocking errors of how files map to modules: mypy checks nothing. Often our export's doing (the tree is
#: exported into a folder named ``tree``, a valid package name, so a stray ``__init__.py`` at the repository
#: root makes every module found twice), else the project's (a package folder named ``graph-retrieval``).
LAYOUT_ERRORS = ("Source file found twice", "Duplicate module named", "is not a valid Python package name")


def _layout_failed(errors: list[dict], stderr: str) -> bool:
    return any(m in e["message"] for e in errors for m in LAYOUT_ERRORS) or any(
        m in stderr for m in LAYOUT_ERRORS
    )


def layout_options(tree: Path, folder: str) -> tuple[list[str], str]:
    """mypy options that map ``folder``'s files to modules without crawling up: explicit package bases (the
    folder when it is not a package itself, else its parent) and an exclude for each folder holding an
    ``__init__.py`` whose name is not an identifier (no module can be named after it). And the MYPYPATH."""
    here = tree / folder
    base = here.parent if (here / "__init__.py").is_file() and here.resolve() != tree.resolve() else here
    options = ["--explicit-package-bases"]
    bad = sorted({p.parent.name for p in here.rglob("__init__.py") if not p.parent.name.isidentifier()})
    for name in bad:
        options += ["--exclude", f"(^|/){re.escape(name)}/"]
    return options, str(base.resolve())


def _mypy_once(
    tree: Path,
    folder: str,
    config: str | None,
    cache: Path,
    logs: Path,
    env: dict,
    log_name: str,
    python: str | None,
    layout: bool = False,
) -> tuple[subprocess.CompletedProcess, Path]:
    cwd = (tree / config).parent if config else tree
    target = os.path.relpath(tree / folder, cwd)
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(tree / config) if config else ""]
    cmd += ["-O", "json", "--no-error-summary", "--hide-error-context", "--no-pretty", "--no-color-output"]
    cmd += ["--hide-absolute-path", "--cache-dir", str(cache)]
    if python:
        cmd += ["--python-executable", python]
    if not config:
        cmd.append("--ignore-missing-imports")
    if layout:
        options, mypypath = layout_options(tree, folder)
        cmd += options
        env = {**env, "MYPYPATH": os.pathsep.join(x for x in (mypypath, env.get("MYPYPATH")) if x)}
    return _run([*cmd, target], logs / log_name, cwd, env, MYPY_TIMEOUT_S), cwd


def run_mypy(
    tree: Path, sources: list[str], base: Path, logs: Path, env: dict, label: str, python: str | None = None
) -> dict:
    """mypy on each source folder with the project's configuration (see the module docstring).

    Two fallbacks, each recorded under ``fallback``: a configuration mypy cannot load (rc 2, the error on the
    configuration or a plugin) runs the defaults instead; a layout error (``LAYOUT_ERRORS``) runs again with
    ``layout_options``.
    """
    started = time.monotonic()
    out: dict[str, Any] = {"status": "ok", "configs": [], "findings": [], "fallback": [], "rc": []}
    for i, folder in enumerate(sources):
        config = mypy_config(tree, folder)
        out["configs"].append({"source": folder, "config": config})
        cache = base / "mypy-cache" / f"{i}-{'project' if config else 'defaults'}"
        proc, cwd = _mypy_once(tree, folder, config, cache, logs, env, f"mypy-{label}-{i}.log", python)
        errors, other = parse_mypy(proc.stdout, tree, cwd)
        if proc.returncode == 2 and config and _config_failed(errors, config, proc.stderr):
            reason = " / ".join(e["message"] for e in errors)[:400] or proc.stderr[-400:]
            out["fallback"].append({"source": folder, "kind": "config", "reason": reason})
            config = None
            cache = base / "mypy-cache" / f"{i}-defaults"
            proc, cwd = _mypy_once(
                tree, folder, None, cache, logs, env, f"mypy-{label}-{i}-defaults.log", python
            )
            errors, other = parse_mypy(proc.stdout, tree, cwd)
        if proc.returncode == 2 and _layout_failed(errors, proc.stderr):
            reason = " / ".join(e["message"] for e in errors)[:400] or proc.stderr.strip()[-400:]
            options, mypypath = layout_options(tree, folder)
            out["fallback"].append(
                {
                    "source": folder,
                    "kind": "layout",
                    "reason": reason,
                    "options": options,
                    "mypypath": _rel(tree, Path(mypypath)) or ".",
                }
            )
            cache = Path(f"{cache}-layout")
            proc, cwd = _mypy_once(
                tree, folder, config, cache, logs, env, f"mypy-{label}-{i}-layout.log", python, layout=True
            )
            errors, other = parse_mypy(proc.stdout, tree, cwd)
        out["rc"].append(proc.returncode)
        if _timed_out(proc):
            out["status"] = "timeout"
            out["error"] = f"mypy timed out after {MYPY_TIMEOUT_S} s on {folder}"
            break
        if proc.returncode not in (0, 1, 2) or (proc.returncode != 0 and not errors):
            out["status"] = "error"
            out["error"] = (proc.stderr or "").strip()[-400:] or "\n".join(other)[-400:]
            break
        if proc.returncode == 2:
            out["status"] = "blocked"  # a blocking error (syntax, duplicate module): mypy checked no further
        out["findings"].extend(errors)
    out["seconds"] = round(time.monotonic() - started, 1)
    return out


def _status(tree: Path, env: dict, logs: Path, label: str) -> set[str]:
    proc = _run(["git", "status", "--porcelain"], logs / f"lint-git-status-{label}.log", tree, env, 60)
    return {line for line in proc.stdout.splitlines() if line.strip()}


def run_side(
    tree: Path, sources: list[str], base: Path, logs: Path, env: dict, label: str, python: str | None = None
) -> dict:
    """Both tools on one side (``before`` or ``after``) of the migration, leaving the tree as they found it.

    Files the tools leave in the tree (a report a project's mypy configuration asks for) are listed under
    ``left_in_tree`` and removed: ``apply`` refuses a dirty tree, and they are not the migration's.
    """
    was = _status(tree, env, logs, f"{label}-0")
    side = {
        "ruff": run_ruff(tree, sources, logs, env, label),
        "mypy": run_mypy(tree, sources, base, logs, env, label, python),
    }
    left = sorted(_status(tree, env, logs, f"{label}-1") - was)
    for line in left:
        path = tree / line[3:].strip().strip('"')
        if line.startswith("??"):
            shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
        else:
            _run(
                ["git", "checkout", "-q", "--", line[3:]],
                logs / f"lint-git-checkout-{label}.log",
                tree,
                env,
                60,
            )
    side["left_in_tree"] = [line[3:] for line in left]
    return side


# ------------------------------------------------------------------------------------------------------------
# before against after
# ------------------------------------------------------------------------------------------------------------


def _side_summary(side: dict) -> dict:
    summary = {k: v for k, v in side.items() if k != "findings"}
    summary["count"] = len(side["findings"])
    summary["by_code"] = dict(sorted(Counter(f["code"] for f in side["findings"]).items()))
    return summary


def compare_tool(before: dict, after: dict) -> dict:
    """Counts, and the new findings; ``new`` is None when one side did not finish (timeout, error)."""
    out: dict[str, Any] = {"before": _side_summary(before), "after": _side_summary(after)}
    comparable = ("ok", "blocked")
    if before["status"] in comparable and after["status"] in comparable:
        out["new"] = new_findings(before["findings"], after["findings"])
    elif before["status"] in comparable and after["status"] == "error":
        message = f"failed after the migration only: {after.get('error', '')[:300]}"
        out["new"] = [{"file": "<tool>", "line": None, "code": "failed", "message": message}]
    else:
        out["new"] = None
        out["incomplete"] = f"before {before['status']}, after {after['status']}"
    return out


#: the MCP SDK's top-level packages: the only third-party modules migrate-roots' output imports
SDK_PACKAGES = ("mcp", "fastmcp")
_MISSING_MODULE = re.compile(r'^Cannot find implementation or library stub for module named "([^"]+)"')


def sdk_installed() -> bool:
    """Whether the MCP SDK can be found by the mypy of this environment (quick mode installs nothing)."""
    return importlib.util.find_spec("mcp") is not None


def unresolved_sdk(finding: dict) -> bool:
    """An unresolved import of the MCP SDK (``mcp.types``, ``fastmcp``): what quick mode's missing install makes
    of the imports the shim and rewrites add, not an error where the server's dependencies are installed."""
    m = _MISSING_MODULE.match(finding["message"]) if finding["code"] == "import-not-found" else None
    return m is not None and m.group(1).split(".")[0] in SDK_PACKAGES


def compare_sides(before: dict, after: dict, *, sdk_missing: bool = False) -> dict:
    """Both tools compared. With ``sdk_missing`` (the SDK is not installed where mypy looks: quick mode), a new
    unresolved SDK import is moved from mypy's ``new`` to ``unresolved_sdk``: listed, not counted."""
    out: dict[str, Any] = {tool: compare_tool(before[tool], after[tool]) for tool in ("ruff", "mypy")}
    mypy = out["mypy"]
    if sdk_missing and mypy.get("new"):
        mypy["unresolved_sdk"] = [x for x in mypy["new"] if unresolved_sdk(x)]
        mypy["new"] = [x for x in mypy["new"] if not unresolved_sdk(x)]
    out["left_in_tree"] = {"before": before.get("left_in_tree", []), "after": after.get("left_in_tree", [])}
    return out


def new_count(lint: dict | None, tool: str) -> int | None:
    """How many new findings ``tool`` has in a repository's ``lint`` result (None: not run or incomplete)."""
    if not lint or tool not in lint or lint[tool].get("new") is None:
        return None
    return len(lint[tool]["new"])
