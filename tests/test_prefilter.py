"""The prefilter's requirement is the word `mcp`, not the three letters anywhere."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrate_roots import codemods

LOGGING = codemods.trigger_pattern(codemods.select_codes(["MR501"]))


def test_no_requirement_no_tokens_is_none():
    assert codemods.trigger_pattern([]) is None


@pytest.mark.parametrize(
    "source",
    [
        b"flags = '-mcpu=power9'\nlog.info('x')\n",  # numpy's compiler-flags table
        b"import logging\nlogging.info('x')\n",
        b"class Amcp: pass\nx.info(1)\n",
        b"from mcp.server import x\n",  # the requirement alone, no token
    ],
)
def test_not_a_candidate(source):
    assert LOGGING is not None and not LOGGING.search(source)


@pytest.mark.parametrize(
    "source",
    [
        b"from mcp.server.fastmcp import Context\nawait ctx.info('x')\n",
        b"import mcp\nawait ctx.info('x')\n",
        b"from fastmcp import Context\nawait ctx.info('x')\n",
        b"from mcp_server_git.app import ctx\nawait ctx.info('x')\n",
        b"from mcp2 import x\nawait ctx.info('x')\n",
    ],
)
def test_candidate(source):
    assert LOGGING is not None and LOGGING.search(source)


# The word test is hand-written for speed; it must agree with the regex it replaces on any bytes.
REFERENCE = re.compile(rb"(?<![A-Za-z0-9])mcp(?![a-z])|fastmcp")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"mcp", b"fast", b"a", b"Z", b"9", b"_", b".", b" ", b"\n", b"-", b"\xe9"])))
def test_word_agrees_with_the_reference_regex(parts):
    data = b"".join(parts)
    assert bool(codemods.requirement(b"mcp")(data)) == bool(REFERENCE.search(data))


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.text("abc_1", min_size=1, max_size=5).map(str.encode), min_size=1, max_size=40),
    st.text("abc_1 .", max_size=40).map(str.encode),
)
def test_stage_two_search_agrees_with_substring_tests(tokens, data):
    assert codemods.AnyOf(tokens).search(data) == any(t in data for t in tokens)


def test_shared_core_is_what_every_token_holds():
    assert codemods._shared_core([b"ListRootsRequest", b"list_roots", b"roots/list"]) == b"oots"
    assert codemods._shared_core([b"send_", b"set_"]) == b""  # "se" is too short to help


def test_the_core_gate_is_the_default_roots_tokens():
    trigger = codemods.trigger_pattern(codemods.select_codes([]))
    assert trigger is not None and trigger.plain is not None and trigger.plain.core == b"oots"
    assert trigger.search(b"x = session.list_roots\n") and not trigger.search(b"x = roots\n")


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.tuples(st.text("ab_", max_size=3), st.text("ab_", max_size=3)), min_size=2, max_size=12),
    st.lists(st.sampled_from([b"a", b"b", b"_", b"cor", b"core", b"ore", b" "]), max_size=30),
)
def test_tokens_sharing_a_core_agree_with_substring_tests(affixes, parts):
    tokens = {f"{before}core{after}".encode() for before, after in affixes}
    data = b"".join(parts)
    assert codemods.AnyOf(tokens).search(data) == any(t in data for t in tokens)
