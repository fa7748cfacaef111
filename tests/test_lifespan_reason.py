"""Roots read in a server's lifespan (sweep Q, w1; visor-mcp): the marker said "decorated by
`@asynccontextmanager`, which migrate-roots does not know as a tool registration (a registrar of the project is not
followed)". `asynccontextmanager` is the standard library's, and the function is the server's lifespan: the marker
now says so, with the registration's place."""

from __future__ import annotations

import pytest

from tests import helpers

LIFESPAN = """\
import os
from contextlib import asynccontextmanager

from mcp.server.fastmcp import FastMCP

STATE = {{"workspace": os.getcwd()}}


@asynccontextmanager
async def lifespan(server: FastMCP):
    yield
    {read}


async def _first(server: FastMCP) -> None:
    result = await server.get_context().session.list_roots()
    STATE["workspace"] = str(result.roots[0].uri)


{registration}


@mcp.tool()
def where() -> str:
    return STATE["workspace"]
"""

REGISTRATIONS = {
    "constructor": 'mcp = FastMCP("demo", lifespan=lifespan)',
    "settings": 'mcp = FastMCP("demo")\nmcp.settings.lifespan = lifespan',
}
READS = {
    "in place": "result = await server.get_context().session.list_roots()",
    "through a helper": "await _first(server)",
}


def _marker(tmp_path, source: str):
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path, select=["MR1"], write=False)
    return [f for r in results for f in r.findings if f.code == "MR103"]


def test_noop_a_context_manager_that_is_no_lifespan_is_not_called_a_registrar(tmp_path):
    source = LIFESPAN.format(read=READS["in place"], registration='mcp = FastMCP("demo")')
    found = _marker(tmp_path, source)
    assert found, source
    assert "asynccontextmanager" not in found[0].message
    assert "lifespan runs" not in found[0].message


@pytest.mark.parametrize("registration", sorted(REGISTRATIONS))
@pytest.mark.parametrize("read", sorted(READS))
def test_a_read_in_the_lifespan_says_so_with_the_registration(tmp_path, registration, read):
    source = LIFESPAN.format(read=READS[read], registration=REGISTRATIONS[registration])
    found = [f for f in _marker(tmp_path, source) if "`lifespan`" in f.message]
    assert len(found) == 1, found  # (in place, the unused `_first` has its own marker)
    message = found[0].message
    spelled = REGISTRATIONS[registration].splitlines()[-1]
    spelled = "FastMCP(..., lifespan=lifespan)" if registration == "constructor" else spelled
    line = source.splitlines().index(REGISTRATIONS[registration].splitlines()[-1]) + 1
    assert f"the handler `lifespan` registered by `{spelled}` (server.py:{line})" in message, message
    assert "the server's lifespan runs at its start, outside any request" in message
    assert "asynccontextmanager" not in message
