"""The pipeline: discover -> prefilter -> index -> plan -> rewrite -> results. Prints nothing.

Index and rewrite run in worker processes that receive paths and return `FileResult`s (plus, from the index,
small picklable summaries). A file is parsed in the index phase; only files the plan or a local fix changes
are parsed again for the rewrite, so a clean tree costs one read per file and a regex search.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import stat
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from migrate_roots import codemods, follow, guards, screen, sourcefile, writer
from migrate_roots.config import Settings
from migrate_roots.discovery import discover
from migrate_roots.model import Action, FileResult, Finding, Severity, Status, Summary
from migrate_roots.spill import Ref, Spill

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import libcst as cst

    from migrate_roots.codemods.base import FileState, Rule

Progress = Callable[[str, int, int], None]  # (phase, done, total)

# The first bytes of the compatibility module we write: our own output is never scanned or rewritten.
SHIM_HEADER = b'"""Compatibility helper for MCP servers moving off "roots"'


@dataclass(frozen=True)
class Options:
    settings: Settings
    enabled: frozenset[str]
    write: bool = False  # apply for real
    want_diff: bool = False
    jobs: int = 1
    verbose: bool = False


@dataclass
class Indexed:
    """What the index phase returns for one candidate file."""

    result: FileResult
    summaries: dict[str, Any] = field(default_factory=dict)
    needs_rewrite: bool = False
    # The rewrite done right after the index, on the same tree, under the plan of this file alone: when the
    # package-wide plan for the file turns out the same (the common case), the rewrite phase reuses it.
    # Kept pickled until then (`_pickled`): a run holds thousands of them (benchmark 4), bytes are smaller
    # than the objects, and only the confirmed ones are ever unpickled.
    guess_plan: Mapping[str, Any] | None = None
    guess: bytes | None = None
    module: str = ""
    package_root: str = ""


_MCP_WORD = codemods.requirement(b"mcp")
_NONE: frozenset[Any] = frozenset()  # one shared empty set: `frozenset()` allocates a new one each call


@dataclass(slots=True)
class Entry:
    """What the main process keeps of one indexed file: its `Indexed` waits in the spill (`ref`)."""

    path: Path
    ref: Ref | None = None
    failed: FileResult | None = None  # could not be processed (then nothing is spilled)
    blob: bytes | None = None  # the pickled `Indexed`, from the worker to the spill
    module: str = ""
    package_root: str = ""
    planned: bool = False  # has summaries: takes part in the package plan
    needs_rewrite: bool = False
    links: frozenset[str] = frozenset()  # top-level modules its summaries refer to (`Rule.links`)
    follow: frozenset[bytes] = frozenset()  # its stage-two tokens (`Rule.follow_tokens`)
    functions: frozenset[str] = frozenset()  # whose importers join stage two (`Rule.follow_functions`)
    modules: frozenset[str] = frozenset()  # modules that join stage two themselves (`Rule.follow_modules`)
    # After the plan: "keep" the index's result, take the confirmed guess ("ready"), or "dispatch" a rewrite
    # (under `plan_ref`, committing the guess when `commit`).
    kind: str = "keep"
    plan_ref: Ref | None = None
    commit: bool = False


@dataclass
class Guess:
    result: FileResult
    new: bytes | None = None  # the bytes to write (only when writing)
    old_hash: bytes = b""  # of the bytes the rewrite was made from


# ---------------------------------------------------------------------------------------------------------
# Per-file work (runs in worker processes)


def package_info(path: Path) -> tuple[str, str, str]:
    """(module, package, package_root) from the `__init__.py` files above `path`."""
    folder = path.resolve().parent
    parts = [] if path.stem == "__init__" else [path.stem]
    top = folder
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        top = folder
        folder = folder.parent
    if top == path.resolve().parent and not (top / "__init__.py").is_file():
        return path.stem, "", str(top)
    module = ".".join(parts)
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    return module, package, str(top)


def _failure(path: str, code: str, message: str, line: int = 1) -> FileResult:
    finding = Finding(
        path=path,
        line=line,
        col=1,
        code=code,
        message=message,
        severity=Severity.ERROR,
        action=Action.REPORTED,
    )
    return FileResult(path=path, status=Status.FAILED, reason=message, findings=[finding])


def _visit(module: cst.Module, state: FileState, rules: list[Rule]) -> None:
    """Hand each node, in libcst's visiting order, to the rules that asked for its type.

    libcst's own visitor rebuilds every node on the way (a third of a file's cost); the parent links that
    the metadata already holds give the same children in the same order, so the walk is a plain loop.
    """
    handlers: dict[type, list[Rule]] = {}
    for rule in rules:
        for kind in rule.nodes:
            handlers.setdefault(kind, []).append(rule)
    import libcst as cst

    children = state.children()
    # Exact types, not isinstance: libcst's node classes are ABCs, and an isinstance that fails goes through
    # ABCMeta.__instancecheck__ (a tenth of a file's cost over every node of every walk).
    scopes = {cst.FunctionDef, cst.ClassDef}
    leave = state.stack.pop
    pending: list[Any] = [module]  # a node to visit, or None: leave the innermost function or class
    while pending:
        node = pending.pop()
        if node is None:
            leave()
            continue
        for rule in handlers.get(type(node), ()):
            rule.visit(node, state)
        if type(node) in scopes:
            state.stack.append(node)
            pending.append(None)
        kids = children.get(node)
        if kids:
            pending.extend(reversed(kids))


def _analyse(
    path: Path, data: bytes, options: Options, phase: str, plan: Mapping[str, Any]
) -> tuple[Any, ...]:
    source, module, wrapper = _parse(data)
    state, rules = _walk(path, source, module, wrapper, options, phase, plan)
    return source, module, state, rules


def _parse(data: bytes) -> tuple[sourcefile.Source, cst.Module, cst.MetadataWrapper]:
    import libcst as cst

    source = sourcefile.decode(data)
    if guards.looks_deep(source.text) and not guards.parser_survives(source.text):
        raise _ParseFailure("cannot parse: nested too deeply (libcst's parser crashes on it)", 1)
    try:
        module = cst.parse_module(source.text)
    except cst.ParserSyntaxError as exc:
        raise _ParseFailure(
            f"cannot parse: {exc.message.removeprefix('parser error: ')}", exc.raw_line
        ) from None
    except RecursionError:
        raise _ParseFailure("cannot parse: nesting too deep", 1) from None
    return source, module, cst.MetadataWrapper(module, unsafe_skip_copy=True)


def _walk(
    path: Path,
    source: sourcefile.Source,
    module: cst.Module,
    wrapper: cst.MetadataWrapper,
    options: Options,
    phase: str,
    plan: Mapping[str, Any],
    meta: Mapping[Any, Any] | None = None,
) -> tuple[FileState, list[Rule]]:
    from migrate_roots.codemods.base import FileState

    codemods.load()
    mod_name, package, package_root = package_info(path)
    state = FileState(
        path=str(path),
        module=mod_name,
        package=package,
        package_root=package_root,
        settings=options.settings,
        wrapper=wrapper,
        lines=source.text.splitlines(),
        enabled=options.enabled,
        phase=phase,
        plan=plan,
        meta=meta or {},
    )
    runners = {codemods.REGISTRY[c].runner or codemods.REGISTRY[c] for c in options.enabled}
    rules = [cls() for cls in sorted(runners, key=lambda r: r.code) if cls.nodes]
    _visit(module, state, rules)
    for rule in rules:
        rule.leave(state)
    return state, rules


class _ReadOnly(Exception):
    pass


def _write(path: Path, new: bytes, old: bytes, result: FileResult, options: Options) -> None:
    """Write one rewritten file: never a read-only one, and the shim it imports first (a run killed
    between the two leaves a package that works, and the next run finds nothing left to do)."""
    if not stat.S_IMODE(path.stat().st_mode) & 0o222:
        raise _ReadOnly(str(path))
    if result.shim:
        shim = Path(result.shim)
        if not shim.exists():
            with contextlib.suppress(FileExistsError):
                writer.write_new(shim, render_shim(options.settings).encode("utf-8"))
    writer.write_atomic(path, new, old)
    result.written = True


class _ParseFailure(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def _guarded(path: Path, options: Options, work: Callable[[bytes], Any]) -> Any:
    """Read the file and run `work`; every user-input problem becomes a failed FileResult."""
    name = str(path)
    try:
        data = guards.read_source(path, guards.MAX_BYTES)
    except guards.TooLarge as exc:
        return _failure(name, "MR907", f"file too large: {exc}")
    except OSError as exc:
        return _failure(name, "MR901", f"cannot read: {exc.strerror or exc}")
    try:
        return work(data)
    except sourcefile.DecodeError as exc:
        return _failure(name, "MR902", f"cannot decode: {exc}", exc.line)
    except _ParseFailure as exc:
        return _failure(name, "MR903", str(exc), exc.line)
    except writer.ChangedOnDisk:
        return _failure(name, "MR905", "changed on disk during the run; left alone")
    except _ReadOnly:
        return _failure(name, "MR901", "read-only file: left alone (make it writable to migrate it)")
    except OSError as exc:
        return _failure(name, "MR901", f"cannot write: {exc.strerror or exc}")
    except RecursionError:
        return _failure(name, "MR903", "cannot process: nesting too deep")
    except Exception as exc:  # an internal error must not stop the run
        detail = traceback.format_exc() if options.verbose else ""
        result = _failure(name, "MR904", f"internal error: {type(exc).__name__}: {exc}")
        result.reason = (result.reason or "") + (f"\n{detail}" if detail else "")
        return result


def index_file(
    path: Path, options: Options, known: Mapping[str, Mapping[str, Any]] | None = None
) -> Indexed | FileResult:
    """Parse, walk and summarise one file, and rewrite it under the plan it would get with `known` (rule code
    -> path -> summary: the stage-one files of its package, for a stage-two file) as the only other files."""

    def work(data: bytes) -> Indexed:
        source, module, wrapper = _parse(data)
        state, rules = _walk(path, source, module, wrapper, options, "index", {})
        summaries = {}
        for rule in rules:
            summary = rule.summarize(state)
            if summary is not None:
                summaries[rule.code] = summary
        status = Status.UNCHANGED
        result = FileResult(
            path=str(path), status=status, findings=sorted(state.findings, key=Finding.sort_key)
        )
        indexed = Indexed(
            result,
            summaries,
            bool(state.edits or state.markers),
            module=state.module,
            package_root=state.package_root,
        )
        guess = _guess(path, data, source, module, wrapper, state, indexed, options, known or {})
        if guess is not None:
            indexed.guess_plan, indexed.guess = guess[0], _pickled(guess[1])
        return indexed

    return _guarded(path, options, work)


def _index_entry(item: tuple[Path, Mapping[str, Mapping[str, Any]] | None], options: Options) -> Entry:
    """`index_file` in a worker: the main process gets the `Indexed` pickled (it goes to the spill unread) and
    the little it needs to find stage-two files and group files for the plan."""
    path, known = item
    indexed = index_file(path, options, known)
    if isinstance(indexed, FileResult):
        return Entry(path, failed=indexed)
    links: set[str] = set()
    follow: set[bytes] = set()
    functions: set[str] = set()
    modules: set[str] = set()
    for code, summary in indexed.summaries.items():
        rule = codemods.REGISTRY[code]
        links |= rule.links(summary)
        if code in options.enabled:
            follow |= rule.follow_tokens({str(path): summary})
            functions |= rule.follow_functions({str(path): summary}, set())
            modules |= rule.follow_modules({str(path): summary})
    return Entry(
        path,
        blob=_pickled(indexed),
        module=indexed.module,
        package_root=indexed.package_root,
        planned=bool(indexed.summaries),
        needs_rewrite=indexed.needs_rewrite,
        links=frozenset(name.split(".")[0] for name in links),
        follow=frozenset(follow),
        functions=frozenset(functions),
        modules=frozenset(modules),
    )


def _local_plan(
    path: Path, summaries: Mapping[str, Any], options: Options, known: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The plan this file would get if it and `known` were the only files with summaries (as `Engine.run`
    builds it)."""
    by_code = {code: {**known.get(code, {}), str(path): summary} for code, summary in summaries.items()}
    return _plan(by_code, codemods.load(), options.settings).get(str(path), {})


def _guess(
    path: Path,
    data: bytes,
    source: sourcefile.Source,
    module: cst.Module,
    wrapper: cst.MetadataWrapper,
    index_state: FileState,
    indexed: Indexed,
    options: Options,
    known: Mapping[str, Mapping[str, Any]],
) -> tuple[Mapping[str, Any], Guess] | None:
    """Rewrite under the local plan (this file and `known`), reusing the parsed tree and its metadata (the
    costly part); `Engine.run` keeps the result when the package-wide plan for the file is the same."""
    try:
        plan = _local_plan(path, indexed.summaries, options, known)
        if not (plan or indexed.needs_rewrite):
            return None
        state, _ = _walk(path, source, module, wrapper, options, "rewrite", plan, index_state.meta)
        result, new = _rewritten(path, source, module, state, options)
        return plan, Guess(result, new if options.write else None, _hash(data))
    except Exception:  # a speculation only: the rewrite phase redoes it for real and reports any error
        return None


def _pickled(obj: Any) -> bytes:
    import pickle

    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def _unpickled(blob: bytes) -> Guess:
    import pickle

    return cast(Guess, pickle.loads(blob))


def _hash(data: bytes) -> bytes:
    import hashlib  # 5 ms of OpenSSL start-up, for runs that parse something

    return hashlib.blake2b(data, digest_size=16).digest()


def _rewritten(
    path: Path, source: sourcefile.Source, module: cst.Module, state: FileState, options: Options
) -> tuple[FileResult, bytes | None]:
    """The result of the rewrite walk recorded in `state`, and the new bytes (None: unchanged)."""
    from migrate_roots.codemods.base import ApplyEdits

    findings = sorted(state.findings, key=Finding.sort_key)
    tools = list(state.extra.get("tools", []))
    shim = state.extra.get("shim")
    new_module = module.visit(ApplyEdits(state)) if (state.edits or state.markers) else module
    new_text = new_module.code
    if new_text == source.text:
        return FileResult(path=str(path), status=Status.UNCHANGED, findings=findings, tools=tools), None
    # The re-parse guards what is written or shown; a scan shows no code.
    if options.write or options.want_diff:
        _verify(new_text, source.text, path)
    result = FileResult(path=str(path), status=Status.CHANGED, findings=findings, tools=tools, shim=shim)
    if options.want_diff:
        result.diff = unified_diff(str(path), source.text, new_text)
    return result, source.encode(new_text)


def rewrite_file(path: Path, options: Options, plan: Mapping[str, Any]) -> FileResult:
    def work(data: bytes) -> FileResult:
        source, module, state, _ = _analyse(path, data, options, "rewrite", plan)
        result, new = _rewritten(path, source, module, state, options)
        if new is not None and options.write:
            _write(path, new, data, result, options)
        return result

    return _guarded(path, options, work)


def commit_file(path: Path, options: Options, guess: Guess) -> FileResult:
    """Write a confirmed guess: only over the very bytes it was made from (else MR905, left alone)."""

    def work(data: bytes) -> FileResult:
        if _hash(data) != guess.old_hash:
            raise writer.ChangedOnDisk(str(path))
        result = dataclasses.replace(guess.result)
        if guess.new is not None and options.write:
            _write(path, guess.new, data, result, options)
        return result

    return _guarded(path, options, work)


def _cpython_problem(text: str) -> str | None:
    """Why CPython's parser refuses `text`, or None."""
    import ast

    try:
        ast.parse(text)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}" if exc.lineno else exc.msg
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte (before 3.12); nesting too deep
        return str(exc)
    return None


def _verify(text: str, old: str, path: Path) -> None:
    """Refuse (a bug of ours) a rewrite that is not valid Python: nothing is written or shown.

    CPython's own parser first: ten times faster than libcst's (a dry run's re-parse was an eighth of its time,
    benchmark 3). A file CPython parsed before must parse after. A file with syntax newer than this
    interpreter fails it before the rewrite too; for such a file libcst's parser decides, as it did for the
    input.
    """
    problem = _cpython_problem(text)
    if problem is None:
        return
    if _cpython_problem(old) is None:
        raise RuntimeError(f"rewrite of {path} does not parse ({problem}); file left alone")
    import libcst as cst

    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise RuntimeError(f"rewrite of {path} does not parse ({exc.message}); file left alone") from None


def unified_diff(name: str, old: str, new: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )


# ---------------------------------------------------------------------------------------------------------
# The run (main process)


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


class Engine:
    def __init__(self, options: Options, progress: Progress | None = None) -> None:
        self.options = options
        self.progress = progress or (lambda phase, done, total: None)
        self.summary = Summary()
        self.shims: list[FileResult] = []

    def _prefilter(self, files: list[str], pattern: Any) -> tuple[list[Path], list[FileResult]]:
        hits: list[Path] = []
        failed: list[FileResult] = []
        for path in files:
            try:
                data = guards.read_source(path)
            except OSError as exc:
                failed.append(_failure(path, "MR901", f"cannot read: {exc.strerror or exc}"))
                continue
            if pattern is None or data.startswith(SHIM_HEADER):
                continue
            if isinstance(pattern, follow.Joins):
                hit = pattern.test(path, data)
            else:  # stage one: a roots token without the word mcp is screened first (migrate_roots/screen.py)
                hit = bool(pattern.search(data) and (_MCP_WORD(data) or screen.worth_parsing(data)))
            if hit:
                if len(data) > guards.MAX_BYTES:
                    failed.append(_failure(path, "MR907", f"file too large: {guards.TooLarge(len(data))}"))
                    continue
                hits.append(Path(path))
        return hits, failed

    def run(self, paths: list[Path]) -> Iterator[FileResult]:
        """Yield one FileResult per interesting file (findings, changes or failures), in path order."""
        start = time.perf_counter()
        since = time.time_ns()
        options = self.options
        files = discover(paths, options.settings.exclude)
        if options.write:  # an interrupted run's temporary files (the CLI holds the run lock)
            guards.remove_stale_temp(files)
        self.summary.files_seen = len(files)
        self.progress("discover", len(files), len(files))

        hits, failed = self._prefilter(files, codemods.trigger_pattern(options.enabled))
        if not hits:  # the rules need not even be imported
            failed.sort(key=lambda f: Path(f.path).as_posix())
            yield from self._render(((f, False) for f in failed), since, 0)
            self.summary.seconds = round(time.perf_counter() - start, 3)
            return
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
        tokens: dict[str, set[bytes]] = {}
        for entry in entries:
            if entry.follow:
                for scope in follow.scopes(str(entry.path), entry.module):
                    tokens.setdefault(scope, set()).update(entry.follow)
        reached = {name for entry in entries for name in entry.functions}
        modules = {name for entry in entries for name in entry.modules} - {entry.module for entry in entries}
        for entry in entries:
            entry.follow = entry.functions = entry.modules = _NONE
        seen = {str(p) for p in hits} | {f.path for f in failed}
        known = _Known(spill, entries)
        added: list[Entry] = []
        new = set(reached)
        while tokens or new or modules:
            joins = follow.Joins(tokens, reached, modules)
            more, more_failed = self._prefilter([f for f in files if f not in seen], joins)
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
            reached |= new
        return added

    def _render(
        self, results: Iterable[tuple[FileResult, bool]], since: int, pending: int
    ) -> Iterator[FileResult]:
        """Count and yield the interesting results (each with whether the rewrite phase made it), then the
        compatibility modules they import."""
        shims: dict[str, None] = {}
        done = 0
        for result, rewritten in results:
            if rewritten:
                done += 1
                self.progress("rewrite", done, pending)
            self._count(result)
            if result.shim:
                shims[result.shim] = None
            if result.findings or result.status in (Status.CHANGED, Status.FAILED):
                yield result
        for shim in sorted(shims):
            result = _shim_result(_display(Path(shim)), self.options, since)
            self._count(result)
            if result.findings or result.status in (Status.CHANGED, Status.FAILED):
                yield result

    def _index(
        self, executor: Executor | None, spill: Spill, items: Iterable[Any], count: int
    ) -> list[Entry]:
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


def _follow_functions(indexed: Indexed, reached: set[str], options: Options) -> set[str]:
    out: set[str] = set()
    for code, summary in indexed.summaries.items():
        if code in options.enabled:
            out |= codemods.REGISTRY[code].follow_functions({"": summary}, reached)
    return out


def _shim_result(path: Path, options: Options, since: int) -> FileResult:
    """`write_shim`, except that a shim written during this run (by the worker that wrote the first file
    importing it) is reported as the new file it is."""
    if options.write and path.exists():
        try:
            info = path.stat()
            same = path.read_bytes() == render_shim(options.settings).encode("utf-8")
        except OSError:
            same = False
        if same and info.st_mtime_ns >= since - 10_000_000:
            result = FileResult(path=str(path), status=Status.CHANGED, written=True)
            if options.want_diff:
                name = str(path)
                text = render_shim(options.settings)
                result.diff = unified_diff(name, "", text).replace(f"--- a/{name}", "--- /dev/null", 1)
            return result
    return write_shim(path, options)


def render_shim(settings: Settings) -> str:
    from importlib.resources import files

    text = (files("migrate_roots.templates") / "_mcp_roots_compat.py").read_text(encoding="utf-8")
    default = 'ALLOWLIST_ENV = "MCP_ROOTS_ALLOWED_PATHS"'
    return text.replace(default, f"ALLOWLIST_ENV = {settings.allowlist_env!r}".replace("'", '"'), 1)


def write_shim(path: Path, options: Options) -> FileResult:
    """The compatibility module, written once per package; an existing different file is left alone."""
    text = render_shim(options.settings)
    name = str(path)
    if path.exists():
        try:
            same = path.read_bytes() == text.encode("utf-8")
        except OSError as exc:
            return _failure(name, "MR901", f"cannot read: {exc.strerror or exc}")
        if same:
            return FileResult(path=name, status=Status.UNCHANGED)
        finding = Finding(
            path=name,
            line=1,
            col=1,
            code="MR906",
            message="the compatibility module exists and differs from this version's; left as it is",
            severity=Severity.INFO,
        )
        return FileResult(path=name, status=Status.UNCHANGED, findings=[finding])
    result = FileResult(path=name, status=Status.CHANGED)
    if options.want_diff:
        result.diff = unified_diff(name, "", text).replace(f"--- a/{name}", "--- /dev/null", 1)
    if options.write:
        try:
            writer.write_new(path, text.encode("utf-8"))
        except OSError as exc:
            return _failure(name, "MR901", f"cannot write: {exc.strerror or exc}")
        result.written = True
    return result


def _display(path: Path) -> Path:
    """A path relative to the working directory when it lies below it (as the user named the others)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


class _Known:
    """Package root -> rule code -> path -> summary of the stage-one files, read from the spill for the
    package of the stage-two file asked about (the last package is kept: files come in path order)."""

    def __init__(self, spill: Spill, entries: list[Entry]) -> None:
        self.spill = spill
        self.by_root: dict[str, list[Entry]] = {}
        for entry in entries:
            if entry.planned:
                self.by_root.setdefault(entry.package_root, []).append(entry)
        self.last: tuple[str, dict[str, dict[str, Any]] | None] = ("", None)

    def get(self, path: Path) -> dict[str, dict[str, Any]] | None:
        root = package_info(path)[2]
        if self.last[0] != root or self.last[1] is None:
            entries = self.by_root.get(root)
            self.last = (
                root,
                _by_code({e.path: self.spill.get(cast(Ref, e.ref)) for e in entries}) if entries else None,
            )
        return self.last[1]


def _by_code(indexed: Mapping[Path, Indexed]) -> dict[str, dict[str, Any]]:
    """Rule code -> path -> summary."""
    by_code: dict[str, dict[str, Any]] = {}
    for path, item in indexed.items():
        for code, summary in item.summaries.items():
            by_code.setdefault(code, {})[str(path)] = summary
    return by_code


def _groups(entries: list[Entry]) -> list[list[Entry]]:
    """The files whose plans may depend on each other, in `entries` order: files of one top-level package, of
    packages one refers to another's modules (`Rule.links`), and outside packages, of one folder. Planning each
    group alone gives the plan of the whole run (tests/test_engine_groups.py), and keeps only one group's
    summaries in memory."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    # A module is its import name within its own import root: two loose `server.py` in sibling folders, or two
    # packages `app` under `examples/a/src` and `examples/b/src`, are different modules (and groups).
    def key(entry: Entry) -> str:
        return f"m:{_import_root(entry)}\0{entry.module.split('.')[0]}"

    tops: dict[str, list[str]] = {}
    for entry in entries:
        tops.setdefault(entry.module.split(".")[0], []).append(key(entry))
    for entry in entries:
        mine = key(entry)
        find(mine)
        if "." not in entry.module:
            union(mine, "d:" + os.path.dirname(str(entry.path)))
        for link in entry.links:
            for other in tops.get(link, ()):  # a link by name joins every root that has the name
                union(mine, other)
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(find(key(entry)), []).append(entry)
    return list(groups.values())


def _import_root(entry: Entry) -> str:
    """The folder `entry`'s module is imported from (see `_roots_plan.import_root`)."""
    in_package = "." in entry.module or entry.path.stem == "__init__"
    return os.path.dirname(entry.package_root) if in_package else entry.package_root


def _settle(
    entries: list[Entry], spill: Spill, rules: Mapping[str, type[Rule]], options: Options
) -> list[Entry]:
    """After the index, group by group: which files keep their index result, which keep the rewrite guessed
    under the plan of their own file (the package-wide plan for them turned out the same: the common case),
    and which are rewritten again in the workers (returned, in path order)."""
    dispatch: list[Entry] = []
    groups = _groups([e for e in entries if e.failed is None and (e.planned or e.needs_rewrite)])
    for entry in entries:
        entry.links = _NONE  # grouped: no longer needed, and a run keeps its entries to the end
    for group in groups:
        loaded: dict[Path, Indexed] = {e.path: spill.get(cast(Ref, e.ref)) for e in group}
        plan = _plan(_by_code(loaded), rules, options.settings)
        for entry in group:
            item = loaded[entry.path]
            if not (item.needs_rewrite or str(entry.path) in plan):
                continue
            mine = plan.get(str(entry.path), {})
            entry.kind = "dispatch"
            if item.guess is not None and item.guess_plan == mine:
                guess = _unpickled(item.guess) if options.write else None
                if guess is None or guess.new is None:
                    entry.kind = "ready"
                    continue
                entry.commit = True
            entry.plan_ref = spill.put(mine)
            dispatch.append(entry)
    for entry in entries:
        entry.module = entry.package_root = ""
    return sorted(dispatch, key=lambda e: e.path.as_posix())


def _dispatched(entry: Entry, spill: Spill, options: Options) -> Dispatch:
    guess = _unpickled(spill.get(cast(Ref, entry.ref)).guess) if entry.commit else None
    return entry.path, guess, spill.get(cast(Ref, entry.plan_ref))


def _outcome(
    item: FileResult | Entry, spill: Spill, rewritten: Iterator[FileResult]
) -> tuple[FileResult, bool]:
    """A file's final result, and whether it came from the rewrite phase."""
    if isinstance(item, FileResult):
        return item, False
    if item.kind == "dispatch":
        return next(rewritten), True
    indexed: Indexed = spill.get(cast(Ref, item.ref))
    if item.kind == "ready":
        return _unpickled(cast(bytes, indexed.guess)).result, True
    return indexed.result, False


Dispatch = tuple[Path, Guess | None, Mapping[str, Any]]  # a file, its confirmed guess, its plan


def _plan(
    by_code: Mapping[str, Mapping[str, Any]], rules: Mapping[str, type[Rule]], settings: Settings
) -> dict[str, dict[str, Any]]:
    """Path -> rule code -> instructions, from rule code -> path -> summary."""
    plan: dict[str, dict[str, Any]] = {}
    for code, per_file in by_code.items():
        for path_name, instructions in rules[code].plan(per_file, settings).items():
            plan.setdefault(path_name, {})[code] = instructions
    return plan


def _rewrite_one(item: Dispatch, options: Options) -> FileResult:
    path, guess, plan = item
    if guess is not None:
        return commit_file(path, options, guess)
    return rewrite_file(path, options, plan)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
