"""A server that speaks MCP by hand (JSON-RPC over stdio, no SDK import; MCPyDoc): its roots request and its
list_changed branch are MCP all the same, and were silent (the file was not even parsed)."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
import json


class Rpc:
    def __init__(self) -> None:
        self.asked = False

    def ask_roots(self) -> None:
        if not self.asked:
            self.asked = True
            print(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}), flush=True)

    def dispatch(self, msg: dict) -> None:
        if msg.get("method") == "notifications/roots/list_changed":
            self.asked = False
            self.ask_roots()
"""

CLIENT = """\
import json


def answer(msg: dict) -> str:
    if msg.get("method") == "roots/list":
        return json.dumps({"id": msg["id"], "result": {"roots": [{"uri": "file:///srv"}]}})
    return ""
"""


def _findings(tmp_path, source: str):
    (tmp_path / "rpc.py").write_text(textwrap.dedent(source))
    results = helpers.run_engine(tmp_path, write=False)
    return [(f.code, f.line, f.message) for r in results for f in r.findings]


def test_noop_a_client_answering_roots_by_hand_is_no_request(tmp_path):
    assert _findings(tmp_path, CLIENT) == []


def test_a_roots_request_and_a_list_changed_branch_by_hand_are_reported(tmp_path):
    found = _findings(tmp_path, SERVER)
    assert [(code, line) for code, line, _ in found] == [("MR101", 11), ("MR202", 14)], found
    assert 'roots asked for by hand (a JSON-RPC request for `"roots/list"`)' in found[0][2]
    assert "roots list_changed referenced in a form migrate-roots does not remove" in found[1][2]


def test_the_method_handed_to_a_request_helper_is_reported(tmp_path):
    # MCPyDoc's own spelling: `request_id, request_json = self._create_request("roots/list")`.
    source = SERVER.replace(
        'print(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}), flush=True)',
        'print(self._create_request("roots/list"), json.dumps({}))',
    ).replace(
        "    def ask_roots(self) -> None:",
        "    def _create_request(self, method: str) -> str:\n        return method\n\n    def ask_roots(self) -> None:",
    )
    found = _findings(tmp_path, source)
    assert [code for code, _, _ in found] == ["MR101", "MR202"], found


def test_the_method_name_held_in_a_constant_is_reported_where_it_is_defined(tmp_path):
    # chuk-mcp-server's spelling: a protocol enum (or a module constant) sends it elsewhere.
    source = """\
        from enum import Enum


        class Method(str, Enum):
            TOOLS_LIST = "tools/list"
            ROOTS_LIST = "roots/list"


        ROOTS_METHOD: str = "roots/list"
        SEEN = {"roots/list": 0}


        def handle(method: str) -> bool:
            local = "roots/list"
            return method == local
        """
    found = _findings(tmp_path, source)
    # The local too (a local may be what a request is sent with); its text says a match needs no change.
    assert [(code, line) for code, line, _ in found] == [("MR101", 6), ("MR101", 9), ("MR101", 14)], found
    assert "the roots/list method name, held in `ROOTS_LIST`" in found[0][2]
    assert "held in `ROOTS_METHOD`" in found[1][2]
    assert "held in `local`" in found[2][2] and "checks, matches or labels something with it" in found[2][2]


@pytest.mark.parametrize(
    ("spelled", "said"),
    [
        ('METHODS = ("roots/list", "tools/list")', "listed in `METHODS`"),
        ('ROOTS_LIST, TOOLS_LIST = "roots/list", "tools/list"', "held in `ROOTS_LIST`"),
        ('ROOTS_LIST = "roots/" "list"', "held in `ROOTS_LIST`"),
        ('ROOTS_LIST = "roots/" + "list"', "held in `ROOTS_LIST`"),
        ("ROOTS_LIST = r'roots/list'", "held in `ROOTS_LIST`"),
        ('ROOTS_LIST = f"roots/list"', "held in `ROOTS_LIST`"),
        ('TABLE = {"list_roots": "roots/list"}', "here in a dict"),
        ('NS = SimpleNamespace(ROOTS_LIST="roots/list")', "here in a call of `SimpleNamespace`"),
    ],
)
def test_the_method_name_however_spelled_is_reported(tmp_path, spelled, said):
    # The docstring lets the prefilter read a file that spells the name only in pieces (`"roots/" "list"`).
    head = '"""Protocol method names (roots/list, tools/list)."""\n\nfrom types import SimpleNamespace\n\n'
    found = _findings(tmp_path, head + spelled + "\n")
    assert [code for code, _, _ in found] == ["MR101"], found
    assert said in found[0][2], found


def test_a_request_written_out_as_json_text_is_reported(tmp_path):
    source = """\
        async def ask_roots(write) -> None:
            await write('{"jsonrpc": "2.0", "id": 7, "method": "roots/list"}')
        """
    found = _findings(tmp_path, source)
    assert [(code, line) for code, line, _ in found] == [("MR101", 2)], found
    assert "roots asked for by hand" in found[0][2]


def test_the_method_name_where_nothing_sends_a_request_is_reported_with_a_hedge(tmp_path):
    # A gateway answering roots/list from its own configuration (mcp-contextforge-gateway): an authorization
    # check given the method, and an error's data naming it. Not silent; not called a request.
    source = """\
        def authorize(user: str, method: str) -> bool:
            return user == "admin"


        def answer(user: str) -> dict:
            if not authorize(user, method="roots/list"):
                raise PermissionError({"method": "roots/list"})
            return {"roots": []}
        """
    found = _findings(tmp_path, source)
    assert [(code, line) for code, line, _ in found] == [("MR101", 6), ("MR101", 7)], found
    assert "the roots/list method name, here in a call of `authorize`" in found[0][2]
    assert "here in a dict with no other JSON-RPC field" in found[1][2]
    assert all("roots asked for by hand" not in text for _, _, text in found)
    assert all(
        "code that checks, answers or labels an incoming roots/list needs no change" in t for *_, t in found
    )


def test_the_list_changed_name_in_a_constant_or_a_list_is_no_handler_to_remove(tmp_path):
    source = """\
        ROOTS_CHANGED = "notifications/roots/list_changed"
        KNOWN = frozenset({"notifications/roots/list_changed", "tools/list"})
        """
    found = _findings(tmp_path, source)
    assert [(code, line) for code, line, _ in found] == [("MR202", 1), ("MR202", 2)], found
    assert "the roots list_changed notification's name, held in `ROOTS_CHANGED`" in found[0][2]
    assert "the roots list_changed notification's name, listed here" in found[1][2]
    assert all("code that only names or matches it needs no change" in text for _, _, text in found)


@pytest.mark.parametrize(
    "ask",
    [
        "request = types.ListRootsRequest()\n"
        "    return await session.send_request(types.ServerRequest(request), types.ListRootsResult)",
        "wrapped = types.ServerRequest(types.ListRootsRequest())\n"
        "    return await session.send_request(wrapped, RESULT)",
        "return await session.send_request(make(), types.ListRootsResult)",
    ],
    ids=["request-in-a-local", "wrapped-in-a-local", "result-type-only"],
)
def test_a_raw_roots_request_built_in_steps_is_reported(tmp_path, ask):
    # openmcp-python / dedalus-mcp-python build the request in a local first: it was silent (helpers' sweep).
    source = textwrap.dedent("""\
        from mcp import types

        RESULT = types.ListRootsResult


        def make():
            return None


        async def fetch_roots(session):
            {ask}
        """).format(ask=ask)
    found = _findings(tmp_path, source)
    assert [code for code, _, _ in found] == ["MR101"], found
    assert "roots asked for as a raw request" in found[0][2]


def test_noop_another_request_sent_through_a_local_is_no_roots_request(tmp_path):
    source = """\
        from mcp import types

        KNOWN = (types.ListRootsRequest, types.PingRequest)  # the file is read: it names the roots request


        async def ping(session):
            request = types.PingRequest()
            return await session.send_request(types.ServerRequest(request), types.EmptyResult)
        """
    assert _findings(tmp_path, source) == []


@pytest.mark.parametrize("head", ["", "#!/usr/bin/env python\n", "# Protocol method names.\n"])
def test_a_marker_on_the_first_statement_of_a_module_is_written_once(tmp_path, head):
    # Comments above a module's first statement parse back as its header: a second run added the marker again.
    (tmp_path / "methods.py").write_text(head + 'ROOTS_LIST = "roots/list"\n')
    helpers.run_engine(tmp_path)
    first = (tmp_path / "methods.py").read_text()
    assert first.count("# migrate-roots: MR101") == 1, first
    again = helpers.run_engine(tmp_path)
    assert (tmp_path / "methods.py").read_text() == first
    assert [r.status.value for r in again] == ["unchanged"]


def test_a_relay_marks_its_roots_branch_only(tmp_path):
    # mcp-agent's app server relays a workflow's request to the client, one branch per method, each binding
    # `req` anew: only the roots branch asks for roots (the sampling one was flagged too by the first cut).
    source = """\
        from mcp.types import CreateMessageRequest, ListRootsRequest, ListRootsResult, ServerRequest


        async def relay(session, method: str, params: dict):
            if method == "sampling/createMessage":
                req = ServerRequest(CreateMessageRequest(method="sampling/createMessage", params=params))
                return await session.send_request(request=req, result_type=dict)
            elif method == "roots/list":
                req = ServerRequest(ListRootsRequest(method="roots/list"))
                return await session.send_request(request=req, result_type=ListRootsResult)
            return None
        """
    found = _findings(tmp_path, source)
    assert [(code, line) for code, line, _ in found] == [("MR101", 9)], found
    assert "roots asked for as a raw request" in found[0][2]


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            'client.set_request_handler("roots/list", answer)',
            "here in a call of `client.set_request_handler`",
        ),
        ('ROOTS_LIST = "roots/list".encode()', "held in `ROOTS_LIST`"),
        ('REQ = b\'{"jsonrpc": "2.0", "id": 1, "method": "roots/list"}\'', "roots asked for by hand"),
        ('KNOWN = frozenset({"roots/list", "tools/list"})', "listed in `KNOWN`"),
    ],
    ids=["a-handler-registration", "encoded", "json-bytes", "frozenset"],
)
def test_more_spellings_of_the_method_name(tmp_path, source, said):
    head = "def answer(*args):\n    return None\n\n\nclient = None\n\n"
    found = _findings(tmp_path, head + source + "\n")
    assert [code for code, _, _ in found] == ["MR101"], found
    assert said in found[0][2], found
