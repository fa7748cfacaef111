"""What the engine's phases hand each other: the run's options, a file's index (`Indexed`), the main
process's record of it (`Entry`), a guessed rewrite (`Guess`), a failed file's result, and the pickling of
what waits in the spill.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from migrate_roots.config import Settings
from migrate_roots.model import Action, FileResult, Finding, Severity, Status

if TYPE_CHECKING:
    from migrate_roots.spill import Ref

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
    onward: frozenset[str] = (
        frozenset()
    )  # ... and those they join after it, a few deep (`Rule.follow_onward`)
    # After the plan: "keep" the index's result, take the confirmed guess ("ready"), or "dispatch" a rewrite
    # (under `plan_ref`, committing the guess when `commit`).
    kind: str = "keep"
    plan_ref: Ref | None = None
    commit: bool = False


# (first line as read, first line as written, how many lines) of the blocks a rewrite kept (_marker_lines).
Moves = tuple[tuple[int, int, int], ...]


@dataclass
class Guess:
    result: FileResult
    new: bytes | None = None  # the bytes to write (only when writing)
    old_hash: bytes = b""  # of the bytes the rewrite was made from
    moved: Moves = ()  # the lines the rewrite moved


Rewritten = tuple[FileResult, Moves]  # what the rewrite phase yields for a file


Dispatch = tuple[Path, Guess | None, Mapping[str, Any]]  # a file, its confirmed guess, its plan


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


def _pickled(obj: Any) -> bytes:
    import pickle

    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def _unpickled(blob: bytes) -> Guess:
    import pickle

    return cast(Guess, pickle.loads(blob))


def _hash(data: bytes) -> bytes:
    import hashlib  # 5 ms of OpenSSL start-up, for runs that parse something

    return hashlib.blake2b(data, digest_size=16).digest()
