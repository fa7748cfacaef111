"""The re-parse guard: a rewrite that is not valid Python is never written or shown."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from migrate_roots.engine_output import _verify

PATH = Path("pkg/server.py")
OLD = "def tool(ctx):\n    return 1\n"


def test_valid_rewrite_passes():
    _verify("def tool(ctx, root=None):\n    return 1\n", OLD, PATH)


def test_broken_rewrite_of_a_valid_file_is_refused_with_the_line():
    with pytest.raises(
        RuntimeError, match=r"rewrite of pkg/server\.py does not parse \(line 2: .*file left alone"
    ):
        _verify("def tool(ctx):\n    return (1\n", OLD, PATH)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="needs an interpreter older than the syntax")
def test_newer_syntax_than_this_interpreter_is_left_to_libcst():
    old = "type Paths = list[str]\n"  # 3.12 syntax: CPython 3.11 cannot parse it, libcst can
    _verify(old + "x = 1\n", old, PATH)
    with pytest.raises(RuntimeError, match="does not parse"):
        _verify(old + "x = (\n", old, PATH)


def test_null_byte_is_refused():
    with pytest.raises(RuntimeError, match="does not parse"):
        _verify("x = 1\n\0", OLD, PATH)
