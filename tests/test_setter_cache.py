"""Roots kept through a setter method (field sweep, session 20): `binding.bind(<roots>)` under
`if binding.project is None:` keeps them as `binding.project = <roots>` would, so a path argument would be
answered with the first caller's value on every later call. Marked MR212 at the read and at the call.
And the list_changed handler that resets such an object through a function-local import
(`from pkg.state import binding; binding.reset()`, mcp-guide's shape) is kept (MR202), never removed."""

from __future__ import annotations

import pytest

from tests import helpers

STATE = """\
class Binding:
    def __init__(self) -> None:
        self.project: str | None = None

    def bind(self, name: str) -> None:
        self.project = name

    def reset(self) -> None:
        self.project = None

    def bind_once(self, name: str) -> None:
        if self.project is None:
            self.project = name

    def bind_again(self, name: str) -> None:
        if self.project is not None:
            print("rebinding")
        self.project = name


binding = Binding()
"""

TOOL = """\
from pathlib import Path

import mcp.types as types
from mcp.server.fastmcp import Context, FastMCP

from pkg.state import binding

mcp = FastMCP("proj")


@mcp.tool()
async def project(ctx: Context) -> str:
    {body}
    return binding.project or ""
"""


def findings(tmp_path, source: str) -> list:
    root = helpers._layout(tmp_path, source, {"state.py": STATE}, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


@pytest.mark.parametrize(
    "body",
    [
        # no test of `binding` before the read: every call reads again, the argument is honoured
        "result = await ctx.session.list_roots()\n    binding.bind(Path(result.roots[0].uri.path).name)",
        # the test is of something else
        "if ctx is not None:\n        result = await ctx.session.list_roots()\n"
        "        binding.bind(Path(result.roots[0].uri.path).name)",
        # the value handed on is not the roots'
        "if binding.project is None:\n        result = await ctx.session.list_roots()\n"
        "        binding.bind('fixed')\n        print(result)",
        # the test is below the read: it does not decide whether roots are read (sweep D r06)
        "result = await ctx.session.list_roots()\n    if binding.project is None:\n"
        "        binding.bind(Path(result.roots[0].uri.path).name)",
        # a setting decides whether roots are read, not whether they are kept (sweep F r08)
        "if binding.enforce:\n        result = await ctx.session.list_roots()\n"
        "        binding.check(Path(result.roots[0].uri.path).name)",
    ],
    ids=["unguarded", "other-test", "other-value", "test-below-the-read", "a-setting"],
)
def test_noop_a_setter_call_that_does_not_cache_is_rewritten(tmp_path, body):
    found = findings(tmp_path, TOOL.format(body=body))
    assert "MR101" in helpers.codes(found), found
    assert "MR212" not in helpers.codes(found), found


@pytest.mark.parametrize(
    "body",
    [
        "if binding.project is None:\n        result = await ctx.session.list_roots()\n"
        "        binding.bind(Path(result.roots[0].uri.path).name)",
        "if not binding.project:\n        result = await ctx.session.list_roots()\n"
        "        name = Path(result.roots[0].uri.path).name\n        binding.bind(name=name)",
        "while binding.project is None:\n        result = await ctx.session.list_roots()\n"
        "        binding.bind(result.roots[0].uri.path)",
        "if binding.project is not None:\n        return binding.project\n"
        "    result = await ctx.session.list_roots()\n    binding.bind(Path(result.roots[0].uri.path).name)",
    ],
    ids=["is-none", "keyword-through-name", "while", "early-return"],
)
def test_roots_kept_through_a_setter_are_marked(tmp_path, body):
    found = findings(tmp_path, TOOL.format(body=body))
    assert "MR101" not in helpers.codes(found), found
    texts = [f.message for f in found if f.code == "MR212"]
    assert any("on `binding` through `binding.bind()`" in t for t in texts), texts
    assert any("roots handed to `binding.bind()` stay on `binding`" in t for t in texts), texts


HANDLER = """\
import mcp.types as types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("proj")


async def _on_roots_changed(_notification: types.RootsListChangedNotification) -> None:
    {body}


mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed
"""


@pytest.mark.parametrize(
    "body",
    [
        "from pkg.state import binding\n\n    binding.reset()",
        "from .state import binding\n\n    binding.reset()",
        "from pkg import state\n\n    state.binding.reset()",
        "from pkg.state import binding as b\n\n    b.reset()",
        "from .state import Binding\n\n    Binding.forget()",
    ],
    ids=["absolute", "relative", "module", "aliased", "called-name"],
)
def test_a_handler_that_resets_package_state_through_a_local_import_stays(tmp_path, body):
    found = findings(tmp_path, HANDLER.format(body=body))
    assert "MR201" not in helpers.codes(found), found
    assert any(f.code == "MR202" and ("reset()" in f.message or "Binding" in f.message) for f in found), found


def test_a_handler_with_a_local_stdlib_import_still_goes(tmp_path):
    found = findings(
        tmp_path, HANDLER.format(body="import logging\n\n    logging.getLogger().info('changed')")
    )
    assert helpers.codes(found) == ["MR201"], found


def test_noop_a_context_variable_set_under_its_own_test_is_per_request(tmp_path):
    """sweep D r07 (session 20): `if _workspace.get() is None: _workspace.set(...)` is set per request context."""
    source = TOOL.format(
        body="if _workspace.get() is None:\n        result = await ctx.session.list_roots()\n"
        "        _workspace.set(result.roots[0].uri.path)"
    ).replace('mcp = FastMCP("proj")', 'mcp = FastMCP("proj")\n_workspace = ContextVar("ws", default=None)')
    source = "from contextvars import ContextVar\n" + source
    found = findings(tmp_path, source)
    assert "MR212" not in helpers.codes(found), found


def _context_module(tmp_path, context: str) -> list:
    """The tool keeping roots in `_workspace`, imported from `pkg/context.py` (`context`)."""
    source = TOOL.format(
        body="if _workspace.get() is None:\n        result = await ctx.session.list_roots()\n"
        "        _workspace.set(result.roots[0].uri.path)"
    ).replace(
        "from pkg.state import binding", "from pkg.context import _workspace\nfrom pkg.state import binding"
    )
    root = helpers._layout(tmp_path, source, {"state.py": STATE, "context.py": context}, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


@pytest.mark.parametrize(
    "spelling",
    [
        'from contextvars import ContextVar\n\n_workspace: ContextVar[str | None] = ContextVar("ws", default=None)\n',
        'import contextvars\n\n_workspace = contextvars.ContextVar("ws")\n',
    ],
)
def test_noop_a_context_variable_of_another_module_is_per_request(tmp_path, spelling):
    """sweep F r09 (session 20): the ContextVar is imported from the project (`from pkg.context import ...`)."""
    found = _context_module(tmp_path, spelling)
    assert "MR101" in helpers.codes(found), found
    assert "MR212" not in helpers.codes(found), found


def test_an_object_of_another_module_with_a_get_method_still_caches(tmp_path):
    """The same shape on a module-level object that is no ContextVar keeps the roots across requests."""
    holder = "class Holder:\n    value = None\n\n    def get(self):\n        return self.value\n\n"
    holder += "    def set(self, v):\n        self.value = v\n\n\n_workspace = Holder()\n"
    found = _context_module(tmp_path, holder)
    assert "MR212" in helpers.codes(found), found


@pytest.mark.parametrize(
    ("body", "extra"),
    [
        (
            "if Workspace.project is None:\n        result = await ctx.session.list_roots()\n"
            "        Workspace.bind(result.roots[0].uri.path)",
            "\n\nclass Workspace:\n    project = None\n\n    @classmethod\n    def bind(cls, p):\n"
            "        cls.project = p\n",
        ),
        (
            "state = None\n    if ctx.request_context.lifespan_context.project is None:\n"
            "        result = await ctx.session.list_roots()\n"
            "        ctx.request_context.lifespan_context.bind(result.roots[0].uri.path)",
            "",
        ),
    ],
    ids=["classmethod", "lifespan"],
)
def test_roots_kept_through_a_class_or_the_lifespan_are_marked(tmp_path, body, extra):
    """sweep F r06 (session 20)."""
    found = findings(tmp_path, TOOL.format(body=body) + extra)
    assert "MR101" not in helpers.codes(found), found
    assert "MR212" in helpers.codes(found), found


ALIASED = """\
from contextlib import asynccontextmanager

from mcp.server.fastmcp import Context, FastMCP


class AppState:
    project = None

    def bind(self, project):
        self.project = project


_state = AppState()


def get_state():
    return {returned}


@asynccontextmanager
async def lifespan(server):
    yield AppState()


mcp = FastMCP("demo", lifespan=lifespan)


@mcp.tool()
async def where(ctx: Context) -> str:
    app = {value}
    if app.project is None:
        result = await ctx.session.list_roots()
        {keep}
    return app.project
"""
KEEPS = {
    "setter": "app.bind(str(result.roots[0].uri))",
    "attribute": "app.project = str(result.roots[0].uri)",
}


def aliased(tmp_path, value: str, keep: str, returned: str = "_state") -> list:
    source = ALIASED.format(value=value, keep=KEEPS[keep], returned=returned)
    root = helpers._layout(tmp_path, source, None, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


@pytest.mark.parametrize("keep", sorted(KEEPS))
@pytest.mark.parametrize(
    ("value", "returned"),
    [("AppState()", "_state"), ("get_state()", "AppState()"), ("ctx.request_context", "_state")],
    ids=["built-here", "getter-builds-one", "not-the-lifespan"],
)
def test_noop_a_local_that_dies_with_the_request_keeps_nothing(tmp_path, value, returned, keep):
    found = aliased(tmp_path, value, keep, returned)
    assert "MR212" not in helpers.codes(found), found
    assert "MR101" in helpers.codes(found), found


@pytest.mark.parametrize("keep", sorted(KEEPS))
@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("ctx.request_context.lifespan_context", "the lifespan context, shared by every request"),
        ("get_state()", "one object a module keeps, shared by every request"),
    ],
    ids=["lifespan-alias", "module-getter"],
)
def test_a_local_alias_of_a_long_lived_object_keeps_the_roots(tmp_path, value, said, keep):
    """sweep F r07 (session 20): `app = ctx.request_context.lifespan_context` (the FastMCP docs' spelling),
    or `binding = get_binding()` returning a module-level object, then `app.bind(uri)` / `app.project = uri`
    under `if app.project is None:`: the explicit argument was ignored from the second call on."""
    found = aliased(tmp_path, value, keep)
    assert "MR101" not in helpers.codes(found), found
    assert "MR212" in helpers.codes(found), found
    assert any(f"(`app = {value}`, {said})" in f.message for f in found), found


@pytest.mark.parametrize(
    ("body", "extra"),
    [
        # the guard through a function of the module (sweep D r03)
        (
            "if not _bound():\n        result = await ctx.session.list_roots()\n"
            "        binding.bind(Path(result.roots[0].uri.path).name)",
            "\n\ndef _bound() -> bool:\n    return binding.project is not None\n",
        ),
        # the object held in a module dict (sweep D r03)
        (
            "if STATE['b'].project is None:\n        result = await ctx.session.list_roots()\n"
            "        STATE['b'].bind(Path(result.roots[0].uri.path).name)",
            "\n\nSTATE = {'b': binding}\n",
        ),
        # the read in a helper, the setter in the tool (sweep D r04)
        (
            "if binding.project is None:\n        binding.bind(await _read(ctx))",
            "\n\nasync def _read(ctx: Context) -> str:\n    result = await ctx.session.list_roots()\n"
            "    return Path(result.roots[0].uri.path).name\n",
        ),
        # a first-wins setter, unguarded at the call (sweep D r05)
        (
            "result = await ctx.session.list_roots()\n    binding.bind_once(Path(result.roots[0].uri.path).name)",
            "",
        ),
    ],
    ids=["guard-helper", "module-dict", "read-in-helper", "first-wins"],
)
def test_more_spellings_of_roots_kept_through_a_setter(tmp_path, body, extra):
    found = findings(tmp_path, TOOL.format(body=body) + extra)
    assert "MR101" not in helpers.codes(found), found
    assert "MR212" in helpers.codes(found), found


def test_first_wins_setter_is_said_so(tmp_path):
    body = (
        "result = await ctx.session.list_roots()\n    binding.bind_once(Path(result.roots[0].uri.path).name)"
    )
    found = findings(tmp_path, TOOL.format(body=body))
    assert any(
        "keeps the first value only (it sets `self.project` while that is unset)" in f.message for f in found
    )


def test_noop_a_setter_that_always_sets_is_no_first_wins(tmp_path):
    body = (
        "result = await ctx.session.list_roots()\n    binding.bind_again(Path(result.roots[0].uri.path).name)"
    )
    found = findings(tmp_path, TOOL.format(body=body))
    assert "MR212" not in helpers.codes(found), found
    assert "MR101" in helpers.codes(found), found


VAR_TOOL = """\
from mcp.server.fastmcp import Context, FastMCP

{imports}

mcp = FastMCP("proj")


@mcp.tool()
async def project(ctx: Context) -> str:
    if {var}.get() is None:
        result = await ctx.session.list_roots()
        {var}.set(result.roots[0].uri.path)
    return {var}.get()
"""


@pytest.mark.parametrize(
    ("imports", "var", "files", "cached"),
    [
        (  # re-exported through the package's __init__ (sweep G r12)
            "from pkg import current",
            "current",
            {
                "__init__.py": "from .context import current\n",
                "context.py": "from contextvars import ContextVar\n\ncurrent = ContextVar('p', default=None)\n",
            },
            False,
        ),
        (  # through its module (r13)
            "from pkg import context",
            "context.current",
            {"context.py": "from contextvars import ContextVar\n\ncurrent = ContextVar('p', default=None)\n"},
            False,
        ),
        (  # an alias of the class, subscripted (r14)
            "from pkg.context import current",
            "current",
            {
                "context.py": "from contextvars import ContextVar as CV\n\ncurrent = CV[str | None]('p', default=None)\n"
            },
            False,
        ),
        (  # a class attribute (r14)
            "from pkg.context import State",
            "State.current",
            {
                "context.py": "import contextvars\n\n\nclass State:\n    current = contextvars.ContextVar('p', default=None)\n"
            },
            False,
        ),
        (  # a class of the project named ContextVar, kept for the process (r10)
            "from pkg.context import current",
            "current",
            {
                "context.py": "class ContextVar:\n    def __init__(self, name, default=None):\n        self.v = default\n\n"
                "    def get(self):\n        return self.v\n\n    def set(self, v):\n        self.v = v\n\n\n"
                "current = ContextVar('p')\n"
            },
            True,
        ),
    ],
    ids=["reexported", "module-attribute", "alias-subscripted", "class-attribute", "project-class-named-so"],
)
def test_context_variables_of_the_project_in_every_spelling(tmp_path, imports, var, files, cached):
    source = VAR_TOOL.format(imports=imports, var=var)
    root = helpers.package(tmp_path, {**files, "server.py": source})
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert ("MR212" in helpers.codes(found)) is cached, found
    assert ("MR101" in helpers.codes(found)) is not cached, found


def test_a_first_wins_setter_of_an_imported_class_with_an_early_return(tmp_path):
    """sweeps I r05, r06 (session 21): the class imported, the instance made here; the method returns early
    while the attribute is set, then sets it."""
    state = (
        "class Binding:\n    project = None\n\n    def bind_once(self, p):\n        if self.project is not None:\n"
        "            return\n        self.project = p\n"
    )
    source = TOOL.format(
        body="result = await ctx.session.list_roots()\n    binding.bind_once(Path(result.roots[0].uri.path).name)"
    ).replace("from pkg.state import binding", "from pkg.state import Binding\n\nbinding = Binding()")
    root = helpers._layout(tmp_path, source, {"state.py": state}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR212" in helpers.codes(found), found
    assert "MR101" not in helpers.codes(found), found


def test_noop_an_early_return_of_another_attribute_is_no_cache_hit(tmp_path):
    """sweep I r10 (session 21): `if binding.paused: return binding.status` is a setting, not what is kept."""
    body = (
        "if binding.paused:\n        return binding.status\n    result = await ctx.session.list_roots()\n"
        "    binding.bind(Path(result.roots[0].uri.path).name)"
    )
    found = findings(tmp_path, TOOL.format(body=body))
    assert "MR212" not in helpers.codes(found), found
    assert "MR101" in helpers.codes(found), found


def test_a_local_alias_of_an_imported_getters_object(tmp_path):
    """sweep I r04 (session 21): `b = get_binding()` with `get_binding` imported from the state module, where it
    returns a module-level object every time."""
    state = STATE + "\n\ndef get_binding() -> Binding:\n    return binding\n"
    body = (
        "b = get_binding()\n    if b.project is None:\n        result = await ctx.session.list_roots()\n"
        "        b.bind(Path(result.roots[0].uri.path).name)"
    )
    source = TOOL.format(body=body).replace(
        "from pkg.state import binding", "from pkg.state import binding, get_binding"
    )
    root = helpers._layout(tmp_path, source, {"state.py": state}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR212" in helpers.codes(found), found
    assert any("(`b = get_binding()`, one object a module keeps" in f.message for f in found), found


def test_noop_a_local_from_an_imported_function_that_builds_one(tmp_path):
    state = STATE + "\n\ndef new_binding() -> Binding:\n    return Binding()\n"
    body = (
        "b = new_binding()\n    if b.project is None:\n        result = await ctx.session.list_roots()\n"
        "        b.bind(Path(result.roots[0].uri.path).name)"
    )
    source = TOOL.format(body=body).replace(
        "from pkg.state import binding", "from pkg.state import binding, new_binding"
    )
    root = helpers._layout(tmp_path, source, {"state.py": state}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR212" not in helpers.codes(found), found
