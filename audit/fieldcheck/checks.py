"""Per repository: files that stop compiling, and new pyflakes undefined or unused names.

Both are compared before/after as multisets with line numbers ignored (the migration moves lines).
pyflakes runs in this process (it is a test dependency of the project); when it is missing, the
check says so instead of reporting zero.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

#: pyflakes message classes that name an undefined or unused name (the ones a bad rewrite produces)
NAME_MESSAGES = (
    "UndefinedName",
    "UndefinedLocal",
    "UndefinedExport",
    "UnusedImport",
    "UnusedVariable",
    "UnusedAnnotation",
    "RedefinedWhileUnused",
    "ImportShadowedByLoopVar",
)


def compile_error(source: str, file: str) -> str | None:
    """Why ``source`` does not compile with this interpreter, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, file, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def pyflakes_names(source: str, file: str) -> list[tuple[str, str, str]] | None:
    """``(file, message class, message)`` for each undefined/unused-name message; None if it cannot parse."""
    from pyflakes import checker  # imported here: the rest of the scoring needs nothing outside the stdlib

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source, filename=file)
    except (SyntaxError, ValueError):
        return None
    found = checker.Checker(tree, filename=file)
    out = []
    for msg in found.messages:
        kind = type(msg).__name__
        if kind in NAME_MESSAGES:
            out.append((file, kind, msg.message % msg.message_args))
    return out


def new_items(before: Iterable, after: Iterable) -> list:
    """Items of ``after`` not in ``before``, as multisets (each before item cancels one after item)."""
    left = Counter(tuple(x) if isinstance(x, list) else x for x in before)
    out = []
    for item in after:
        key = tuple(item) if isinstance(item, list) else item
        if left[key]:
            left[key] -= 1
        else:
            out.append(item)
    return out


def scan(tree: Path, files: list[str]) -> dict:
    """Compile errors and pyflakes names of ``files`` (relative to ``tree``) as they are now."""
    compile_errors: dict[str, str] = {}
    names: list[tuple[str, str, str]] = []
    pyflakes_missing = False
    for rel in files:
        path = tree / rel
        if not path.exists():
            continue
        source = path.read_text(encoding="utf-8", errors="replace")
        err = compile_error(source, rel)
        if err:
            compile_errors[rel] = err
            continue
        if pyflakes_missing:
            continue
        try:
            found = pyflakes_names(source, rel)
        except ImportError:
            pyflakes_missing = True
            continue
        names.extend(found or [])
    return {
        "compile_errors": compile_errors,
        "pyflakes": [list(n) for n in names],
        "pyflakes_missing": pyflakes_missing,
    }


def _unnumbered(names: list) -> list:
    """pyflakes names with the lines they cite left out (`redefinition of unused 'x' from line 195`): an
    import the migration adds above moves the line, not the finding (gdc-claude-plugin, session 15)."""
    return [[*n[:-1], re.sub(r"\bline \d+", "line N", n[-1])] for n in names]


def compare_scans(before: dict, after: dict) -> dict:
    """What the migration broke: files compiling before and not after, and new pyflakes names."""
    stopped = {f: e for f, e in after["compile_errors"].items() if f not in before["compile_errors"]}
    return {
        "stopped_compiling": stopped,
        "new_pyflakes": [
            list(x) for x in new_items(_unnumbered(before["pyflakes"]), _unnumbered(after["pyflakes"]))
        ],
        "pyflakes_missing": before.get("pyflakes_missing") or after.get("pyflakes_missing"),
    }
