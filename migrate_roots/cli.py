"""The `migrate-roots` command line: parse options, call the engine, render, pick the exit code.

Exit codes: 0 clean; 1 findings or pending changes; 2 usage or configuration error, or `apply` refused to
write over uncommitted changes (see `--allow-dirty`); 3 some files could not be processed (the others were).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from migrate_roots import __version__

if TYPE_CHECKING:
    from migrate_roots.config import Settings
    from migrate_roots.model import FileResult, Summary

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Move MCP servers off the deprecated roots feature (SEP-2577) onto explicit path arguments.",
)


class Format(str, Enum):
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"migrate-roots {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Find and rewrite MCP roots usage."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"migrate-roots: error: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


Paths = Annotated[list[Path], typer.Argument(help="Files or folders to process.", show_default=False)]
Select = Annotated[
    list[str] | None, typer.Option("--select", help="Rule codes or prefixes to enable (repeatable).")
]
Ignore = Annotated[
    list[str] | None, typer.Option("--ignore", help="Rule codes or prefixes to disable (repeatable).")
]
Exclude = Annotated[list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")]
Jobs = Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: CPUs).")]
FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print findings only, no summary.")]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="More detail; tracebacks of internal errors.")]
NoProgress = Annotated[bool, typer.Option("--no-progress", help="Never show a progress bar.")]
NoMarkers = Annotated[
    bool, typer.Option("--no-markers", help="Do not add `# migrate-roots:` comments; only report.")
]


def _settings(paths: list[Path], **overrides: Any) -> Settings:
    from migrate_roots.config import ConfigError, load_settings

    for path in paths:
        if not path.exists() and not path.is_symlink():
            raise _fail(f"{path}: no such file or folder")
    try:
        return load_settings(paths[0] if paths else Path.cwd(), overrides)
    except ConfigError as exc:
        raise _fail(str(exc)) from None


def _dirty(paths: list[Path], exclude: list[str] | None) -> list[Path]:
    """The files with uncommitted changes that the run could write: Python files it discovers (not under
    `.venv`, `build` or `node_modules`, not excluded), of which any may be a caller it threads the argument
    through (sweep H, r08: untracked copies it never reads stopped the run)."""
    from migrate_roots import guards
    from migrate_roots.discovery import discover

    dirty = [p for p in guards.dirty_files(paths) if p.suffix == ".py"]
    if not dirty:
        return []
    settings = _settings(paths, exclude=exclude)
    found = {Path(f).resolve() for f in discover(paths, settings.exclude)}
    return [p for p in dirty if p in found]


@contextlib.contextmanager
def _running(
    paths: list[Path],
    *,
    select: list[str] | None,
    ignore: list[str] | None,
    exclude: list[str] | None,
    jobs: int | None,
    no_markers: bool,
    write: bool,
    want_diff: bool,
    quiet: bool,
    verbose: bool,
    no_progress: bool,
) -> Iterator[tuple[Iterator[FileResult], Summary]]:
    """The engine's results as it yields them (render and drop them), and the summary it fills in."""
    from migrate_roots import codemods, engine

    markers = False if no_markers else None
    settings = _settings(paths, select=select, ignore=ignore, exclude=exclude, jobs=jobs, markers=markers)
    try:
        enabled = codemods.select_codes(settings.select, settings.ignore)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    options = engine.Options(
        settings=settings,
        enabled=enabled,
        write=write,
        want_diff=want_diff,
        jobs=settings.jobs or engine.default_jobs(),
        verbose=verbose,
    )
    from migrate_roots.report.progress import progress_bar

    with progress_bar(enabled=not (no_progress or quiet)) as progress:
        runner = engine.Engine(options, progress)
        yield runner.run(paths), runner.summary


def _run(paths: list[Path], **options: Any) -> tuple[list[FileResult], Summary]:
    """Every result at once, for the renderers that need them all (report, guide)."""
    with _running(paths, **options) as (results, summary):
        return list(results), summary


def _exit_code(failed: bool, pending: bool) -> int:
    if failed:
        return EXIT_FAILED
    return EXIT_FINDINGS if pending else EXIT_CLEAN


@app.command()
def scan(
    paths: Paths,
    select: Select = None,
    ignore: Ignore = None,
    exclude: Exclude = None,
    jobs: Jobs = None,
    output_format: FormatOpt = Format.text,
    quiet: Quiet = False,
    verbose: Verbose = False,
    no_progress: NoProgress = False,
    no_markers: NoMarkers = False,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even when there are findings.")
    ] = False,
) -> None:
    """List every SEP-2577 site as `path:line:col: CODE message`. Writes nothing."""
    from migrate_roots.report import render

    with _running(
        paths,
        select=select,
        ignore=ignore,
        exclude=exclude,
        jobs=jobs,
        no_markers=no_markers,
        write=False,
        want_diff=False,
        quiet=quiet,
        verbose=verbose,
        no_progress=no_progress,
    ) as (results, summary):
        seen = render.findings(results, summary, output_format.value, quiet=quiet, verbose=verbose)
    code = _exit_code(seen.failed, seen.findings)
    raise typer.Exit(EXIT_CLEAN if exit_zero and code == EXIT_FINDINGS else code)


@app.command()
def apply(
    paths: Paths,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print a unified diff; write nothing.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 when any file would change.")
    ] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print the diff and write.")] = False,
    select: Select = None,
    ignore: Ignore = None,
    exclude: Exclude = None,
    jobs: Jobs = None,
    output_format: FormatOpt = Format.text,
    quiet: Quiet = False,
    verbose: Verbose = False,
    no_progress: NoProgress = False,
    no_markers: NoMarkers = False,
    allow_dirty: Annotated[
        bool,
        typer.Option("--allow-dirty", help="Rewrite even Python files with uncommitted changes in git."),
    ] = False,
) -> None:
    """Rewrite files in place (or show what would change with --dry-run / --check)."""
    from migrate_roots import guards
    from migrate_roots.report import render

    write = not (dry_run or check)
    with contextlib.ExitStack() as held:
        if write:  # one apply at a time per work tree; then refuse to mix our edits with the user's
            wait = lambda lock: typer.echo(f"migrate-roots: waiting for another run ({lock})", err=True)  # noqa: E731
            held.enter_context(guards.run_lock(paths, on_wait=wait))
            dirty = [] if allow_dirty else _dirty(paths, exclude)
            if dirty:
                raise _fail(guards.describe_dirty(dirty))
        results, summary = held.enter_context(
            _running(
                paths,
                select=select,
                ignore=ignore,
                exclude=exclude,
                jobs=jobs,
                no_markers=no_markers,
                write=write,
                want_diff=dry_run or diff or check,
                quiet=quiet,
                verbose=verbose,
                no_progress=no_progress,
            )
        )
        show = dry_run or diff or check
        seen = render.applied(results, summary, output_format.value, show_diff=show, quiet=quiet)
    raise typer.Exit(_exit_code(seen.failed, seen.changed and not write))


@app.command()
def rules(
    output_format: FormatOpt = Format.text,
    verbose: Verbose = False,
) -> None:
    """Every rule: code, summary, and whether it fixes or only reports."""
    from migrate_roots.report import render

    render.rules(output_format.value, verbose=verbose)


@app.command()
def shim() -> None:
    """Print the compatibility module that `apply` writes into your package."""
    from migrate_roots import engine
    from migrate_roots.config import load_settings

    sys.stdout.write(engine.render_shim(load_settings(Path.cwd(), {})))


# ---------------------------------------------------------------------------------------------------------
# report and guide (issue 7): a dry run of `apply`, rendered for a reviewer or as an upgrade guide.


class ReportFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"
    sarif = "sarif"
    github = "github"


class FailOn(str, Enum):
    never = "never"
    changes = "changes"
    findings = "findings"


Output = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write to this file instead of standard output.")
]


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{output}: cannot write: {exc.strerror or exc}") from None


@app.command()
def report(
    paths: Paths,
    output_format: Annotated[
        ReportFormat,
        typer.Option("--format", help="text, markdown (PR comment / job summary), json, sarif, github."),
    ] = ReportFormat.text,
    output: Output = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Report only findings that this baseline file does not hold."),
    ] = None,
    write_baseline: Annotated[
        Path | None, typer.Option("--write-baseline", help="Record the current findings in this file.")
    ] = None,
    fail_on: Annotated[
        FailOn,
        typer.Option(
            "--fail-on", help="Exit 1 on pending changes (`changes`) or on any reported finding (`findings`)."
        ),
    ] = FailOn.never,
    select: Select = None,
    ignore: Ignore = None,
    exclude: Exclude = None,
    jobs: Jobs = None,
    verbose: Verbose = False,
    no_progress: NoProgress = False,
    no_markers: NoMarkers = False,
) -> None:
    """Everything `apply` would do and everything left for a person, for review. Writes no source file."""
    from migrate_roots.report import baseline as baseline_mod
    from migrate_roots.report.build import build
    from migrate_roots.report.formats import render

    known = None
    if baseline is not None:
        try:
            known = baseline_mod.load(baseline)
        except baseline_mod.BaselineError as exc:
            raise _fail(str(exc)) from None
    results, summary = _run(
        paths,
        select=select,
        ignore=ignore,
        exclude=exclude,
        jobs=jobs,
        no_markers=no_markers,
        write=False,
        want_diff=True,
        quiet=False,
        verbose=verbose,
        no_progress=no_progress,
    )
    data = build(results, summary, baseline=known)
    if write_baseline is not None:
        _emit(baseline_mod.dumps(build(results, summary)), write_baseline)
    _emit(render(output_format.value, data), output)
    if data.totals.files_failed:
        raise typer.Exit(EXIT_FAILED)
    if fail_on is FailOn.changes and data.totals.files_changed:
        raise typer.Exit(EXIT_FINDINGS)
    if fail_on is FailOn.findings and (data.totals.findings or data.totals.files_changed):
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_CLEAN)


@app.command()
def guide(
    paths: Paths,
    output: Output = None,
    select: Select = None,
    ignore: Ignore = None,
    exclude: Exclude = None,
    jobs: Jobs = None,
    verbose: Verbose = False,
    no_progress: NoProgress = False,
    no_markers: NoMarkers = False,
) -> None:
    """Write this project's upgrade guide (Markdown): what changes, why, what clients pass, what is left."""
    from migrate_roots.report.build import build
    from migrate_roots.report.guide import render_guide

    results, summary = _run(
        paths,
        select=select,
        ignore=ignore,
        exclude=exclude,
        jobs=jobs,
        no_markers=no_markers,
        write=False,
        want_diff=True,
        quiet=False,
        verbose=verbose,
        no_progress=no_progress,
    )
    settings = _settings(paths)
    _emit(render_guide(build(results, summary), settings, [str(p) for p in paths]), output)
    raise typer.Exit(EXIT_FAILED if any(r.status.value == "failed" for r in results) else EXIT_CLEAN)


# ---------------------------------------------------------------------------------------------------------
# verify (issue 20): drive the migrated server with its own SDK's client, in both eras.


class VerifyFormat(str, Enum):
    text = "text"
    json = "json"


@app.command(context_settings={"allow_interspersed_args": False})
def verify(
    command: Annotated[
        list[str], typer.Argument(help="The server's start command, after `--`.", show_default=False)
    ],
    python: Annotated[
        str | None,
        typer.Option(
            "--python",
            help="The server environment's python, whose MCP SDK client drives the server "
            "(default: ./.venv's, else `python` on PATH).",
        ),
    ] = None,
    tool: Annotated[
        list[str] | None,
        typer.Option(
            "--tool", help="NAME or NAME=ARG: a tool whose path argument carries no marker (repeatable)."
        ),
    ] = None,
    call_all: Annotated[
        bool, typer.Option("--call-all", help="Call the tools without a path argument too.")
    ] = False,
    args_file: Annotated[
        Path | None,
        typer.Option("--args", help="JSON file: tool name -> arguments (default: made from each schema)."),
    ] = None,
    seed: Annotated[
        Path | None,
        typer.Option(
            "--seed", help="A folder copied into each session's workspace (default: it starts empty)."
        ),
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds per tool call.")] = 30.0,
    start_timeout: Annotated[
        float,
        typer.Option("--start-timeout", min=0.1, help="Seconds for the server to start and list its tools."),
    ] = 60.0,
    output_format: Annotated[
        VerifyFormat, typer.Option("--format", help="text or json.")
    ] = VerifyFormat.text,
) -> None:
    """Prove the migration on your server: start it (COMMAND) and drive it in both eras with its own SDK.

    Exit 0 when every check holds, 1 when one fails, 2 when the server does not start (or a usage error).
    """
    from migrate_roots.verify import render
    from migrate_roots.verify.plan import PlanError, parse_tool_option
    from migrate_roots.verify.runner import Options, VerifyError, load_args_file, python_for, run

    try:
        options = Options(
            command=list(command),
            python=python_for(Path.cwd(), python),
            tools=parse_tool_option(tool or []),
            call_all=call_all,
            args=load_args_file(args_file) if args_file else {},
            timeout=timeout,
            start_timeout=start_timeout,
            seed=seed,
        )
        result = run(options)
    except (VerifyError, PlanError) as exc:
        raise _fail(str(exc)) from None
    if output_format is VerifyFormat.json:
        sys.stdout.write(render.render_json(result))
    elif sys.stdout.isatty():
        sys.stdout.write(render.render_rich(result))
    else:
        sys.stdout.write(render.render_text(result))
    raise typer.Exit(result.exit_code)


def main() -> None:
    app(prog_name="migrate-roots")
