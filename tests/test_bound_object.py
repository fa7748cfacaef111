"""Roots handed to the constructor of a class of the project whose method checks paths against an attribute of
its own (package-sdk: `Session(root)`, then `session.inside(path)` refuses a path outside `self.root`).

The object holds the bound: replacing the roots by a caller's argument let a legacy client pass `root=["/"]`
and write anywhere (measured before: "saved" for a file outside the client's root). The read takes the
operator's bound (MR110) like a bound checked in the function itself. A class whose methods check nothing
against their own attributes holds no bound: the read is rewritten as usual.
"""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

DATACLASS = """\
    @dataclass(frozen=True)
    class Box:
        root: Path

        def inside(self, name: str) -> Path:
            target = (self.root / name).resolve()
            if not target.is_relative_to(self.root):
                raise ValueError(f"{name} is outside the root {self.root}")
            return target
"""
INIT = """\
    class Box:
        def __init__(self, root: Path) -> None:
            self._base = str(root)

        def inside(self, name: str) -> Path:
            target = os.path.realpath(os.path.join(self._base, name))
            if not target.startswith(os.path.realpath(self._base) + os.sep):
                raise PermissionError(f"path {name} escapes the workspace")
            return Path(target)
"""
NO_BOUND = """\
    @dataclass(frozen=True)
    class Box:
        root: Path

        def inside(self, name: str) -> Path:
            return (self.root / name).resolve()
"""
OTHER_BOUND = """\
    LIMIT = Path("/srv/data")


    @dataclass(frozen=True)
    class Box:
        root: Path

        def inside(self, name: str) -> Path:
            target = (self.root / name).resolve()
            if not target.is_relative_to(LIMIT):
                raise ValueError(f"{name} is outside {LIMIT}")
            return target
"""
WALKER = """\
    class Box:
        def __init__(self, root: Path) -> None:
            self._base = root

        def inside(self, name: str) -> Path:
            return self._base / name

        def files(self) -> list[str]:
            out = []
            for path in self._base.rglob("*.py"):
                try:
                    out.append(path.relative_to(self._base).as_posix())
                except ValueError:
                    continue
            return out
"""
SERVER = """\
    import os
    from dataclasses import dataclass
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


{cls}

    async def box_of(ctx: Context) -> Box:
        result = await ctx.session.list_roots()
        return Box(Path(result.roots[0].uri.path).resolve())


    @mcp.tool()
    async def save(name: str, text: str, ctx: Context) -> str:
        box = await box_of(ctx)
        box.inside(name).write_text(text)
        return "saved"
"""


def _run(tmp_path, cls: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(SERVER.format(cls=cls)))
    results = helpers.run_engine(root, select=["MR1"])
    return [f for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize(
    "cls", [NO_BOUND, OTHER_BOUND, WALKER], ids=["no-check", "checks-a-constant", "checks-its-own-listing"]
)
def test_noop_a_class_that_checks_nothing_against_itself_holds_no_bound(tmp_path, cls):
    findings, text = _run(tmp_path, cls)
    assert [(f.code, f.action.value) for f in findings if f.code != "MR107"] == [("MR101", "rewritten")]
    assert "async def save(name: str, text: str, ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("cls", [DATACLASS, INIT], ids=["dataclass", "init"])
def test_roots_handed_to_an_object_that_checks_paths_against_them_are_its_bound(tmp_path, cls):
    findings, text = _run(tmp_path, cls)
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")]
    assert "in `inside`" in findings[0].message
    assert "result = await allowed_roots_compat(ctx.session)" in text
    assert "async def save(name: str, text: str, ctx: Context) -> str:" in text


POLICY = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP


    class Policy:
        def __init__(self, roots: list[Path]) -> None:
            self.roots = roots

        def check(self, value: str) -> Path:
            p = Path(value).resolve()
            if any(r == p or r in p.parents for r in self.roots):
                return p
            raise PermissionError(f"outside the allowed roots: {p}")


    async def policy_from_roots(ctx: Context) -> Policy:
        result = await ctx.session.list_roots()
        return Policy([Path(r.uri.path).resolve() for r in result.roots])


    mcp = FastMCP("x")
    FIXED: Policy | None = None


    @mcp.tool()
    async def read(path: str, ctx: Context) -> str:
        policy = FIXED or await policy_from_roots(ctx)
        return policy.check(path).read_text()
"""


def test_an_allow_list_object_checked_through_a_loop_over_its_attribute_is_a_bound(tmp_path):
    """The helpers' sweep: `r in p.parents for r in self.roots`, and the tool takes the policy from `FIXED or
    await policy_from_roots(ctx)`, a value the typed calls do not follow. Before: a `root` argument, and a
    legacy client passing `root=["/"]` read a file outside its only root."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(POLICY))
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")]
    assert "a `parents` membership test in `check`" in findings[0].message
    assert "async def read(path: str, ctx: Context) -> str:" in server.read_text()


FETCHER = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    class Roots:
        async def fetch(self, session) -> list[str]:
            result = await session.list_roots()
            return [str(x.uri).removeprefix("file://") for x in result.roots]


    {holder}


    def inside(path: str, dirs: list[str]) -> bool:
        p = Path(path).resolve()
        return any(p == Path(d) or Path(d) in p.parents for d in dirs)


    @mcp.tool()
    async def cat(path: str, ctx: Context) -> str:
        allowed = await {fetch}(ctx.session)
        if not inside(path, allowed):
            raise ValueError("outside the client's roots")
        return Path(path).read_text()
"""


@pytest.mark.parametrize(
    ("holder", "fetch"), [("ROOTS = Roots()", "ROOTS.fetch"), ("", "Roots().fetch")], ids=["global", "built"]
)
def test_roots_read_by_a_method_of_an_object_and_checked_by_a_helper_are_a_bound(tmp_path, holder, fetch):
    """The way up from `Roots.fetch` to the tool goes through `ROOTS.fetch(...)`, a method of an object the
    module builds (program/typed.py spells it `Roots().fetch`): the bound analysis missed that call, and the
    MR109 said the helper's check was not on these roots (helpers' sweep), which it is."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(FETCHER.format(holder=holder, fetch=fetch)))
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")]
    assert "(a `parents` membership test in `inside`)" in findings[0].message
    assert "result = await allowed_roots_compat(session)" in server.read_text()


CHECKER = """\
    def _ensure_inside(root: Path, target: Path) -> Path:
        if not target.is_relative_to(root):
            raise PermissionError(f"{target} is outside the workspace")
        return target


"""
HANDS_TO_CHECKER = (
    CHECKER
    + """\
    class Box:
        def __init__(self, root: Path) -> None:
            self._root = root

        def inside(self, name: str) -> Path:
            return _ensure_inside(self._root, (self._root / name).resolve())
"""
)
INHERITED = """\
    class Sandboxed:
        root: Path

        def _check(self, target: Path) -> Path:
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{target} is outside the workspace")
            return target


    class Box(Sandboxed):
        def __init__(self, root: Path) -> None:
            self.root = root

        def inside(self, name: str) -> Path:
            return self._check((self.root / name).resolve())
"""
OWN_LISTING_CHECKER = (
    CHECKER
    + """\
    class Box:
        def __init__(self, root: Path) -> None:
            self._root = root

        def inside(self, name: str) -> Path:
            return (self._root / name).resolve()

        def files(self) -> list[Path]:
            return [_ensure_inside(self._root, p) for p in self._root.iterdir()]
"""
)


def test_noop_a_class_that_hands_its_attribute_only_with_its_own_listing(tmp_path):
    findings, text = _run(tmp_path, OWN_LISTING_CHECKER)
    assert [(f.code, f.action.value) for f in findings if f.code != "MR107"] == [("MR101", "rewritten")]


@pytest.mark.parametrize(
    ("cls", "where"),
    [(HANDS_TO_CHECKER, "_ensure_inside"), (INHERITED, "_check")],
    ids=["method-hands-its-attribute-to-a-checker", "inherited-check"],
)
def test_a_bound_held_through_a_checker_or_a_base_class(tmp_path, cls, where):
    """sweep H r01, r02 (session 21): `_ensure_inside(self._root, target)` in the method, or `self._check(...)`
    inherited from a base class of the project that tests `is_relative_to(self.root)`. Before: rewritten, and
    a legacy client passing `root=["/"]` read outside its only root."""
    findings, text = _run(tmp_path, cls)
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")]
    assert f"in `{where}`" in findings[0].message
    assert "async def save(name: str, text: str, ctx: Context) -> str:" in text


FACTORY = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


    class Box:
        def __init__(self, root: Path) -> None:
            self.root = root

        @classmethod
        async def for_request(cls, ctx: Context) -> "Box":
            result = await ctx.session.list_roots()
            return cls(Path(result.roots[0].uri.path).resolve())

        def inside(self, name: str) -> Path:
            target = (self.root / name).resolve()
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{name} is outside the workspace")
            return target


    @mcp.tool()
    async def save(name: str, text: str, ctx: Context) -> str:
        box = await Box.for_request(ctx)
        box.inside(name).write_text(text)
        return "saved"
"""
PARTIAL = """\
    import functools
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


    def ensure_within(base: Path, name: str) -> Path:
        target = (base / name).resolve()
        if not target.is_relative_to(base):
            raise PermissionError(f"{name} escapes the workspace")
        return target


    @mcp.tool()
    async def save(name: str, text: str, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        safe = functools.partial(ensure_within, Path(result.roots[0].uri.path).resolve())
        safe(name).write_text(text)
        return "saved"
"""


@pytest.mark.parametrize(
    ("source", "where"),
    [
        (FACTORY, "inside"),
        (PARTIAL, "ensure_within"),
        (
            PARTIAL.replace("functools.partial", "partial").replace(
                "import functools\n", "from functools import partial\n"
            ),
            "ensure_within",
        ),
    ],
    ids=["classmethod-factory", "functools-partial", "partial-imported"],
)
def test_a_bound_built_by_a_classmethod_or_bound_by_partial(tmp_path, source, where):
    """sweep H r03, r04 (session 21): `cls(<roots>)` in a classmethod factory is the class's constructor;
    `partial(ensure_within, <roots>)` hands them to `ensure_within`'s first parameter."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(source))
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")], findings
    assert f"in `{where}`" in findings[0].message
    assert "async def save(name: str, text: str, ctx: Context) -> str:" in server.read_text()


CONFIGURED = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


    class Box:
        def __init__(self) -> None:
            self.root: Path | None = None

        def set_root(self, root: Path) -> None:
            self.root = root.resolve()

        def inside(self, name: str) -> Path:
            assert self.root is not None
            target = (self.root / name).resolve()
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{name} is outside the workspace")
            return target


    @mcp.tool()
    async def save(name: str, text: str, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        box = Box()
        {configure}
        box.inside(name).write_text(text)
        return "saved"
"""


@pytest.mark.parametrize(
    "configure",
    ["box.set_root(Path(result.roots[0].uri.path))", "box.root = Path(result.roots[0].uri.path)"],
    ids=["setter", "attribute"],
)
def test_a_bound_object_configured_after_it_is_built(tmp_path, configure):
    """sweep I r02 (session 21): `box = Box(); box.set_root(<roots>)` or `box.root = <roots>`, then
    `box.inside(name)`: the object holds the bound as when the roots go to its constructor."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(CONFIGURED).replace("{configure}", configure))
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR110", "rewritten")], findings
    assert "async def save(name: str, text: str, ctx: Context) -> str:" in server.read_text()


REGISTRY = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("docs")


    class Registry:
        def __init__(self) -> None:
            self.dirs: list[Path] = [Path("/srv/docs")]

        def {method}(self, roots: list) -> None:
            self.dirs = [Path(r.uri.path).resolve() for r in roots]

        def validate(self, source: str) -> Path:
            path = Path(source).resolve()
            for base in self.dirs:
                try:
                    path.relative_to(base)
                    return path
                except ValueError:
                    continue
            raise PermissionError(f"{{source}} is outside the allowed roots")


    registry = Registry()


    async def refresh(session) -> None:
        result = await session.list_roots()
        registry.{method}(result.roots)


    @mcp.tool()
    async def convert(source: str, ctx: Context) -> str:
        await refresh(ctx.session)
        return str(registry.validate(source))
"""


@pytest.mark.parametrize(
    ("method", "code"),
    [("update_from_client_roots", "MR110"), ("adopt", "MR109")],
    ids=["sets-where-it-works", "named-otherwise"],
)
def test_roots_handed_to_a_method_of_a_bounding_class(tmp_path, method, code):
    """docling-mcp's shape (session 21): the roots replace an allow-list registry's directories through a
    method, `registry.update_from_client_roots(result.roots)`, and `validate` refuses what lies outside: the
    read takes the operator's bound (MR110). Only a method whose name says it sets where the object works
    counts: `registry.adopt(repo)` in clew fills a registry whose own check confines its own files."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(textwrap.dedent(REGISTRY.format(method=method)))
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    # named otherwise: no bound held by the object, and the tool's own check of its `source` is said (MR109)
    assert [f.code for f in findings if f.code in ("MR101", "MR109", "MR110")] == [code], findings
