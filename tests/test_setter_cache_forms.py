"""Setter caches in the forms sweeps I and G of session 21 found silent (MR212 at the read and the setter):
the absence test through a predicate imported from the state module (`if not is_bound():`, I r07); a module
function as the setter (`bind_project(uri)`, I r08), of another module or this one, on a global's attribute or
on the global itself; a refresh test (`if binding.stale():`, whose method reads the time stamp `bind` writes,
I r09); a ContextVar whose default is one object every request shares (`binding.get().bind(...)`, G r11).
Each was rewritten before, and the second call's explicit `root` answered with the first call's directory."""

from __future__ import annotations

import pytest

from tests import helpers

STATE = """\
import time


class Binding:
    def __init__(self) -> None:
        self.project: str | None = None
        self.at = 0.0
        self.verbose = False

    def bind(self, project: str) -> None:
        self.project = project
        self.at = time.monotonic()

    def stale(self) -> bool:
        return time.monotonic() - self.at > 300

    def chatty(self) -> bool:
        return self.verbose


binding = Binding()
_project = None


def is_bound() -> bool:
    return binding.project is not None


def is_quiet() -> bool:
    return not binding.verbose


def bind_project(project: str) -> None:
    binding.project = project


def set_project(project: str) -> None:
    global _project
    _project = project


def log_project(project: str) -> None:
    print(project)
"""
TOOL = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

from pkg.state import {imports}

mcp = FastMCP("proj")


@mcp.tool()
async def project(ctx: Context) -> str:
    if {test}:
        result = await ctx.session.list_roots()
        {setter}(Path(result.roots[0].uri.path).name)
    return str(binding.project)
"""


def findings(tmp_path, imports: str, test: str, setter: str, state: str = STATE) -> list:
    source = TOOL.format(imports=imports, test=test, setter=setter)
    root = helpers._layout(tmp_path, source, {"state.py": state}, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


@pytest.mark.parametrize(
    ("imports", "test", "setter"),
    [
        ("binding, is_quiet", "is_quiet()", "binding.bind"),  # a setting's predicate, not an absence test
        ("binding, log_project", "binding.project is None", "log_project"),  # a function that sets nothing
        ("binding", "binding.chatty()", "binding.bind"),  # a method reading what `bind` never writes
    ],
    ids=["setting-predicate", "function-sets-nothing", "setting-method"],
)
def test_noop_tests_and_functions_that_keep_nothing(tmp_path, imports, test, setter):
    found = findings(tmp_path, imports, test, setter)
    assert "MR212" not in helpers.codes(found), found
    assert "MR101" in helpers.codes(found), found


@pytest.mark.parametrize(
    ("imports", "test", "setter", "said"),
    [
        ("binding, is_bound", "not is_bound()", "binding.bind", "the test of `binding` above the read"),
        (
            "binding, bind_project",
            "binding.project is None",
            "bind_project",
            "stay on `binding` (a global of",
        ),
        ("binding, bind_project", "not binding.project", "bind_project", "module `pkg.state`"),
        ("binding, _project, set_project", "_project is None", "set_project", "stay on `_project`"),
        ("binding", "binding.stale()", "binding.bind", "`binding.stale()` above the read skips it"),
        ("binding", "binding.project is None or binding.stale()", "binding.bind", "the test of `binding`"),
    ],
    ids=[
        "imported-predicate",
        "module-function",
        "module-function-not",
        "global-statement",
        "stale",
        "or-stale",
    ],
)
def test_setter_caches_in_other_forms_are_marked(tmp_path, imports, test, setter, said):
    found = findings(tmp_path, imports, test, setter)
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any(said in f.message for f in found), [f.message for f in found]


def test_a_module_function_setter_of_this_module(tmp_path):
    source = TOOL.format(imports="Binding", test="binding.project is None", setter="remember").replace(
        'mcp = FastMCP("proj")',
        'mcp = FastMCP("proj")\nbinding = Binding()\n\n\ndef remember(p: str) -> None:\n    binding.project = p\n',
    )
    root = helpers._layout(tmp_path, source, {"state.py": STATE}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("(a global of this module, shared by every request)" in f.message for f in found), found


CONTEXT = """\
from contextvars import ContextVar


class Binding:
    project: str | None = None

    def bind(self, uri: str) -> None:
        self.project = uri


binding: ContextVar[Binding] = ContextVar("binding", default={default})
"""


@pytest.mark.parametrize("default", ["None", "Path('.')"])
def test_noop_a_context_variable_without_a_shared_default(tmp_path, default):
    context = CONTEXT.replace("from contextvars", "from pathlib import Path\nfrom contextvars")
    found = findings(
        tmp_path,
        "binding",
        "binding.get().project is None",
        "binding.get().bind",
        context.format(default=default),
    )
    assert "MR212" not in helpers.codes(found), found


@pytest.mark.parametrize("default", ["Binding()", "dict()", "{}"])
def test_a_context_variable_whose_default_every_request_shares(tmp_path, default):
    found = findings(
        tmp_path,
        "binding",
        "binding.get().project is None",
        "binding.get().bind",
        CONTEXT.format(default=default),
    )
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any(
        "the default of the ContextVar `binding`, one object shared by every" in f.message for f in found
    )


PROPERTY_STATE = """\
import time


class Binding:
    def __init__(self) -> None:
        self._project = None
        self.at = 0.0
        self.verbose = False

    @property
    def project(self):
        return self._project

    @property
    def stale(self) -> bool:
        return time.monotonic() - self.at > 300

    @property
    def chatty(self) -> bool:
        return self.verbose

    def bind(self, project: str) -> None:
        self._project = project
        self.at = time.monotonic()


binding = Binding()
"""


@pytest.mark.parametrize("test", ["binding.chatty", "binding.verbose"])
def test_noop_a_property_over_a_setting_is_no_cache(tmp_path, test):
    found = findings(tmp_path, "binding", test, "binding.bind", PROPERTY_STATE)
    assert "MR212" not in helpers.codes(found), found


@pytest.mark.parametrize(
    ("test", "said"),
    [
        ("binding.project is None", "the test of `binding` above the read"),  # a property over `_project`
        ("binding.project in (None, '')", "the test of `binding` above the read"),
        ("binding.stale", "`binding.stale` above the read skips it while"),  # a property reading the stamp
        ("time.monotonic() - binding.at > 300", "`time.monotonic() - binding.at > 300` above the read"),
    ],
    ids=["property", "in-none-or-empty", "stale-property", "inline-ttl"],
)
def test_tests_through_properties_and_stamps_are_caches(tmp_path, test, said):
    found = findings(tmp_path, "binding", test, "binding.bind", PROPERTY_STATE)
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any(said in f.message for f in found), [f.message for f in found]


def test_a_getter_and_setter_pair_of_this_module(tmp_path):
    """sweep M r02 (session 22): `if get_project() is None:` then `set_project(found)`, both of this module."""
    pair = (
        "_project = None\n\n\ndef get_project():\n    return _project\n\n\n"
        "def set_project(p):\n    global _project\n    _project = p\n"
    )
    source = TOOL.format(imports="binding", test="get_project() is None", setter="set_project").replace(
        'mcp = FastMCP("proj")', 'mcp = FastMCP("proj")\n' + pair
    )
    root = helpers._layout(tmp_path, source, {"state.py": STATE}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(found) == ["MR212", "MR212"], found


def test_a_context_variable_of_this_module_or_through_a_local(tmp_path):
    """sweep M r05 (session 22): the var defined beside the tool, or `b = binding.get()` then `b.bind(...)`."""
    here = TOOL.format(imports="Binding", test="binding.get().project is None", setter="binding.get().bind")
    here = here.replace(
        'mcp = FastMCP("proj")',
        'from contextvars import ContextVar\n\nmcp = FastMCP("proj")\nbinding = ContextVar("b", default=Binding())\n',
    ).replace("return str(binding.project)", "return str(binding.get().project)")
    root = helpers._layout(tmp_path / "here", here, {"state.py": STATE}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(found) == ["MR212", "MR212"], found
    local = TOOL.format(imports="binding", test="b.project is None", setter="b.bind").replace(
        "    if b.project", "    b = binding.get()\n    if b.project"
    )
    root = helpers._layout(tmp_path / "local", local, {"state.py": CONTEXT.format(default="Binding()")}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert helpers.codes(found) == ["MR212", "MR212"], found
    assert any("a ContextVar's default object, shared by every request" in f.message for f in found), found
