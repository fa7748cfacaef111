"""`@staticmethod`, `@classmethod` and `@abc.abstractmethod` register nothing: a marker on roots read under
them gives the reason it gives without them (a registration from a value, `mcp.tool(Files.where)`), never
"decorated by `@staticmethod`, ... a registrar of the project is not followed" (sweep R, r04)."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

SRC = """\
import abc
from abc import abstractmethod

from fastmcp import Context, FastMCP

mcp = FastMCP("main")


class Files:
    base = "x"

    {decorator}
    async def where({first}ctx: Context) -> str:
        {read}
        return "here"


mcp.tool(Files.where)
"""

SPELLINGS = [
    ("", "self, "),
    ("@staticmethod", ""),
    ("@classmethod", "cls, "),
    ("@abstractmethod", "self, "),
    ("@abc.abstractmethod", "self, "),
    ("@staticmethod\n    @abstractmethod", ""),
]


def _src(decorator: str, first: str, read: str) -> str:
    return SRC.format(decorator=decorator, first=first, read=read)


@pytest.mark.parametrize(("decorator", "first"), SPELLINGS)
def test_noop_no_roots(tmp_path, decorator, first):
    assert check_noop(tmp_path, _src(decorator, first, "pass")) == []


@pytest.mark.parametrize(("decorator", "first"), SPELLINGS)
def test_marker_cites_the_registration(tmp_path, decorator, first):
    findings = check_noop(tmp_path, _src(decorator, first, "roots = await ctx.list_roots()"))
    assert helpers.codes(findings) == ["MR103"]
    message = findings[0].message
    assert "Tools registered from a value migrate-roots cannot follow to a function, such as " in message
    assert "`mcp.tool(Files.where)` (pkg/server.py:" in message
    assert "decorated by" not in message and "registrar of the project" not in message


def test_project_decorator_still_named(tmp_path):
    """A decorator of the project above `@staticmethod` is still the one named."""
    src = _src("@staticmethod\n    @audited", "", "roots = await ctx.list_roots()").replace(
        'mcp = FastMCP("main")\n', 'mcp = FastMCP("main")\n\n\ndef audited(fn):\n    return fn\n'
    )
    findings = check_noop(tmp_path, src)
    assert helpers.codes(findings) == ["MR103"]
    assert "decorated by `@audited`" in findings[0].message
