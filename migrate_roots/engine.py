"""The pipeline: discover -> prefilter -> index -> plan -> rewrite -> results. Prints nothing.

Index and rewrite run in worker processes that receive paths and return `FileResult`s (plus, from the index,
small picklable summaries). A file is parsed in the index phase; only files the plan or a local fix changes
are parsed again for the rewrite, so a clean tree costs one read per file and a regex search.

The run in the main process is here (`Engine`, and the worker pool). The rest, re-exported from here:
engine_types (what the phases hand each other), engine_walk (one file's parse and walk), engine_files (the
per-file work of the workers), engine_plan (groups, plans, which rewrites stand), engine_output (new text,
diff, writes, the shim).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrate_roots import codemods, fanout, follow, guards, screen
from migrate_roots.discovery import discover
from migrate_roots.engine_types import (
    _NONE,
    SHIM_HEADER,
    Dispatch,
    Entry,
    Guess,
    Indexed,
    Moves,
    Options,
    Progress,
    _failure,
)
from migrate_roots.engine_walk import forget_folders, package_info
from migrate_roots.model import FileResult, Status, Summary

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from migrate_roots.engine_files import commit_file, index_file, rewrite_file
    from migrate_roots.engine_output import render_shim, unified_diff, write_shim
    from migrate_roots.spill import Spill

# Modules followed from a roots read's module (`Rule.follow_onward`): a bound checked three modules away is seen.
ONWARD_DEPTH = 3

# The per-file work, the plan, the output and the spill are imported once a file is to be parsed: a run over a
# tree where none is (benchmark 1) never needs them. Their public names are re-exported from here on demand.
_LATER = {
    "commit_file": "engine_files",
    "index_file": "engine_files",
    "rewrite_file": "engine_files",
    "render_shim": "engine_output",
    "unified_diff": "engine_output",
    "write_shim": "engine_output",
}


def __getattr__(name: str) -> Any:
    if name in _LATER:
        import importlib

        return getattr(importlib.import_module(f"migrate_roots.{_LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SHIM_HEADER",
    "Dispatch",
    "Engine",
    "Entry",
    "Guess",
    "Indexed",
    "Options",
    "Progress",
    "commit_file",
    "default_jobs",
    "index_file",
    "package_info",
    "render_shim",
    "rewrite_file",
    "unified_diff",
    "write_shim",
]

_MCP_WORD = codemods.requirement(b"mcp")


def _executor(jobs: int, count: int) -> Executor | None:
    if jobs <= 1 or count < 2:
        return None
    method = "fork" if sys.platform.startswith("linux") else None
    import multiprocessing  # here, not at start-up: a run with fewer than two candidates never needs it
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(method)
    return ProcessPoolExecutor(max_workers=min(jobs, count), mp_context=context)


def _map(
    executor: Executor | None, fn: Callable[..., Any], items: Iterable[Any], count: int, *args: Any
) -> Iterator[Any]:
    """`fn(item, *args)` for each item, in order. In a pool, items are taken from the iterable only as workers
    are about to need them, so what they carry (a plan, a guess) is never all in memory at once."""
    if executor is None:
        return (fn(item, *args) for item in items)
    workers = getattr(executor, "_max_workers", 1) or 1
    # Small chunks: a phase ends when its last chunk does, and one 25-file chunk left to a single worker cost
    # benchmark 3 a tenth of its -j 2 speed-up; a task's own overhead is a path in and a small result out.
    chunk = max(1, min(4, count // (8 * workers)))
    return _windowed(executor, fn, iter(items), args, chunk, 4 * workers)


def _windowed(
    executor: Executor,
    fn: Callable[..., Any],
    items: Iterator[Any],
    args: tuple[Any, ...],
    chunk: int,
    window: int,
) -> Iterator[Any]:
    import itertools
    from collections import deque

    running: deque[Any] = deque()

    def submit() -> None:
        batch = list(itertools.islice(items, chunk))
        if batch:
            running.append(executor.submit(_run_chunk, fn, batch, args))

    for _ in range(window):
        submit()
    while running:
        results = running.popleft().result()
        submit()
        yield from results


def _run_chunk(fn: Callable[..., Any], batch: list[Any], args: tuple[Any, ...]) -> list[Any]:
    return [fn(item, *args) for item in batch]


def _aliases(files: list[str], links: dict[str, str]) -> dict[str, list[str]]:
    """Each file that is one of several names of the same file (a symbolic link and what it points to, both
    read by this run) -> its other names."""
    if not links:
        return {}
    by_real: dict[str, list[str]] = {}
    for name in files:
        by_real.setdefault(links.get(name) or os.path.abspath(name), []).append(name)
    return {n: [o for o in group if o != n] for group in by_real.values() if len(group) > 1 for n in group}


def _linked(name: str, others: list[str], target: str | None) -> str:
    """Why a file with more than one name is left alone: a tool importing one name and a tool importing the
    other call the same functions, and writing a link would replace it with a plain file."""
    shown = ", ".join(f"`{o.replace(os.sep, '/')}`" for o in others)
    if target is None:
        what = f"the file the symbolic link {shown} points to"
    else:
        what = f"a symbolic link to {shown or f'`{target}`'}"
    return (
        f"one file under two module names ({what}): migrate-roots cannot tell their callers apart; left alone "
        "(migrate it under its real name by hand)"
    )


def _screen(files: list[str], pattern: Any) -> list[tuple[int, tuple[str, str]]]:
    """The prefilter's verdict on each file that is to be parsed (code "") or cannot be (code, message)."""
    out: list[tuple[int, tuple[str, str]]] = []
    for index, path in enumerate(files):
        try:
            data = guards.read_source(path)
        except OSError as exc:
            out.append((index, ("MR901", f"cannot read: {exc.strerror or exc}")))
            continue
        if pattern is None or data.startswith(SHIM_HEADER):
            continue
        if isinstance(pattern, follow.Joins):
            hit = pattern.test(path, data)
        else:  # stage one: a roots token without the word mcp is screened first (migrate_roots/screen.py)
            hit = bool(pattern.search(data) and (_MCP_WORD(data) or screen.worth_parsing(data)))
        if hit:
            if len(data) > guards.MAX_BYTES:
                out.append((index, ("MR907", f"file too large: {guards.TooLarge(len(data))}")))
            else:
                out.append((index, ("", "")))
    return out


class Engine:
    def __init__(self, options: Options, progress: Progress | None = None) -> None:
        self.options = options
        self.progress = progress or (lambda phase, done, total: None)
        self.summary = Summary()
        self.shims: list[FileResult] = []
        self.aliases: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}

    def _prefilter(self, files: list[str], pattern: Any) -> tuple[list[Path], list[FileResult]]:
        hits: list[Path] = []
        failed: list[FileResult] = []
        for index, (code, message) in fanout.split(
            partial(_screen, pattern=pattern), files, self.options.jobs
        ):
            name = files[index]
            if not code and (name in self.aliases or name in self.links):
                code, message = "MR908", _linked(name, self.aliases.get(name, []), self.links.get(name))
            if not code and self.options.write and guards.read_only(name):
                # Left out of the plan as well: its callers must not pass an argument it will never take.
                code, message = "MR901", "read-only file: left alone (make it writable to migrate it)"
            if code:
                failed.append(_failure(files[index], code, message))
            else:
                hits.append(Path(files[index]))
        return hits, failed

    def run(self, paths: list[Path]) -> Iterator[FileResult]:
        """Yield one FileResult per interesting file (findings, changes or failures), in path order."""
        start = time.perf_counter()
        since = time.time_ns()
        options = self.options
        links: dict[str, str] = {}
        files = discover(paths, options.settings.exclude, links)
        self.aliases = _aliases(files, links)
        self.links = links
        forget_folders()
        if options.write:  # an interrupted run's temporary files (the CLI holds the run lock)
            guards.remove_stale_temp(files)
        self.summary.files_seen = len(files)
        self.progress("discover", len(files), len(files))

        hits, failed = self._prefilter(files, codemods.trigger_pattern(options.enabled))
        if not hits:  # the rules need not even be imported
            failed.sort(key=lambda f: Path(f.path).as_posix())
            yield from self._render(((f, False, ()) for f in failed), since, 0)
            self.summary.seconds = round(time.perf_counter() - start, 3)
            return
        from migrate_roots.engine_files import _rewrite_one
        from migrate_roots.engine_plan import _dispatched, _outcome, _settle
        from migrate_roots.spill import Spill

        rules = codemods.load()
        executor = _executor(options.jobs, len(hits))
        spill = Spill()
        try:
            entries = self._index(executor, spill, ((p, None) for p in hits), len(hits))
            entries += self._stage_two(executor, spill, files, hits, failed, entries)
            del hits, files  # the entries hold the paths now (benchmark 4: a Path costs about 400 bytes)
            dispatch = _settle(entries, spill, rules, options)
            by_path: dict[str, FileResult | Entry] = {f.path: f for f in failed}
            for entry in entries:
                by_path.setdefault(str(entry.path), entry.failed or entry)
            items = (_dispatched(entry, spill, options) for entry in dispatch)
            rewritten = _map(executor, _rewrite_one, items, len(dispatch), options)
            results = (
                _outcome(by_path[name], spill, rewritten)
                for name in sorted(by_path, key=lambda p: Path(p).as_posix())
            )
            pending = sum(isinstance(e, Entry) and e.kind != "keep" for e in by_path.values())
            yield from self._render(results, since, pending)
        finally:
            if executor is not None:
                executor.shutdown(cancel_futures=True)
            spill.close()
        self.summary.seconds = round(time.perf_counter() - start, 3)

    def _stage_two(
        self,
        executor: Executor | None,
        spill: Spill,
        files: list[str],
        hits: list[Path],
        failed: list[FileResult],
        entries: list[Entry],
    ) -> list[Entry]:
        """The files that may call into an indexed one: those that import a module holding a function that
        reaches roots (`Rule.follow_functions`, migrate_roots/follow.py), round after round while the files
        that joined add such functions (a tool calling a helper that calls the roots helper); and, in the first
        round, those that mention a rule's follow token (`Rule.follow_tokens`)."""
        from migrate_roots.engine_plan import _follow_functions, _Known

        tokens: dict[str, set[bytes]] = {}
        for entry in entries:
            if entry.follow:
                for scope in follow.scopes(str(entry.path), entry.module):
                    tokens.setdefault(scope, set()).update(entry.follow)
        reached = {name for entry in entries for name in entry.functions}
        indexed_modules = {entry.module for entry in entries}
        modules = {name for entry in entries for name in entry.modules} - indexed_modules
        # How many modules away from a roots read each followed module is (`Rule.follow_onward`).
        depth = dict.fromkeys(modules, 1)
        # A stage-one file without a read of its own (a tool module that says "roots" in its text) hands the
        # roots on as a stage-two one does: its imports are one module away too (codereviewbuddy's tools).
        for entry in entries:
            for name in entry.onward if entry.planned else ():
                if name not in indexed_modules and name not in depth:
                    modules.add(name)
                    depth[name] = 2
        for entry in entries:
            entry.follow = entry.functions = entry.modules = entry.onward = _NONE
        seen = {str(p) for p in hits} | {f.path for f in failed}
        known = _Known(spill, entries)
        added: list[Entry] = []
        new = set(reached)
        while tokens or new or modules:
            # A file left out of an earlier round imports none of the functions known then: only the new ones
            # can make it join now (the test is a disjunction over the names).
            joins = follow.Joins(tokens, new, modules)
            left = [f for f in files if f not in seen]
            if not tokens and not new:  # modules alone join by their name: no file's bytes need reading
                left = [f for f in left if os.path.splitext(os.path.basename(f))[0] in joins.stems]
            more, more_failed = self._prefilter(left, joins)
            failed += more_failed
            seen |= {str(p) for p in more} | {f.path for f in more_failed}
            # A stage-two file (a tool calling a helper) is guessed with its package's stage-one files
            # (the helper): its guess is then usually the final plan, and it is parsed once.
            round_entries = self._index(executor, spill, ((p, known.get(p)) for p in more), len(more))
            added += round_entries
            tokens, new, modules = {}, set(), set()
            for entry in round_entries:
                if entry.planned and entry.ref is not None:
                    new |= _follow_functions(spill.get(entry.ref), reached, self.options) - reached
                # A decorator's module, named by a tool that joined (_roots_wrappers) ...
                modules |= entry.modules
                # ... and the modules a followed one calls into (a bound checked one more module away); a file
                # that joined by calling into a roots helper (a tool module) hands the roots on as well: its own
                # imports count as one module away from the read (sweep M, r01: `tools/x.py` calls
                # `paths.safe_join(base, name)` with the base `workspace.py` read).
                level = depth.get(entry.module, 1 if entry.planned else ONWARD_DEPTH)
                for name in entry.onward if level < ONWARD_DEPTH else ():
                    modules.add(name)
                    depth.setdefault(name, level + 1)
                entry.follow = entry.functions = entry.modules = entry.onward = _NONE
            modules -= indexed_modules
            indexed_modules |= {entry.module for entry in round_entries}
            reached |= new
        return added

    def _render(
        self, results: Iterable[tuple[FileResult, bool, Moves]], since: int, pending: int
    ) -> Iterator[FileResult]:
        """Count and yield the interesting results (each with whether the rewrite phase made it, and the lines
        it moved), then the compatibility modules they import. From the first file whose markers cite another
        file's lines, the results are held until every file is rewritten (`engine_recite`)."""
        from migrate_roots.engine_recite import Recite

        shims: dict[str, None] = {}
        done = 0
        recite = Recite(self.options)
        held: list[FileResult] = []
        for result, rewritten, moved in results:
            if rewritten:
                done += 1
                self.progress("rewrite", done, pending)
            self._count(result)
            recite.note(result, moved)
            if result.shim:
                shims[result.shim] = None
            if result.findings or result.status in (Status.CHANGED, Status.FAILED):
                if held or recite.cites(result):
                    held.append(result)
                else:
                    yield result
        yield from recite.finish(held)
        if shims:
            from migrate_roots.engine_output import _display, _shim_result
        for shim in sorted(shims):
            result = _shim_result(_display(Path(shim)), self.options, since)
            self._count(result)
            if result.findings or result.status in (Status.CHANGED, Status.FAILED):
                yield result

    def _index(
        self, executor: Executor | None, spill: Spill, items: Iterable[Any], count: int
    ) -> list[Entry]:
        from migrate_roots.engine_files import _index_entry

        out: list[Entry] = []
        for n, entry in enumerate(_map(executor, _index_entry, items, count, self.options), 1):
            if entry.blob is not None:
                entry.ref, entry.blob = spill.put_bytes(entry.blob), None
            out.append(entry)
            self.progress("index", n, count)
        self.summary.files_parsed += count
        return out

    def _count(self, result: FileResult) -> None:
        if result.status is Status.CHANGED:
            self.summary.files_changed += 1
        elif result.status is Status.FAILED:
            self.summary.files_failed += 1
        for finding in result.findings:
            self.summary.findings_by_code[finding.code] = (
                self.summary.findings_by_code.get(finding.code, 0) + 1
            )


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
