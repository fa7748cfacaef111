"""Tools built at run time that take their path by key (`args.pop("project_dir")`) and read roots only
without it (codemods/program/keyed.py, `_roots_plan_tools.behind_key`): the reads pass None and name the key;
no argument is added. Noop (still marked) first."""

from __future__ import annotations

import textwrap
from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)
check_transformed = partial(helpers.check_transformed, select=["MR1"])

HEAD = """\
    import inspect
    from pathlib import Path
    from typing import Any

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("runtime")


    async def root_from_client(ctx: Any) -> Path | None:
        try:
            session = getattr(ctx, "session", None)
            if session is None or not hasattr(session, "list_roots"):
                return None
            result = await {read}
        except Exception:
            return None
        return Path(str(result.roots[0].uri)[7:]) if result.roots else None


"""

TAIL = """\


    def _signature() -> inspect.Signature:
        return inspect.Signature(
            [
                inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context),
                inspect.Parameter({declared}, inspect.Parameter.KEYWORD_ONLY, default=None),
            ]
        )


    def _make(name: str) -> Any:
        async def _handler(ctx: Context, **kwargs: Any) -> str:
    {handler}

        _handler.__signature__ = _signature()
        return _handler


    mcp.add_tool(_make("scan"), name="scan")
"""

HANDLER = "        return await _invoke(dict(kwargs), ctx)"
OLD = "session.list_roots()"
NEW = 'list_roots_compat(session, None, name="project_dir")'
IMPORT = "from pkg._mcp_roots_compat import list_roots_compat\n"

MYCO = """\
    async def _invoke(args: dict[str, Any], ctx: Any) -> str:
        args_in = dict(args)
        project_dir: Path | None = None
        raw = args_in.pop("project_dir", None)
        if raw:
            project_dir = Path(str(raw)).expanduser()
        if project_dir is None and ctx is not None:
            project_dir = await root_from_client(ctx)
        return str(project_dir or Path.cwd())
"""


def source(
    dispatch: str,
    *,
    read: str = OLD,
    declared: str = '"project_dir"',
    handler: str = HANDLER,
) -> str:
    text = HEAD.format(read=read) + textwrap.indent(textwrap.dedent(dispatch), "    ")
    text += TAIL.format(declared=declared, handler=handler)
    return textwrap.dedent(text)


def migrated(text: str) -> str:
    """`text` with its read made through the shim, and the shim's import placed after the SDK's."""
    text = text.replace(OLD, NEW)
    sdk = "from mcp.server.fastmcp import Context, FastMCP\n"
    return text.replace(sdk, sdk + "\n" + IMPORT)


def test_noop_the_signature_declares_no_such_parameter(tmp_path):
    findings = check_noop(tmp_path, source(MYCO, declared='"verbose"'))
    assert {f.code for f in findings} == {"MR104"}
    assert "synthesized `__signature__`" in findings[0].message


def test_noop_a_read_made_whatever_the_arguments(tmp_path):
    dispatch = MYCO.replace("if project_dir is None and ctx is not None:", "if ctx is not None:")
    assert {f.code for f in check_noop(tmp_path, source(dispatch))} == {"MR104"}


def test_noop_a_key_that_names_no_path(tmp_path):
    dispatch = MYCO.replace('"project_dir"', '"verbose"')
    findings = check_noop(tmp_path, source(dispatch, declared='"verbose"'))
    assert {f.code for f in findings} == {"MR104"}


def test_noop_a_local_given_another_value_before_the_test(tmp_path):
    # `project_dir` may be set by the default whatever the caller gave: the read is not behind the key.
    dispatch = MYCO.replace(
        "if project_dir is None and",
        "project_dir = Path.home() if not raw else project_dir\n        if project_dir is None and",
    )
    assert {f.code for f in check_noop(tmp_path, source(dispatch))} == {"MR104"}


def test_noop_a_guard_inside_a_loop(tmp_path):
    dispatch = """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            for _ in range(2):
                raw = args.get("project_dir")
                if not raw:
                    raw = await root_from_client(ctx)
            return str(raw)
    """
    assert {f.code for f in check_noop(tmp_path, source(dispatch))} == {"MR104"}


def test_noop_a_helper_also_called_without_the_guard(tmp_path):
    dispatch = MYCO + textwrap.dedent("""\


        async def _status(ctx: Any) -> str:
            return str(await root_from_client(ctx))
        """)
    handler = "        await _status(ctx)\n" + HANDLER
    findings = check_noop(tmp_path, source(dispatch, handler=handler))
    assert {f.code for f in findings} == {"MR104"}


SIMPLE = """\
    async def _invoke(args: dict[str, Any], ctx: Any) -> str:
        raw = args.get("project_dir")
        if raw is None:
            raw = await root_from_client(ctx)
        return str(raw)
"""


def _lines(*lines: str) -> str:
    """A handler body of several lines (the template indents the first one)."""
    return "        " + "\n            ".join(lines)


def _simple(*before: str, dispatch: str = SIMPLE) -> str:
    """SIMPLE with `before` put between its key read and its test."""
    lines = "".join(f"        {line}\n" for line in before)
    return dispatch.replace("        if raw is None:\n", lines + "        if raw is None:\n")


# Each read runs although the caller gave `project_dir` (helpers' adversarial sweep): marked, never rewritten.
NOT_BEHIND = {
    "the tool hands on another dict": (SIMPLE, '        return await _invoke({"mode": "fast"}, ctx)'),
    "the key read from another parameter": (
        SIMPLE.replace("ctx: Any) -> str:", "ctx: Any, defaults: dict) -> str:").replace(
            'args.get("project_dir")', 'defaults.get("project_dir")'
        ),
        '        return await _invoke(dict(kwargs), ctx, {"project_dir": None})',
    ),
    "the parameter rebound first": (
        SIMPLE.replace(
            "        raw = args.get", '        args = dict(args.get("options") or {})\n        raw = args.get'
        ),
        HANDLER,
    ),
    "the tool pops the key before handing its arguments on": (
        SIMPLE,
        _lines('kwargs.pop("project_dir", None)', HANDLER.strip()),
    ),
    "the dict changed before the key is read": (
        SIMPLE.replace("        raw = args.get", "        args.update(DEFAULTS)\n        raw = args.get"),
        HANDLER,
    ),
    "the key read only on one branch": (
        SIMPLE.replace(
            '        raw = args.get("project_dir")\n',
            '        raw = None\n        if args.get("mode") == "local":\n            raw = args.get("project_dir")\n',
        ),
        HANDLER,
    ),
    "a walrus rebinds the local": (_simple("print((raw := DEFAULTS.get(raw)))"), HANDLER),
    "an augmented assignment": (_simple("raw *= int(bool(DEFAULTS))"), HANDLER),
    "tuple unpacking": (_simple("raw, _ = DEFAULTS.get(raw), 1"), HANDLER),
    "a loop target": (_simple("for raw in DEFAULTS.get('candidates', [raw]):", "    pass"), HANDLER),
    "set to None when invalid": (_simple("if raw and not Path(raw).is_dir():", "    raw = None"), HANDLER),
    "a lambda run later": (
        """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            raw = args.get("project_dir")
            pick = lambda: root_from_client(ctx) if raw is None else None
            raw = args.get("override")
            return str(await pick())
        """,
        HANDLER,
    ),
    "a value that may be None": (
        MYCO.replace("Path(str(raw)).expanduser()", "_git_root(Path(str(raw)))"),
        HANDLER,
    ),
    "the helper handed on as a value": (
        SIMPLE,
        _lines("warm = functools.partial(root_from_client, ctx)", "print(await warm())", HANDLER.strip()),
    ),
    "the dispatcher called at module level": (
        SIMPLE + '\n\nif __name__ == "__main__":\n    asyncio.run(_invoke({}, None))\n',
        HANDLER,
    ),
}


@pytest.mark.parametrize(("dispatch", "handler"), NOT_BEHIND.values(), ids=NOT_BEHIND.keys())
def test_noop_a_read_not_only_behind_the_key(tmp_path, dispatch, handler):
    text = source(dispatch, handler=handler).replace(
        "import inspect\n", "import asyncio\nimport functools\nimport inspect\n"
    )
    text = text.replace('mcp = FastMCP("runtime")\n', 'mcp = FastMCP("runtime")\nDEFAULTS: dict = {}\n')
    text += "\n\ndef _git_root(path: Path) -> Path | None:\n    return path if (path / '.git').is_dir() else None\n"
    findings = check_noop(tmp_path, text)
    assert findings and {f.code for f in findings} <= {"MR103", "MR104"}, findings


def test_noop_a_signature_that_declares_the_key_only_sometimes(tmp_path):
    # One factory makes tools with and without `project_dir` (`if with_dir:`); another `inspect.Parameter(
    # "project_dir")` elsewhere in the file says nothing about these tools.
    text = source(SIMPLE).replace(
        '            inspect.Parameter("project_dir", inspect.Parameter.KEYWORD_ONLY, default=None),\n',
        "",
    )
    assert text.count('Parameter("project_dir"') == 0
    text = text.replace(
        "    return inspect.Signature(\n",
        "    params = []\n    if WITH_DIR:\n"
        '        params.append(inspect.Parameter("project_dir", inspect.Parameter.KEYWORD_ONLY))\n'
        "    return inspect.Signature(\n",
    ).replace("        ]\n    )", "        ]\n        + params\n    )")
    text += '\n\nWITH_DIR = False\nDOC = [inspect.Parameter("project_dir", inspect.Parameter.KEYWORD_ONLY)]\n'
    findings = check_noop(tmp_path, text)
    assert {f.code for f in findings} == {"MR104"}, findings


def test_noop_a_dict_that_is_no_parameter(tmp_path):
    dispatch = MYCO.replace("args_in = dict(args)", 'args_in = {"project_dir": None}')
    assert {f.code for f in check_noop(tmp_path, source(dispatch))} == {"MR104"}


SPELLINGS = {
    "myco: a local set from the key under `if raw:`, tested with `and`": MYCO,
    "`get`, then `if not raw:`": """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            raw = args.get("project_dir")
            if not raw:
                raw = await root_from_client(ctx)
            return str(raw)
    """,
    "`or`": """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            where = args.get("project_dir") or await root_from_client(ctx)
            return str(where)
    """,
    "an early return, a subscript of a `{**args}` copy": """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            given = {**args}
            raw = given["project_dir"]
            if raw is not None:
                return raw
            return str(await root_from_client(ctx))
    """,
    "a conditional expression, in an `else`": """\
        async def _invoke(args: dict[str, Any], ctx: Any) -> str:
            raw = args.copy().pop("project_dir", None)
            if raw:
                return raw
            else:
                found = None if raw else await root_from_client(ctx)
            return str(found)
    """,
}


@pytest.mark.parametrize("dispatch", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_read_behind_the_key_passes_none(tmp_path, dispatch):
    before = source(dispatch)
    findings = check_transformed(tmp_path, before, migrated(before))
    assert [f.code for f in findings] == ["MR101"]
    assert "passed in as `None`: this read runs only when the caller leaves `project_dir` out" in (
        findings[0].message
    )


def test_the_tool_itself_reads_the_key(tmp_path):
    body = textwrap.dedent("""\
        raw = kwargs.get("project_dir")
        if raw is None:
            raw = await root_from_client(ctx)
        return str(raw)""")
    handler = "        " + textwrap.indent(body, " " * 12).lstrip()  # the template indents the first line
    before = source("", handler=handler)
    findings = check_transformed(tmp_path, before, migrated(before))
    assert [f.code for f in findings] == ["MR101"]


def test_a_parameter_named_by_keyword_and_the_helper_in_another_module(tmp_path):
    helper = textwrap.dedent(HEAD.format(read=OLD)).split('mcp = FastMCP("runtime")\n')[1]
    server = source(MYCO).replace(helper, "\n\n")
    assert "root_from_client(ctx: Any)" not in server
    server = server.replace(
        'inspect.Parameter("project_dir", inspect.Parameter.KEYWORD_ONLY,',
        'inspect.Parameter(kind=inspect.Parameter.KEYWORD_ONLY, name="project_dir",',
    )
    server = server.replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom pkg.helpers import root_from_client\n",
    )
    helpers_before = "from pathlib import Path\nfrom typing import Any\n" + textwrap.dedent(helper)
    helpers_after = helpers_before.replace(OLD, NEW).replace(
        "from typing import Any\n", "from typing import Any\n\n" + IMPORT
    )
    findings = check_transformed(
        tmp_path,
        server,
        server,
        extra={"helpers.py": helpers_before},
        extra_after={"helpers.py": helpers_after},
    )
    assert [f.code for f in findings] == ["MR101"]


def test_a_run_time_tool_calling_a_helper_another_tool_threads_is_marked_at_its_call(tmp_path):
    # A plain tool reaches `_invoke` without the key, so `_invoke` takes `root`; the run-time tool's call passes
    # none: said there (it was silent: its MR104 vanished once the read was rewritten for the plain tool).
    text = source(MYCO) + textwrap.dedent("""\


        @mcp.tool()
        async def status(ctx: Context) -> str:
            return await _invoke({}, ctx)
        """)
    root = helpers._layout(tmp_path, text, None, True)
    first = helpers.run_engine(root, select=["MR1"])
    found = [f for r in first for f in r.findings if f.code == "MR104"]
    assert len(found) == 1 and found[0].action.value == "marked", found
    assert found[0].message.startswith(
        "`_invoke` now takes `root`, which other tools pass; this call passes none"
    )
    assert "tool `scan`, registered by" in found[0].message
    again = helpers.run_engine(root, select=["MR1"])
    assert [r.status.value for r in again if r.status.value == "changed"] == []
    assert [f.code for r in again for f in r.findings if f.code == "MR104"] == ["MR104"]


def test_noop_a_local_a_nested_function_resets_is_no_flag_of_the_process(tmp_path):
    # `nonlocal raw` in a nested `reset()` is the dispatcher's own local, reset per call: not "once per process"
    # (MR211 said so); the read is not behind the key either, so it stays the run-time tool's MR104.
    dispatch = SIMPLE.replace(
        "        if raw is None:\n",
        "        def reset() -> None:\n            nonlocal raw\n            raw = None\n\n"
        '        if args.get("fresh"):\n            reset()\n        if raw is None:\n',
    )
    findings = check_noop(tmp_path, source(dispatch))
    assert {f.code for f in findings} == {"MR104"}, findings


def _swap(old: str, new: str):
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new)

    return change


HANDLER_DEF = "    async def _handler(ctx: Context, **kwargs: Any) -> str:\n"
CALL = "        return await _invoke(dict(kwargs), ctx)\n"
# A second round of the helpers' adversarial sweep: each still rewrote a read that runs with the key given, or
# under a signature that may lack it; now marked.
STILL_NOT = {
    "the builder returns early without the key": _swap(
        "def _signature() -> inspect.Signature:\n",
        "def _signature() -> inspect.Signature:\n    if PLAIN:\n        return inspect.Signature([])\n",
    ),
    "a named parameter takes the key before **kwargs": _swap(
        HANDLER_DEF,
        "    async def _handler(ctx: Context, project_dir: str | None = None, **kwargs: Any) -> str:\n",
    ),
    "a coroutine made before kwargs change": _swap(
        CALL,
        "        pending = _invoke(kwargs, ctx)\n        kwargs.pop('project_dir', None)\n        return await pending\n",
    ),
    "a decorated dispatcher": _swap("async def _invoke(", "@FRESH\nasync def _invoke("),
    "a recursive dispatcher": _swap(
        '    raw = args.get("project_dir")\n',
        '    if args.get("fresh"):\n        return await _invoke({}, ctx)\n    raw = args.get("project_dir")\n',
    ),
    "a comprehension that drops the key": _swap(
        CALL, '        return await _invoke({k: v for k, v in kwargs.items() if k != "project_dir"}, ctx)\n'
    ),
    "positions unknown after a starred argument": _swap(
        "async def _invoke(args: dict[str, Any], ctx: Any)",
        "async def _invoke(opts: dict, args: dict[str, Any], ctx: Any)",
    ),
    "a signature set by a decorator": _swap("    _handler.__signature__ = _signature()\n", ""),
}


@pytest.mark.parametrize("change", STILL_NOT.values(), ids=STILL_NOT.keys())
def test_noop_still_not_behind_the_key(tmp_path, change):
    text = change(source(SIMPLE))
    if "opts: dict" in text:
        text = text.replace(CALL, "        return await _invoke(*BASE, dict(kwargs), ctx=ctx)\n")
    if "by a decorator" in str(change) or "_handler.__signature__" not in text:
        text = text.replace(HANDLER_DEF, "    @_with_signature(_signature())\n" + HANDLER_DEF)
    text += textwrap.dedent("""\


        PLAIN = False
        BASE = ({},)


        def FRESH(fn):
            async def inner(args, ctx):
                return await fn({}, ctx)

            return inner


        def _with_signature(sig):
            def deco(fn):
                fn.__signature__ = sig
                return fn

            return deco
        """)
    findings = check_noop(tmp_path, text)
    assert findings and {f.code for f in findings} <= {"MR103", "MR104"}, findings


def test_noop_a_same_named_handler_of_another_factory_has_no_signature(tmp_path):
    text = source(SIMPLE) + textwrap.dedent("""\


        def _make_plain(name: str) -> Any:
            async def _handler(ctx: Context, **kwargs: Any) -> str:
                return await _invoke(dict(kwargs), ctx)

            return _handler


        mcp.add_tool(_make_plain("status"), name="status")
        """)
    findings = check_noop(tmp_path, text)
    assert findings and {f.code for f in findings} <= {"MR103", "MR104"}, findings


def test_a_signature_set_by_setattr_counts(tmp_path):
    before = source(SIMPLE).replace(
        "    _handler.__signature__ = _signature()\n",
        '    setattr(_handler, "__signature__", _signature())\n',
    )
    findings = check_transformed(tmp_path, before, migrated(before))
    assert [f.code for f in findings] == ["MR101"]


def test_a_call_that_passes_the_argument_by_position_or_expression_is_not_marked(tmp_path):
    text = source(MYCO) + textwrap.dedent("""\


        @mcp.tool()
        async def status(ctx: Context) -> str:
            return await _invoke({}, ctx)
        """)
    root = helpers._layout(tmp_path, text, None, True)
    helpers.run_engine(root, select=["MR1"])
    server = root / "pkg" / "server.py"
    fixed = server.read_text().replace(
        "        return await _invoke(dict(kwargs), ctx)\n",
        '        return await _invoke(dict(kwargs), ctx, [str(kwargs.get("project_dir"))])\n',
    )
    server.write_text(
        fixed.replace(
            fixed[
                fixed.index("        # migrate-roots: MR104") : fixed.index(
                    "        return await _invoke(dict(kwargs), ctx, ["
                )
            ],
            "",
        )
    )
    again = helpers.run_engine(root, select=["MR1"])
    assert "MR104" not in [f.code for r in again for f in r.findings], again
