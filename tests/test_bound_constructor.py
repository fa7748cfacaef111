"""A class whose constructor checks the path against the constructor's own parameter (sweep P r05 of session 22):
`GuardedPath(<roots>, rel)` with `__init__(self, base, rel)` refusing `(base / rel).resolve()` outside `base`.
Before: no bound (the check is against a parameter, not an attribute of `self`), the read was rewritten and a
caller's `root` chose the bound (measured: `{"path": "secret.txt", "root": "data"}` read a file outside the
client's root). `Cls(...)` is `Cls.__init__` with `self` dropped, as a function's parameters are; a dataclass's
fields are its `__init__`'s parameters, which its `__post_init__` reads as `self.<field>`; `super().__init__(base /
"docs", rel)` is a call of the base's `__init__`."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
    from dataclasses import InitVar, dataclass, field
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("files")
    LIMIT = Path("/srv/data")


{cls}

    async def workspace(ctx: Context) -> Path:
        result = await ctx.session.list_roots()
        return Path(result.roots[0].uri.path)


    @mcp.tool()
    async def read_file(path: str, ctx: Context) -> str:
        where = await workspace(ctx)
        return {made}.full.read_text()
"""
LOCAL = """\
    class GuardedPath:
        def __init__(self, base: Path, rel: str) -> None:
            base = base.resolve()
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(base):
                raise PermissionError(f"{rel} is outside the workspace")
"""
PARAM = """\
    class GuardedPath:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(base.resolve()):
                raise PermissionError(f"{rel} is outside the workspace")
"""
HANDED = """\
    def ensure_within(target: Path, base: Path) -> Path:
        if base.resolve() not in target.parents:
            raise PermissionError(f"{target} escapes {base}")
        return target


    class GuardedPath:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = ensure_within((base / rel).resolve(), base)
"""
INHERITED = """\
    class Guarded:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(base.resolve()):
                raise PermissionError(f"{rel} is outside the workspace")


    class GuardedPath(Guarded):
        def describe(self) -> str:
            return str(self.full)
"""
SUPER = """\
    class Guarded:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(base.resolve()):
                raise PermissionError(f"{rel} is outside the workspace")


    class GuardedPath(Guarded):
        def __init__(self, base: Path, rel: str) -> None:
            super().__init__(base / "docs", rel)
"""
SUPER_CONSTANT = """\
    class Guarded:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(base.resolve()):
                raise PermissionError(f"{rel} is outside the workspace")


    class GuardedPath(Guarded):
        def __init__(self, base: Path, rel: str) -> None:
            super().__init__(LIMIT, str(base / rel))
"""
DATACLASS = """\
    @dataclass
    class GuardedPath:
        base: Path
        rel: str
        full: Path = field(init=False)

        def __post_init__(self) -> None:
            base = self.base.resolve()
            self.full = (base / self.rel).resolve()
            if not self.full.is_relative_to(base):
                raise PermissionError(f"{self.rel} is outside the workspace")
"""
DATACLASS_ATTR = """\
    @dataclass(frozen=True)
    class GuardedPath:
        base: Path
        rel: str

        @property
        def full(self) -> Path:
            return (self.base / self.rel).resolve()

        def __post_init__(self) -> None:
            if not (self.base / self.rel).resolve().is_relative_to(self.base.resolve()):
                raise PermissionError(f"{self.rel} is outside the workspace")
"""
INIT_VAR = """\
    @dataclass
    class GuardedPath:
        base: InitVar[Path]
        rel: str
        full: Path = field(init=False)

        def __post_init__(self, base: Path) -> None:
            self.full = (base / self.rel).resolve()
            if not self.full.is_relative_to(base.resolve()):
                raise PermissionError(f"{self.rel} is outside the workspace")
"""
CONSTANT = """\
    class GuardedPath:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
            if not self.full.is_relative_to(LIMIT):
                raise PermissionError(f"{rel} is outside {LIMIT}")
"""
DATACLASS_CONSTANT = """\
    @dataclass
    class GuardedPath:
        base: Path
        rel: str
        full: Path = field(init=False)

        def __post_init__(self) -> None:
            self.full = (self.base / self.rel).resolve()
            if not self.full.is_relative_to(LIMIT):
                raise PermissionError(f"{self.rel} is outside {LIMIT}")
"""
UNCHECKED = """\
    class GuardedPath:
        def __init__(self, base: Path, rel: str) -> None:
            self.full = (base / rel).resolve()
"""
BY_POSITION = "GuardedPath(where, path)"
BY_KEYWORD = "GuardedPath(rel=path, base=where)"
ROOTS_AS_REL = 'GuardedPath(Path("/srv"), str(where))'


def _run(tmp_path, cls: str, made: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(SERVER.format(cls=cls, made=made)))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize(
    ("cls", "made"),
    [
        (CONSTANT, BY_POSITION),
        (DATACLASS_CONSTANT, BY_POSITION),
        (UNCHECKED, BY_POSITION),
        (SUPER_CONSTANT, BY_POSITION),  # the base's check bounds by LIMIT: the roots are only the path
        # the roots are the path checked, not its bound: the caller's `root` stays inside LOCAL's `/srv`
        (LOCAL, ROOTS_AS_REL),
        (DATACLASS, ROOTS_AS_REL),
    ],
    ids=[
        "checks-a-constant",
        "dataclass-checks-a-constant",
        "checks-nothing",
        "super-with-a-constant",
        "roots-as-rel",
        "dataclass-roots-as-rel",
    ],
)
def test_noop_a_constructor_that_checks_nothing_against_the_roots_holds_no_bound(tmp_path, cls, made):
    findings, text = _run(tmp_path, cls, made)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "async def read_file(path: str, ctx: Context, root: RootPath = None) -> str:" in text
    assert "where = await workspace(ctx, root=root)" in text


@pytest.mark.parametrize("made", [BY_POSITION, BY_KEYWORD], ids=["positional", "keyword"])
@pytest.mark.parametrize(
    ("cls", "said"),
    [
        (LOCAL, "`is_relative_to` in `GuardedPath.__init__`"),
        (PARAM, "`is_relative_to` in `GuardedPath.__init__`"),
        (HANDED, "a `parents` membership test in `ensure_within`"),
        (INHERITED, "`is_relative_to` in `Guarded.__init__`"),
        (SUPER, "`is_relative_to` in `Guarded.__init__`"),
        (DATACLASS, "`is_relative_to` in `GuardedPath.__post_init__`"),
        (DATACLASS_ATTR, "`is_relative_to` in `GuardedPath.__post_init__`"),
        (INIT_VAR, "`is_relative_to` in `GuardedPath.__post_init__`"),
    ],
    ids=[
        "local",
        "param",
        "handed-to-a-check",
        "inherited",
        "super-init",
        "dataclass",
        "dataclass-attribute",
        "init-var",
    ],
)
def test_roots_handed_to_the_bound_parameter_of_a_checking_constructor_are_its_bound(
    tmp_path, cls, said, made
):
    findings, text = _run(tmp_path, cls, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")], findings
    assert f"roots bound what this tool may touch ({said})" in findings[0][2]
    assert "result = await allowed_roots_compat(ctx.session)" in text
    assert "async def read_file(path: str, ctx: Context) -> str:" in text
