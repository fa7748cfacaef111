"""A class of the project that derives from a bounding class and overrides its check (sweep I r03 of session
21): `class Unconfined(Sandbox)` whose `check` returns the path unchecked holds no bound, though its base's
`check` tests `is_relative_to(self.root)` and the inherited `read` calls `self.check`. Before: MR110, naming the
base's check (false), and the tool lost its path argument. An override that calls `super()`, or checks on its
own, still bounds; so does a derived class that overrides some other method only.

Sweep N of session 22: an override that calls the base's method by its name (`Sandbox.check(self, rel)`, through
an alias, `super(Derived, self)`) still bounds (r01: before, no bound, and the caller's `root` escaped it); a
derived class in another module than its base is read from its own file (r02); a mixin listed before the
bounding base replaces its check, by the MRO (r03); an override catching the check's refusal keeps the bound,
and the marker names it (r08)."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

BASE = """\
    class Sandbox:
        def __init__(self, root: Path) -> None:
            self.root = root.resolve()

        def check(self, rel: str) -> Path:
            target = (self.root / rel).resolve()
            if not target.is_relative_to(self.root):
                raise PermissionError(f"{rel} is outside the workspace")
            return target

        def read(self, rel: str) -> str:
            return self.check(rel).read_text()


"""
SERVER = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("notes")


{classes}

    async def box_of(ctx: Context) -> Path:
        result = await ctx.session.list_roots()
        return Path(result.roots[0].uri.path)


    @mcp.tool()
    async def read_note(path: str, ctx: Context) -> str:
        box = {made}
        return box.read(path)
"""
UNCHECKED = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            return self.root / rel
"""
UNCHECKED_TWO_DEEP = """\
    class Middle(Sandbox):
        def check(self, rel: str) -> Path:
            return self.root / rel


    class Derived(Middle):
        pass
"""
SUPER = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            print("checking", rel)
            return super().check(rel)
"""
OWN_CHECK = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            target = (self.root / rel).resolve()
            if self.root not in target.parents:
                raise PermissionError(f"{rel} escapes {self.root}")
            return target
"""
OTHER_METHOD = """\
    class Derived(Sandbox):
        def describe(self) -> str:
            return f"notes in {self.root}"
"""
MADE = ["Derived(await box_of(ctx))", "Derived(root=await box_of(ctx))"]


def _run(tmp_path, classes: str, made: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    body = textwrap.indent(textwrap.dedent(BASE + classes), "    ")
    server.write_text(textwrap.dedent(SERVER.format(classes=body.rstrip() + "\n", made=made)))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize("classes", [UNCHECKED, UNCHECKED_TWO_DEEP], ids=["override", "override-two-deep"])
def test_an_override_that_checks_nothing_holds_no_bound(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "async def read_note(path: str, ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize(
    ("classes", "where"),
    [(SUPER, "check"), (OWN_CHECK, "check"), (OTHER_METHOD, "check")],
    ids=["override-calls-super", "override-checks-itself", "overrides-another-method"],
)
def test_a_derived_class_that_still_checks_keeps_the_bound(tmp_path, classes, where, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert f"in `{where}`" in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text


EXPLICIT = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            print("checking", rel)
            return Sandbox.check(self, rel)
"""
EXPLICIT_ALIAS = """\
    Base = Sandbox


    class Derived(Base):
        def check(self, rel: str) -> Path:
            return Base.check(self, rel)
"""
SUPER_EXPLICIT = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            return super(Derived, self).check(rel)
"""
GETATTR = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            return getattr(super(), "check")(rel)
"""
RERAISED = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            try:
                return Sandbox.check(self, rel)
            except PermissionError:
                print("refused", rel)
                raise
"""


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize(
    "classes",
    [EXPLICIT, EXPLICIT_ALIAS, SUPER_EXPLICIT, GETATTR, RERAISED],
    ids=["base-by-name", "base-by-alias", "super-two-arguments", "getattr", "re-raised"],
)
def test_an_override_calling_the_base_by_name_keeps_the_bound(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert "(`is_relative_to` in `check`):" in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text


MIXIN_FIRST = """\
    class TrustingMixin:
        root: Path

        def check(self, rel: str) -> Path:
            return self.root / rel


    class Derived(TrustingMixin, Sandbox):
        pass
"""
MIXIN_FIRST_DEEP = """\
    class TrustingMixin:
        root: Path

        def check(self, rel: str) -> Path:
            return self.root / rel


    class Trusting(TrustingMixin):
        pass


    class Derived(Trusting, Sandbox):
        pass
"""
MIXIN_LAST = """\
    class TrustingMixin:
        root: Path

        def check(self, rel: str) -> Path:
            return self.root / rel


    class Derived(Sandbox, TrustingMixin):
        pass
"""
MIXIN_SUPER = """\
    class LoggingMixin:
        def check(self, rel: str) -> Path:
            print("checking", rel)
            return super().check(rel)


    class Derived(LoggingMixin, Sandbox):
        pass
"""


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize("classes", [MIXIN_FIRST, MIXIN_FIRST_DEEP], ids=["mixin-first", "mixin-first-deep"])
def test_a_mixin_before_the_bounding_base_replaces_its_check(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "async def read_note(path: str, ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize("classes", [MIXIN_LAST, MIXIN_SUPER], ids=["mixin-last", "mixin-calls-super"])
def test_a_mixin_that_does_not_replace_the_check_keeps_the_bound(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert "(`is_relative_to` in `check`):" in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text


CAUGHT = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            try:
                return super().check(rel)
            except PermissionError:
                return self.root / rel
"""
CAUGHT_BY_NAME = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            try:
                target = Sandbox.check(self, rel)
            except PermissionError:
                target = self.root / rel
            return target
"""
SUPPRESSED = """\
    class Derived(Sandbox):
        def check(self, rel: str) -> Path:
            with contextlib.suppress(PermissionError):
                return super().check(rel)
            return self.root / rel
"""


@pytest.mark.parametrize("made", MADE)
@pytest.mark.parametrize(
    "classes", [CAUGHT, CAUGHT_BY_NAME, SUPPRESSED], ids=["try-super", "try-by-name", "suppress"]
)
def test_an_override_catching_the_refusal_keeps_the_bound_and_says_so(tmp_path, classes, made):
    findings, text = _run(tmp_path, classes, made)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert (
        "(`is_relative_to` in `check`, unless `Derived.check`, which calls it in a `try` that catches its "
        "refusal, lets the path through: what it does then is not read, so the bound is kept)"
    ) in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text


# The derived class (or the mixin) in a module of its own, the base in another, the tool in a third.
SANDBOX_MODULE = "from pathlib import Path\n\n\n" + textwrap.dedent(BASE)
TOOL_MODULE = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

from pkg.extra import Derived

mcp = FastMCP("notes")


async def box_of(ctx: Context) -> Path:
    result = await ctx.session.list_roots()
    return Path(result.roots[0].uri.path)


@mcp.tool()
async def read_note(path: str, ctx: Context) -> str:
    box = {made}
    return box.read(path)
"""
IMPORTS = {
    "plain": "from pathlib import Path\n\nfrom pkg.sandbox import Sandbox\n\n\n",
    "aliased": "from pathlib import Path\n\nfrom pkg.sandbox import Sandbox as Base\n\n\n",
    "relative": "from pathlib import Path\n\nfrom .sandbox import Sandbox\n\n\n",
    # the base named through its module (`class Derived(sb.Sandbox)`): the module was not followed before
    "module-alias": "from pathlib import Path\n\nimport pkg.sandbox as sb\n\n\n",
    "module-dotted": "from pathlib import Path\n\nimport pkg.sandbox\n\n\n",
}
SPELLED = {"aliased": "Base", "module-alias": "sb.Sandbox", "module-dotted": "pkg.sandbox.Sandbox"}


def _run_apart(tmp_path, classes: str, made: str, imports: str = "plain"):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "sandbox.py").write_text(SANDBOX_MODULE)
    classes = classes.replace("Sandbox", SPELLED.get(imports, "Sandbox"))
    (root / "pkg" / "extra.py").write_text(IMPORTS[imports] + textwrap.dedent(classes))
    server = root / "pkg" / "server.py"
    server.write_text(TOOL_MODULE.format(made=made))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], server.read_text()


@pytest.mark.parametrize("imports", sorted(IMPORTS))
@pytest.mark.parametrize(
    "classes",
    [UNCHECKED, UNCHECKED_TWO_DEEP, MIXIN_FIRST],
    ids=["override", "override-two-deep", "mixin-first"],
)
def test_an_override_in_another_module_that_checks_nothing_holds_no_bound(tmp_path, classes, imports):
    findings, text = _run_apart(tmp_path, classes, MADE[0], imports)
    assert [(code, action) for code, action, _ in findings if code != "MR107"] == [("MR101", "rewritten")]
    assert "async def read_note(path: str, ctx: Context, root: RootPath = None) -> str:" in text


@pytest.mark.parametrize("imports", sorted(IMPORTS))
@pytest.mark.parametrize(
    "classes",
    [SUPER, EXPLICIT, SUPER_EXPLICIT, MIXIN_LAST, OTHER_METHOD],
    ids=["super", "base-by-name", "super-two-arguments", "mixin-last", "overrides-another-method"],
)
def test_an_override_in_another_module_that_still_checks_keeps_the_bound(tmp_path, classes, imports):
    findings, text = _run_apart(tmp_path, classes, MADE[0], imports)
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert "(`is_relative_to` in `check`):" in findings[0][2]
    assert "async def read_note(path: str, ctx: Context) -> str:" in text


def test_an_override_in_another_module_catching_the_refusal_is_named(tmp_path):
    findings, _ = _run_apart(tmp_path, CAUGHT, MADE[0])
    assert [(code, action) for code, action, _ in findings] == [("MR110", "rewritten")]
    assert "unless `Derived.check`, which calls it in a `try` that catches its refusal" in findings[0][2]
