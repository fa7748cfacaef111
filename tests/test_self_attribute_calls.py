"""Calls through an attribute of `self` (session 20, sweep A r01): `self.paths = Resolver()` in `__init__`,
then a tool nested there calls `await self.paths.workspace(ctx)`. The tool was neither given the argument nor
reported while another tool made the read rewritable. Followed when the file assigns `.paths` once, in the
class `self` belongs to, from a call of a package class or with its annotation; noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

PATHS = """\
from mcp.server.fastmcp import Context


class Resolver:
    async def workspace(self, ctx: Context) -> str:
        try:
            result = await ctx.session.list_roots()
        except Exception:
            return "/srv/default"
        return str(result.roots[0].uri)
"""

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from .paths import Resolver


class App:
    def __init__(self) -> None:
        self.mcp = FastMCP("app")
        {binding}

        @self.mcp.tool()
        async def info(ctx: Context) -> str:
            return await self.paths.workspace(ctx)

        @self.mcp.tool()
        async def where(ctx: Context, paths: Resolver) -> str:
            return await paths.workspace(ctx)
{extra}

app = App()
"""


def migrated(tmp_path, binding: str, extra: str = "") -> str:
    root = helpers.package(
        tmp_path, {"paths.py": PATHS, "server.py": SERVER.format(binding=binding, extra=extra)}
    )
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    return (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    ("binding", "extra"),
    [
        ("self.paths = Resolver()\n        self.paths = Resolver()", ""),
        ("self.paths = Resolver()", "\n    def swap(self, other) -> None:\n        self.paths = other\n"),
        ("self.paths = make_resolver()", "\n\ndef make_resolver():\n    return Resolver()\n"),
        ("self.paths = Resolver()", "\n\ndef rebind(app) -> None:\n    app.paths = object()\n"),
    ],
    ids=["twice", "another-method", "untyped-factory", "outside-the-class"],
)
def test_noop_an_attribute_bound_elsewhere_or_by_an_untyped_call_is_not_followed(tmp_path, binding, extra):
    text = migrated(tmp_path, binding, extra)
    assert "return await self.paths.workspace(ctx)\n" in text, text


@pytest.mark.parametrize(
    "binding",
    ["self.paths = Resolver()", "self.paths: Resolver = Resolver()", "self.paths: Resolver = build()"],
    ids=["constructed", "annotated", "annotated-from-a-call"],
)
def test_a_tool_reaches_roots_through_an_attribute_of_self(tmp_path, binding):
    extra = "\n\ndef build() -> Resolver:\n    return Resolver()\n" if "build" in binding else ""
    text = migrated(tmp_path, binding, extra)
    assert "async def info(ctx: Context, root: RootPath = None) -> str:" in text, text
    assert "return await self.paths.workspace(ctx, root=root)" in text, text


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("__main__.py", "from .server import app\nfrom .paths import Resolver\n\napp.paths = Resolver()\n"),
        (
            "pinned.py",
            "from .server import App\n\n\nclass Pinned(App):\n    def __init__(self):\n"
            "        super().__init__()\n        self.paths = object()\n",
        ),
        ("cli.py", "from .server import app\n\nsetattr(app, 'paths', None)\n"),
    ],
    ids=["main-pins-it", "subclass-rebinds", "setattr"],
)
def test_noop_an_attribute_another_module_binds_is_not_followed(tmp_path, name, text):
    """sweep C r04, r05 (session 20): `app.paths = FixedResolver(...)` in `__main__.py`, or a subclass's own
    `self.paths = ...`: the tool's `self.paths.workspace(ctx, root=root)` met a method without `root`."""
    root = helpers.package(
        tmp_path,
        {
            "paths.py": PATHS,
            "server.py": SERVER.format(binding="self.paths = Resolver()", extra=""),
            name: text,
        },
    )
    helpers.run_engine(root)
    assert "return await self.paths.workspace(ctx)\n" in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    "extra",
    [
        "\n\nclass Other:\n    paths = None\n",
        "\n\nclass Other:\n    paths: Resolver\n",
    ],
    ids=["class-attribute", "declared"],
)
def test_noop_a_class_body_binding_of_the_name_is_not_followed(tmp_path, extra):
    """sweep C r06 (session 20): a class attribute or a dataclass field of the same name."""
    text = migrated(tmp_path, "self.paths = Resolver()", extra)
    assert "return await self.paths.workspace(ctx)\n" in text, text


@pytest.mark.parametrize(
    ("binding", "extra", "other"),
    [
        ("self.paths = Resolver()\n        self.__dict__.update(overrides)", "", {}),
        ("self.paths = Resolver()", "\n\ndef pinned():\n    return App(paths=None)\n", {}),
        ("self.paths = Resolver()", "", {"cli.py": "from .server import app\n\napp.configure(paths=None)\n"}),
        ("self.paths = Resolver()", "", {"paths.py": PATHS + "\n\nif True:\n    Resolver = object\n"}),
        (
            "self.paths = Resolver()",
            "",
            {"test_app.py": "from unittest import mock\n\nmock.patch('pkg.server.app.paths')\n"},
        ),
    ],
    ids=[
        "dict-update",
        "keyword-here",
        "keyword-elsewhere",
        "class-rebound-elsewhere",
        "patched-by-dotted-name",
    ],
)
def test_noop_more_ways_to_replace_the_attribute(tmp_path, binding, extra, other):
    """sweep E r02, r04, r06 (session 20)."""
    files = {"paths.py": PATHS, "server.py": SERVER.format(binding=binding, extra=extra), **other}
    root = helpers.package(tmp_path, files)
    helpers.run_engine(root)
    assert "return await self.paths.workspace(ctx)\n" in (root / "pkg" / "server.py").read_text()
