"""Roots that bound what a tool may touch are never turned into the caller's choice (issue 18, item 1).

Measured before: a tool wrote only inside the client's roots (else under the working directory); after the
rewrite `{"output_path": "/elsewhere/x", "root": ["/"]}` was written. Such sites are marked MR109 (the bound is
the operator's: the allow-list variable or the old fallback), in every spelling of the check, also when the
check sits in a helper one call away; a tool that only uses its roots as a base is still rewritten.
"""

from __future__ import annotations

import textwrap
from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes

# MR110 takes the operator's bound in place where it can (tests/test_roots_bound_operator.py); with it off, each
# bound recognised here is marked MR109, which is what these tests read.
check_transformed = partial(helpers.check_transformed, select=["MR1"], ignore=["MR110"])

MARK = (
    "# migrate-roots: MR109: roots bound what this tool may touch ({sign} in `{where}`): an explicit argument "
    "would let the caller choose its own bound. Keep the bound with the operator (MCP_ROOTS_ALLOWED_PATHS, which "
    "the compatibility module enforces, or the old fallback such as the working directory) and migrate this by "
    "hand"
)


def _mark(indent: str, sign: str, where: str) -> str:
    """MARK as the rewrite lays it out: within 88 columns in the file (the test text has 8 more), continued on
    `#   ` lines."""
    width = 88 - (len(indent) - 8)
    wrapped = textwrap.wrap(MARK.format(sign=sign, where=where), width, subsequent_indent="#   ")
    return "".join(indent + line + "\n" for line in wrapped)


def _marked(root):
    results = helpers.run_engine(root, select=["MR1"], ignore=["MR110"], write=False)
    return [f for r in results for f in r.findings]


def _findings(tmp_path, source):
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(textwrap.dedent(source))
    return _marked(tmp_path / "proj")


def test_noop_scheme_prefix_test_is_not_a_bound(tmp_path):
    """`uri.startswith("file://")` checks a scheme, not a bound: the tool is rewritten as usual."""
    findings = _findings(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            uri = str(result.roots[0].uri)
            return uri[7:] if uri.startswith("file://") else uri
        """,
    )
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")]


# The jira2mcp shape (our own spelling): a download is written only inside the client's roots, else the cwd;
# the check sits in a helper one call away.
WRITER = """\
        from pathlib import Path
        from urllib.parse import urlparse

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def _within(path: Path, roots) -> bool:
            return any(path.is_relative_to(Path(urlparse(str(r.uri)).path).resolve()) for r in roots)


        @mcp.tool()
        async def download(output_path: str, ctx: Context) -> str:
            target = Path(output_path).resolve()
            roots = None
            try:
{mark}                roots = await ctx.list_roots()
            except Exception:
                pass
            if roots:
                if not _within(target, roots):
                    raise ValueError("refused")
            elif not target.is_relative_to(Path.cwd()):
                raise ValueError("refused")
            target.write_text("data")
            return str(target)
        """


def test_write_bound_checked_in_a_helper_is_marked(tmp_path):
    mark = _mark("                ", "`is_relative_to`", "_within")
    findings = check_transformed(tmp_path, WRITER.format(mark=""), WRITER.format(mark=mark))
    assert codes(findings) == ["MR109"]


# The file-viewer shape: reads bounded by the first root, a prefix test on a resolved path.
VIEWER = """\
        import os

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def view(relative: str, ctx: Context) -> str:
{mark}            result = await ctx.session.list_roots()
            base = os.path.realpath(result.roots[0].uri.path)
            target = os.path.realpath(os.path.join(base, relative))
            if not target.startswith(base + os.sep):
                return "denied"
            with open(target) as handle:
                return handle.read()
        """


@pytest.mark.parametrize(
    ("check", "sign"),
    [
        ("if not target.startswith(base + os.sep):", "a prefix test on a resolved path"),
        ("if os.path.commonpath([base, target]) != base:", "`commonpath`"),
    ],
)
def test_read_bound_in_the_tool_is_marked(tmp_path, check, sign):
    source = VIEWER.replace("if not target.startswith(base + os.sep):", check)
    mark = _mark("            ", sign, "view")
    findings = check_transformed(tmp_path, source.format(mark=""), source.format(mark=mark))
    assert codes(findings) == ["MR109"]


RAISER = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def _allowed(ctx: Context) -> list[Path]:
{mark}            result = await ctx.session.list_roots()
            return [Path(r.uri.path) for r in result.roots]


        def _check(path: Path, allowed: list[Path]) -> Path:
            for base in allowed:
                try:
                    path.relative_to(base)
                    return path
                except ValueError:
                    continue
            raise PermissionError(f"{{path}} is outside the allowed folders")


        @mcp.tool()
        async def read(path: str, ctx: Context) -> str:
            return _check(Path(path), await _allowed(ctx)).read_text()
        """


def test_bound_checked_beside_the_helper_that_reads_roots_is_marked(tmp_path):
    mark = _mark("            ", "`relative_to` under `try`", "_check")
    findings = check_transformed(tmp_path, RAISER.format(mark=""), RAISER.format(mark=mark))
    assert codes(findings) == ["MR109"]


def test_bound_only_in_the_helper_one_call_away_is_marked(tmp_path):
    source = WRITER.replace(
        """            elif not target.is_relative_to(Path.cwd()):
                raise ValueError("refused")
""",
        "",
    )
    mark = _mark("                ", "`is_relative_to`", "_within")
    findings = check_transformed(tmp_path, source.format(mark=""), source.format(mark=mark))
    assert codes(findings) == ["MR109"]


def test_noop_roots_hashed_into_a_name_beside_an_unrelated_bound_are_not_a_bound(tmp_path):
    """A real server seeds a profile folder name with the roots; the folder is bound-checked against another
    directory. The roots never reach the check: rewritten as usual (MR102), no MR109."""
    findings = _findings(
        tmp_path,
        """\
        import hashlib
        from pathlib import Path

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        CLONES = Path("/var/clones")


        async def _seed(ctx: Context) -> str:
            listed = await ctx.list_roots()
            return "|".join(sorted(str(r.uri) for r in listed))


        @mcp.tool()
        async def profile(ctx: Context) -> str:
            seed = await _seed(ctx)
            target = CLONES / hashlib.sha256(seed.encode()).hexdigest()[:12]
            if not target.resolve().is_relative_to(CLONES):
                raise ValueError("outside the clone folder")
            return str(target)
        """,
    )
    assert [(f.code, f.action.value) for f in findings if f.code in ("MR102", "MR109")] == [
        ("MR102", "rewritten")
    ]


@pytest.mark.parametrize(
    "negated", ["not _is_relative_to(target, CLONES)", "_is_relative_to(target, CLONES) is False"]
)
def test_noop_roots_hashed_into_a_name_checked_by_a_helper_are_not_a_bound(tmp_path, negated):
    """stealth-chrome-devtools-mcp: the folder named after the roots is checked by a helper of two arguments,
    `if not _is_relative_to(target, clone_root): raise ... outside ...`. The helper's own body says its second
    argument is the bound, so the roots (in the first) bound nothing: rewritten as usual, no MR109. The
    second spelling is no plain helper test: every name it mentions stays a bound, as before (MR109)."""
    findings = _findings(
        tmp_path,
        f"""\
        import hashlib
        from pathlib import Path

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        CLONES = Path("/var/clones")


        def _is_relative_to(path: Path, parent: Path) -> bool:
            try:
                path.resolve().relative_to(parent.resolve())
                return True
            except ValueError:
                return False


        async def _seed(ctx: Context) -> str:
            listed = await ctx.list_roots()
            return "|".join(sorted(str(r.uri) for r in listed))


        @mcp.tool()
        async def profile(ctx: Context) -> str:
            target = CLONES / hashlib.sha256((await _seed(ctx)).encode()).hexdigest()[:12]
            if {negated}:
                raise ValueError(f"Refusing to refresh clone outside clone root: {{target}}")
            return str(target)
        """,
    )
    found = [(f.code, f.action.value) for f in findings if f.code in ("MR102", "MR109")]
    assert found == ([("MR102", "rewritten")] if negated.startswith("not") else [("MR109", "marked")])


def test_a_helper_whose_second_argument_is_the_bound_still_bounds_the_roots(tmp_path):
    """jira2mcp: `if roots: if not _path_within_roots(resolved, roots): raise ... outside ...`; the helper
    tests `resolved.is_relative_to(root_path)` for each root: the roots are its bound (MR109, named there)."""
    findings = _findings(
        tmp_path,
        """\
        from pathlib import Path

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def _path_within_roots(resolved_path: Path, roots: list) -> bool:
            for root in roots:
                root_path = Path(str(root.uri).removeprefix("file://")).resolve()
                if resolved_path.is_relative_to(root_path):
                    return True
            return False


        @mcp.tool()
        async def download(output_path: str, ctx: Context) -> str:
            resolved = Path(output_path).resolve()
            roots = None
            try:
                roots = await ctx.list_roots()
            except Exception:
                pass
            if roots:
                if not _path_within_roots(resolved, roots):
                    raise ValueError(f"Path is outside allowed MCP roots: {resolved}")
            return str(resolved)
        """,
    )
    assert [f.code for f in findings if f.code.startswith("MR10")] == ["MR109"]
    assert "`is_relative_to` in `_path_within_roots`" in findings[0].message


def test_a_helper_the_run_cannot_see_keeps_every_argument_a_bound(tmp_path):
    """A helper imported from outside the run (`from shared.paths import within`): which argument is its
    bound is unknown, so every name the test mentions counts, as before: the roots stay a bound (MR109)."""
    findings = _findings(
        tmp_path,
        """\
        from pathlib import Path

        from fastmcp import Context, FastMCP
        from shared.paths import within

        mcp = FastMCP("x")


        @mcp.tool()
        async def save(path: str, ctx: Context) -> str:
            roots = [Path(str(r.uri)[7:]) for r in await ctx.list_roots()]
            if not within(Path(path).resolve(), roots):
                raise ValueError("path is outside the client roots")
            return path
        """,
    )
    assert [f.code for f in findings if f.code.startswith("MR10")] == ["MR109"]
    assert "a raise that says the path is outside in `save`" in findings[0].message


ALLOWED = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def _inside_any(candidate: Path, roots: list[Path]) -> bool:
            return any(candidate == r or r in candidate.parents for r in roots) or any(
                candidate.is_relative_to(r) for r in roots
            )


        async def _allowed_roots(ctx: Context) -> tuple[list[Path], str]:
{mark}            result = await ctx.session.list_roots()
            return [Path(r.uri.path) for r in result.roots], ""


        @mcp.tool()
        async def read_file(path: str, ctx: Context) -> str:
            roots, error = await _allowed_roots(ctx)
            candidate = Path(path).resolve()
            if error or not _inside_any(candidate, roots):
                return "denied"
            return candidate.read_text()
        """


def test_allow_list_returned_by_a_helper_and_checked_by_the_tool_is_marked(tmp_path):
    """The telegram-mcp shape (our own spelling): a helper returns the roots, the tool unpacks them and checks
    the requested file against them through another helper."""
    mark = _mark("            ", "a `parents` membership test", "_inside_any")
    findings = check_transformed(tmp_path, ALLOWED.format(mark=""), ALLOWED.format(mark=mark))
    assert codes(findings) == ["MR109"]


PARENTS = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def _within(candidate: Path, root: Path) -> bool:
            return candidate == root or root in candidate.parents


        async def _roots(ctx: Context) -> list[Path]:
{mark}            result = await ctx.session.list_roots()
            return [Path(r.uri.path) for r in result.roots]


        @mcp.tool()
        async def read_file(path: str, ctx: Context) -> tuple[str | None, str | None]:
            roots = await _roots(ctx)
            candidate = Path(path).resolve()
            if not any(_within(candidate, r) for r in roots):
                return None, "Path is outside allowed roots."
            return candidate.read_text(), None
        """


def test_parents_test_and_a_returned_refusal_are_bounds(tmp_path):
    """The telegram-mcp spelling: `root in candidate.parents` two calls away, the refusal returned as a value."""
    mark = _mark("            ", "a refusal that says the path is outside", "read_file")
    findings = check_transformed(tmp_path, PARENTS.format(mark=""), PARENTS.format(mark=mark))
    assert codes(findings) == ["MR109"]


@pytest.mark.parametrize(
    "spelling",
    ["from .file_access import ensure_within", "from pkg.file_access import ensure_within"],
)
def test_bound_checked_in_a_module_that_imports_nothing_back_is_marked(tmp_path, spelling):
    """`file_access.py` holds the check and no roots token, and does not import the module that reads roots:
    stage two indexes it because the reading file imports it (`Rule.follow_modules`), so the bound is seen
    (a field server's allow-list was rewritten into the caller's choice)."""
    server = f"""\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        {spelling}

        mcp = FastMCP("x")


        async def allowed(ctx: Context) -> list[Path]:
            result = await ctx.session.list_roots()
            return [Path(str(r.uri).removeprefix("file://")) for r in result.roots]


        @mcp.tool()
        async def open_file(ctx: Context, path: str) -> str:
            roots = await allowed(ctx)
            ensure_within(Path(path), roots)
            return Path(path).read_text()
        """
    access = """\
        from pathlib import Path


        def ensure_within(path: Path, roots: list[Path]) -> None:
            for root in roots:
                try:
                    path.resolve().relative_to(root.resolve())
                    return
                except ValueError:
                    continue
            raise ValueError(f"path is outside the client roots: {path}")
        """
    root = helpers._layout(tmp_path, server, {"file_access.py": access}, True)
    findings = _marked(root)
    assert [(f.code, f.path) for f in findings] == [("MR109", "pkg/server.py")]
    assert "`ensure_within`" in findings[0].message


@pytest.mark.parametrize(
    "extend",
    [
        "roots += [Path(urlparse(str(r.uri)).path) for r in response.roots]",
        "roots.extend(Path(urlparse(str(r.uri)).path) for r in response.roots)",
    ],
)
def test_roots_that_extend_an_allow_list_are_a_bound(tmp_path, extend):
    """The client's roots join the operator's list that bounds uploads: MR109, which outranks the None-versus-
    empty question (MR105) of the `response = None` fallback (a field server, scholens, was marked MR105)."""
    server = f"""\
        from pathlib import Path
        from urllib.parse import urlparse

        from mcp.server.fastmcp import FastMCP
        from mcp.server.lowlevel.server import request_ctx
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")
        CONFIGURED = [Path("/srv/papers")]


        async def client_roots() -> list[Path]:
            roots = list(CONFIGURED)
            try:
                response = await request_ctx.get().session.list_roots()
            except (McpError, RuntimeError):
                response = None
            if response is not None:
                {extend}
            return roots


        @mcp.tool()
        async def upload(path: str) -> str:
            allowed = await client_roots()
            if not any(Path(path).resolve().is_relative_to(r) for r in allowed):
                raise ValueError("outside every exposed root")
            return Path(path).read_text()
        """
    root = helpers._layout(tmp_path, server, None, True)
    findings = _marked(root)
    assert [f.code for f in findings] == ["MR109"]
    assert "`is_relative_to` in `upload`" in findings[0].message


def test_bound_checked_two_calls_down_from_the_handler_is_marked(tmp_path):
    """A low-level handler hands the roots to `upload(..., roots=...)`, which hands them to `resolve(path,
    roots)`, which checks the path against them (scholens): the sign is found two calls down."""
    server = """\
        from pathlib import Path

        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")


        def resolve(raw: str, roots: list[Path]) -> Path:
            path = Path(raw).resolve()
            if not any(path.is_relative_to(r) for r in roots):
                raise ValueError("outside every exposed root")
            return path


        async def upload(arguments: dict, roots: list[Path]) -> str:
            return resolve(str(arguments["path"]), roots).read_text()


        async def client_roots() -> list[Path]:
            result = await server.request_context.session.list_roots()
            return [Path(str(r.uri).removeprefix("file://")) for r in result.roots]


        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="upload", inputSchema={"type": "object", "properties": {}})]


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            text = await upload(arguments=arguments, roots=await client_roots())
            return [types.TextContent(type="text", text=text)]
        """
    root = helpers._layout(tmp_path, server, None, True)
    findings = _marked(root)
    assert [f.code for f in findings if f.code.startswith("MR10")] == ["MR109"]
    assert "`is_relative_to` in `resolve`" in next(f.message for f in findings if f.code == "MR109")


@pytest.mark.parametrize("relative_base", [False, True])
def test_roots_as_the_default_of_a_path_argument_the_check_also_bounds_are_no_bound(tmp_path, relative_base):
    """quick-context-mcp: the tool's own `directory` wins; only when it is unset does a helper take the first
    root; whatever comes back bounds the files the tool reads (`relative_to` under `try`). The caller already
    chooses that bound, so the roots bound nothing more: rewritten as usual, not MR109/MR110 (it was MR110,
    a false reason). With a relative `directory` resolved against the roots too, the roots are its base."""
    relative = (
        "    if not Path(directory).is_absolute():\n"
        "        return str(Path(await _first_root(ctx)) / directory)\n"
        if relative_base
        else ""
    )
    server = (
        "from pathlib import Path\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\nasync def _first_root(ctx: Context) -> str:\n'
        "    result = await ctx.session.list_roots()\n    return result.roots[0].uri.path\n\n\n"
        "async def _resolve_directory(directory: str | None, ctx: Context) -> str:\n"
        "    if directory is None:\n        return await _first_root(ctx)\n"
        + relative
        + "    return directory\n\n\n"
        "def _read(base: str, name: str) -> str:\n    root = Path(base).resolve()\n"
        "    target = (root / name).resolve()\n    try:\n        target.relative_to(root)\n"
        "    except ValueError:\n        return 'outside the directory'\n    return target.read_text()\n\n\n"
        "@mcp.tool()\nasync def search(name: str, ctx: Context, directory: str | None = None) -> str:\n"
        "    return _read(await _resolve_directory(directory, ctx), name)\n"
    )
    findings = _marked(helpers._layout(tmp_path, server, None, True))
    decided = [(f.code, f.action.value) for f in findings if f.code in ("MR101", "MR109", "MR110")]
    assert decided == [("MR101", "rewritten")], findings


DISPLAY = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    def listing(base: Path) -> list[str]:
        shown = []
        for note in base.glob("*.md"):
            try:
                shown.append(f"{{note.relative_to(base)}}: {{len(note.read_text())}}")
            except {caught}:
                shown.append(note.name)
        return shown


    @mcp.tool()
    async def notes(ctx: Context) -> list[str]:
        result = await ctx.session.list_roots()
        return listing(Path(result.roots[0].uri.path))
    """


@pytest.mark.parametrize("caught", ["OSError", "(OSError, UnicodeDecodeError)", "KeyError"])
def test_noop_relative_to_shown_under_a_try_that_cannot_catch_it_is_no_bound(tmp_path, caught):
    # agentknowledgemcp: `relative_to` prints a note's path inside `except OSError` (for `read_text`); its
    # ValueError is never an "outside" answer there, so the roots are a base folder: rewritten, not bounded.
    assert codes(_findings(tmp_path, DISPLAY.format(caught=caught))) == ["MR101"]


@pytest.mark.parametrize(
    "caught", ["ValueError", "(OSError, ValueError)", "Exception", "builtins.ValueError"]
)
def test_relative_to_under_a_try_that_catches_its_error_is_a_bound(tmp_path, caught):
    # The handler leaves out the note that is not inside (`continue`): a refusal.
    source = DISPLAY.replace("shown.append(note.name)", "continue")
    assert codes(_findings(tmp_path, source.format(caught=caught))) == ["MR109"]


@pytest.mark.parametrize("caught", ["ValueError", "Exception"])
def test_noop_relative_to_whose_handler_shows_another_name_is_no_bound(tmp_path, caught):
    # The handler shows the note's own name instead (a value computed in place): the roots are a base folder.
    assert codes(_findings(tmp_path, DISPLAY.format(caught=caught))) == ["MR101"]


FALLBACK = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    def from_path(path: Path) -> Path:
        return path.parent


    @mcp.tool()
    async def colonize(path: str, ctx: Context) -> str:
        root = Path((await ctx.session.list_roots()).roots[0].uri.path)
        try:
            Path(path).resolve().relative_to(root.resolve())
            found = root
        except ValueError:
{handler}
        return str(found)
    """


def test_noop_relative_to_whose_handler_picks_another_folder_is_no_bound(tmp_path):
    # bees' colonize_hive: a hive outside the roots' folder falls back to the folder found from the hive, it
    # is not refused. It had been taken for a check on `path` the roots skip (MR109, a false reason).
    findings = _findings(tmp_path, FALLBACK.format(handler="            found = from_path(Path(path))"))
    assert codes(findings) == ["MR101"], findings


def test_relative_to_whose_handler_sets_a_flag_is_still_a_bound(tmp_path):
    handler = "            found = None\n        if found is None:\n            raise ValueError('outside')"
    findings = _findings(tmp_path, FALLBACK.format(handler=handler))
    assert codes(findings) == ["MR109"], findings


OUTSIDE_MESSAGE = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    @mcp.tool()
    async def excerpt(end: int, ctx: Context) -> str:
        text = Path((await ctx.session.list_roots()).roots[0].uri.path, "notes.md").read_text()
        if end > len(text):
            raise ValueError({message})
        return text[:end]
    """


def test_noop_a_raise_that_says_outside_about_no_path_is_no_bound(tmp_path):
    # MemoryForge: "Citation locator is outside immutable evidence" checks a character range, not a path.
    source = OUTSIDE_MESSAGE.format(message='"Citation locator is outside immutable evidence"')
    assert codes(_findings(tmp_path, source)) == ["MR101"]


@pytest.mark.parametrize(
    "message", ['"locator is outside the workspace"', 'f"{end} is outside"', '"%s escapes the root" % end']
)
def test_a_raise_that_says_outside_about_a_path_is_a_bound(tmp_path, message):
    assert codes(_findings(tmp_path, OUTSIDE_MESSAGE.format(message=message))) == ["MR109"]
