"""Per-file work (runs in worker processes): index a file (and guess its rewrite under its own plan), rewrite
it under the package-wide plan, or commit a confirmed guess; every problem with the input becomes a failed
result.
"""

from __future__ import annotations

import dataclasses
import os
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrate_roots import codemods, guards, sourcefile, writer
from migrate_roots.engine_output import _Linked, _ReadOnly, _rewritten, _write
from migrate_roots.engine_plan import _plan
from migrate_roots.engine_types import (
    Dispatch,
    Entry,
    Guess,
    Indexed,
    Moves,
    Options,
    Rewritten,
    _failure,
    _hash,
    _pickled,
)
from migrate_roots.engine_walk import _analyse, _parse, _ParseFailure, _walk
from migrate_roots.model import FileResult, Finding, Status

if TYPE_CHECKING:
    import libcst as cst

    from migrate_roots.codemods.base import FileState


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
    except _Linked:
        target = os.path.realpath(name)
        return _failure(name, "MR908", f"a symbolic link to `{target}`: not written over (migrate that file)")
    except OSError as exc:
        return _failure(name, "MR901", f"cannot write: {exc.strerror or exc}")
    except RecursionError:
        if _nesting(data) >= _DEEP:
            return _failure(name, "MR903", "cannot process: nesting too deep")
        # A flat file: the recursion is the analysis's own, a bug to report, not the file's fault.
        return _internal(name, options, "RecursionError in the analysis of a file nested only shallowly")
    except Exception as exc:  # an internal error must not stop the run
        return _internal(name, options, f"{type(exc).__name__}: {exc}")


# Brackets and indents this deep make the parser or the walks recurse past Python's limit (a generated file);
# below it a RecursionError is the tool's own.
_DEEP = 100


def _nesting(data: bytes) -> int:
    """The deepest nesting of brackets plus indents in `data`, by tokens (no recursion)."""
    import io
    import tokenize

    deepest = depth = 0
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.INDENT or (token.type == tokenize.OP and token.string in "([{"):
                depth += 1
            elif token.type == tokenize.DEDENT or (token.type == tokenize.OP and token.string in ")]}"):
                depth -= 1
            deepest = max(deepest, depth)
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return _DEEP  # not tokenizable: keep the parse-side answer
    return deepest


def _internal(name: str, options: Options, message: str) -> FileResult:
    detail = traceback.format_exc() if options.verbose else ""
    result = _failure(name, "MR904", f"internal error: {message}")
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
    onward: set[str] = set()
    for code, summary in indexed.summaries.items():
        rule = codemods.REGISTRY[code]
        links |= rule.links(summary)
        if code in options.enabled:
            follow |= rule.follow_tokens({str(path): summary})
            functions |= rule.follow_functions({str(path): summary}, set())
            modules |= rule.follow_modules({str(path): summary})
            onward |= rule.follow_onward({str(path): summary})
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
        onward=frozenset(onward),
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
        result, new, moved = _rewritten(path, source, module, state, options)
        return plan, Guess(result, new if options.write else None, _hash(data), moved)
    except Exception:  # a speculation only: the rewrite phase redoes it for real and reports any error
        return None


def rewrite_file(
    path: Path, options: Options, plan: Mapping[str, Any], moved: list[Moves] | None = None
) -> FileResult:
    """Rewrite one file under its plan; `moved` gets the lines the rewrite moved."""

    def work(data: bytes) -> FileResult:
        source, module, state, _ = _analyse(path, data, options, "rewrite", plan)
        result, new, lines = _rewritten(path, source, module, state, options)
        if new is not None and options.write:
            _write(path, new, data, result, options)
        if moved is not None:
            moved.append(lines)
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


def _rewrite_one(item: Dispatch, options: Options) -> Rewritten:
    path, guess, plan = item
    if guess is not None:
        result = commit_file(path, options, guess)
        return result, guess.moved if result.status is Status.CHANGED else ()
    moved: list[Moves] = []
    result = rewrite_file(path, options, plan, moved)
    return result, moved[0] if moved else ()
