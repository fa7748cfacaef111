"""A tool that calls another tool as a function passes its own argument on (codemods/_roots_plan_tools.tool_to_tool).

Measured on the field (spellbook): `spawn_claude_session` returns `await spawn_session(ctx, prompt, wd, ...)`;
both gained `root`, but the call did not pass it, so the outer tool took the argument and dropped it. The
e2e is tests/test_program_model_e2e.py (`where_first_again`).
"""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

HEAD = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


"""


def _run(tmp_path, body: str) -> str:
    root = helpers._layout(tmp_path, HEAD + textwrap.dedent(body), None, True)
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    text = (root / "pkg" / "server.py").read_text()
    assert not helpers.flakes(text), helpers.flakes(text)
    return text


def test_noop_a_tool_that_calls_a_plain_function(tmp_path):
    text = _run(
        tmp_path,
        """\
        def shout(text: str) -> str:
            return text.upper()


        @mcp.tool()
        async def where(ctx: Context) -> str:
            return shout(await first_root(ctx))
        """,
    )
    assert "shout(await first_root(ctx, root=root))" in text


@pytest.mark.parametrize(
    "call",
    [
        "await inner(ctx, prompt)",
        "await inner(ctx, prompt=prompt)",
        "await inner(ctx=ctx, prompt=prompt, mode='x')",
        "(await inner(ctx, prompt)).strip()",
    ],
)
def test_the_outer_tool_passes_its_new_argument(tmp_path, call):
    text = _run(
        tmp_path,
        f"""\
        @mcp.tool()
        async def inner(ctx: Context, prompt: str, mode: str = "") -> str:
            return prompt + await first_root(ctx)


        @mcp.tool()
        async def outer(ctx: Context, prompt: str) -> str:
            return {call}
        """,
    )
    outer = text.split("async def outer")[1]
    assert "root: RootPath = None" in outer and "root=root)" in outer, outer


def test_an_existing_argument_the_call_already_gives_is_not_given_twice(tmp_path):
    """`inner` reuses its `project_dir` (the helper reads roots only when it is unset); `outer` gives it."""
    text = _run(
        tmp_path,
        """\
        async def resolve(ctx: Context, project_dir: str | None) -> str:
            if project_dir:
                return project_dir
            return await first_root(ctx)


        @mcp.tool()
        async def inner(ctx: Context, project_dir: str | None = None) -> str:
            return await resolve(ctx, project_dir)


        @mcp.tool()
        async def outer(ctx: Context, project_dir: str | None = None) -> str:
            return await inner(ctx, project_dir)
        """,
    )
    assert "return await inner(ctx, project_dir)\n" in text, text
    assert text.count("project_dir=") == 0, text
    # Nothing in `outer` would read a new argument: it takes none.
    assert "async def outer(ctx: Context, project_dir: str | None = None) -> str:" in text, text


@pytest.mark.parametrize(
    "guard",
    [
        "if working_directory is None:\n    working_directory = await first_root(ctx)",
        "if not working_directory:\n    working_directory = await first_root(ctx)",
        "if working_directory:\n    pass\nelse:\n    working_directory = await first_root(ctx)",
    ],
    ids=["is-none", "falsy", "else"],
)
def test_a_tool_whose_own_path_argument_skips_the_roots_takes_no_second_one(tmp_path, guard):
    """spellbook's `spawn_session`: the roots fill `working_directory` only when it is unset; the tool checks
    an explicit one (`check_input`). A new `root` would be a second argument that skips that check."""
    body = (
        "def check_input(value: str) -> None:\n"
        "    if ';' in value:\n"
        "        raise ValueError(value)\n\n\n"
        "@mcp.tool()\n"
        "async def spawn(ctx: Context, prompt: str, working_directory: str | None = None) -> str:\n"
        "    if working_directory:\n"
        "        check_input(working_directory)\n"
        + textwrap.indent(guard, "    ")
        + "\n    return prompt + working_directory\n"
    )
    text = _run(tmp_path, body)
    assert "async def spawn(ctx: Context, prompt: str, working_directory: str | None = None) -> str:" in text
    assert "async def first_root(ctx: Context) -> str:" in text, text
    assert 'result = await list_roots_compat(ctx, None, name="working_directory")' in text, text
    assert "RootPath" not in text


def test_noop_a_guard_on_a_parameter_that_is_no_path(tmp_path):
    """`prompt` skips the roots when set, but it is no directory: the tool takes a `root` argument as usual."""
    text = _run(
        tmp_path,
        """\
        @mcp.tool()
        async def ask(ctx: Context, prompt: str | None = None) -> str:
            if prompt is None:
                prompt = await first_root(ctx)
            return prompt
        """,
    )
    assert "async def ask(ctx: Context, prompt: str | None = None, root: RootPath = None) -> str:" in text, (
        text
    )


@pytest.mark.parametrize("annotation", ["int | None", "Optional[int]", "uuid.UUID | None", "bool"])
def test_noop_a_path_named_parameter_typed_as_no_path_is_not_the_argument(tmp_path, annotation):
    """`project: int | None` is a project id the roots pick: a path-like name, but no path can be an `int`.
    Taken for the argument, the error told the model to pass a directory there, which fails validation."""
    text = _run(
        tmp_path,
        f"""\
        import uuid
        from typing import Optional

        IDS: dict = {{}}


        @mcp.tool()
        async def ticket(ctx: Context, title: str, project: {annotation} = None) -> str:
            if project is None:
                project = IDS.get(await first_root(ctx), 0)
            return title + str(uuid.uuid4()) + str(Optional)
        """,
    )
    assert f"project: {annotation} = None, root: RootPath = None" in text, text
    assert 'name="project"' not in text, text


def test_tools_sharing_a_helper_take_one_name_and_its_error_names_it(tmp_path):
    """`remember` keeps a local `root`, so its argument is `root_path`; `recall`, which shares the helper, took
    `root`, and the helper's error asked both for `root`: `remember` drops it as unknown, and the model, doing
    as told, could never recover (gdc-claude-plugin)."""
    text = _run(
        tmp_path,
        """\
        @mcp.tool()
        async def remember(ctx: Context, note: str) -> str:
            root = await first_root(ctx)
            return root + note


        @mcp.tool()
        async def recall(ctx: Context) -> str:
            return await first_root(ctx)
        """,
    )
    assert "async def remember(ctx: Context, note: str, root_path: RootPath = None) -> str:" in text, text
    assert "async def recall(ctx: Context, root_path: RootPath = None) -> str:" in text, text
    assert 'name="root_path"' in text, text
