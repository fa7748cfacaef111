"""MR151-MR153: low-level `Server` tools get the path property in their schema and their handler branch.

Before/after pairs live in tests/fixtures/lowlevel/ (`NAME.py` -> `NAME.after.py`); every schema of every
migrated fixture is evaluated and checked against the JSON Schema 2020-12 meta-schema.
"""

from __future__ import annotations

import ast
from enum import Enum
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.helpers import check_noop, check_transformed, codes

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lowlevel"


def _pair(name: str) -> tuple[str, str]:
    return (FIXTURES / f"{name}.py").read_text(), (FIXTURES / f"{name}.after.py").read_text()


def tool_schemas(text: str) -> dict[str, Any]:
    """Evaluate `Tool(name=..., inputSchema=...)` of a module (literals, constants, pydantic models)."""
    tree = ast.parse(text)
    namespace: dict[str, Any] = {}
    exec("from enum import Enum\nfrom pydantic import BaseModel, Field\nfrom typing import *", namespace)
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.ClassDef)):
            try:
                exec(compile(ast.Module([statement], []), "<fixture>", "exec"), namespace)
            except Exception:  # noqa: S112 - a statement that needs the SDK: not a schema
                continue
    found: dict[str, Any] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if not (
            (isinstance(func, ast.Name) and func.id == "Tool")
            or (isinstance(func, ast.Attribute) and func.attr == "Tool")
        ):
            continue
        kwargs = {k.arg: k.value for k in node.keywords}
        schema = kwargs.get("inputSchema") or kwargs.get("input_schema")
        if "name" not in kwargs or schema is None:
            continue
        try:
            name = eval(compile(ast.Expression(kwargs["name"]), "<name>", "eval"), namespace)
            value = eval(compile(ast.Expression(schema), "<schema>", "eval"), namespace)
        except Exception:  # a comprehension variable or a runtime-built schema
            continue
        found[name.value if isinstance(name, Enum) else name] = value
    return found


def check_schemas(text: str, with_root: set[str], shape: dict[str, str] | None = None) -> dict[str, Any]:
    schemas = tool_schemas(text)
    assert with_root <= set(schemas), (with_root, set(schemas))
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema.get("type") == "object", (name, schema)
        props = schema.get("properties", {})
        if name in with_root:
            assert "root" in props, (name, schema)
            assert "root" not in schema.get("required", []), (name, schema)
            wanted = (shape or {}).get(name)
            if wanted == "list":
                assert props["root"].get("type") == "array", props["root"]
            elif wanted == "single":
                assert props["root"].get("type") == "string" or "anyOf" in props["root"], props["root"]
        else:
            assert "root" not in props, (name, schema)
    return schemas


# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_lowlevel_server_without_roots(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="echo", inputSchema={"type": "object"})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            return [types.TextContent(type="text", text=str(arguments))]
        """,
    )
    assert findings == []


def test_noop_users_own_list_roots(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from myapp import Workspace

        server = Server("x")
        workspace = Workspace()

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="roots", inputSchema={"type": "object"})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "roots":
                return [types.TextContent(type="text", text=str(await workspace.list_roots()))]
            raise ValueError(name)
        """,
    )
    assert findings == []


# --- rewrites --------------------------------------------------------------------------------------------


def test_mcp1_if_elif_literal_constant_and_helper(tmp_path):
    before, after = _pair("mcp1_ifelif")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR101", "MR107", "MR151", "MR151", "MR151"]
    check_schemas(after, {"where", "read"}, {"where": "list", "read": "single"})
    # the tool that does not reach roots keeps its schema untouched
    assert (
        'types.Tool(name="echo", inputSchema={"type": "object", "properties": {"text": {"type": "string"}}})'
        in after
    )


def test_mcp1_match_on_enum_with_pydantic_models(tmp_path):
    before, after = _pair("mcp1_match_models")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR151", "MR151"]
    check_schemas(after, {"git_status"})


def test_mcp1_class_based_server_with_lookup_error_guard(tmp_path):
    before, after = _pair("mcp1_class")
    check_transformed(tmp_path, before, after)
    check_schemas(after, {"project_root"})


def test_mcp1_roots_read_before_dispatch_reaches_every_tool(tmp_path):
    before, after = _pair("mcp1_shared_prelude")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR151"] * 3
    check_schemas(after, {"ls", "pwd"}, {"ls": "list", "pwd": "list"})


def test_mcp2_dispatch_table_and_schema_shared_with_a_tool_without_roots(tmp_path):
    before, after = _pair("mcp2_dispatch_table")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR101", "MR107", "MR151"]
    schemas = check_schemas(after, {"resolve"})
    assert schemas["stat"] == {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    }
    assert "copy of its shared schema" in next(f.message for f in findings if f.code == "MR151")


def test_mcp2_branches_add_request_handler_and_shared_constant(tmp_path):
    before, after = _pair("mcp2_branches")
    check_transformed(tmp_path, before, after)
    check_schemas(after, {"glob", "count"})
    assert "except RootsArgumentError as exc:" in after


def test_fastmcp_private_lowlevel_server(tmp_path):
    before, after = _pair("fastmcp_private_server")
    check_transformed(tmp_path, before, after)
    check_schemas(after, {"where"})


def test_pydantic_field_for_old_python_targets(tmp_path):
    before, _ = _pair("mcp1_match_models")
    findings = check_transformed(
        tmp_path,
        before,
        _pair("mcp1_match_models")[1]
        .replace("root: str | None = Field(", "root: Optional[str] = Field(")
        .replace("from enum import Enum\n", "from enum import Enum\nfrom typing import Optional\n"),
        settings={"target-version": "3.9"},
    )
    assert codes(findings) == ["MR151", "MR151"]


def test_other_param_name(tmp_path):
    before, after = _pair("mcp1_shared_prelude")
    after = after.replace('"root":', '"workdir":').replace(
        '.get("root"), name="root"', '.get("workdir"), name="workdir"'
    )
    check_transformed(tmp_path, before, after, settings={"param-name": "workdir"})


def test_existing_property_is_reused(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="ls", inputSchema={"type": "object", "properties": {"root": {"type": "string"}}})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "ls":
                result = await server.request_context.session.list_roots()
                return [types.TextContent(type="text", text=str(result.roots[0].uri))]
            raise ValueError(name)
        """,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        from pkg._mcp_roots_compat import list_roots_compat

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="ls", inputSchema={"type": "object", "properties": {"root": {"type": "string"}}})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "ls":
                result = await list_roots_compat(
                    server.request_context, arguments.get("root"), name="root"
                )
                return [types.TextContent(type="text", text=str(result.roots[0].uri))]
            raise ValueError(name)
""",
    )
    assert "already has" in next(f.message for f in findings if f.line == 8)


# --- refusals --------------------------------------------------------------------------------------------


def test_refuses_runtime_and_imported_schemas_and_unknown_tools(tmp_path):
    before, after = _pair("refuse_dynamic_schema")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR152", "MR152", "MR153"]
    assert all(f.action.value == "marked" for f in findings)
    assert "list_roots_compat" not in after


def test_refuses_tools_listed_at_runtime(tmp_path):
    before, after = _pair("refuse_generated_tools")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR152"]


def test_refuses_dispatched_function_without_arguments_parameter(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        async def where(a, b):
            result = await server.request_context.session.list_roots()
            return str(result.roots[0].uri)

        TOOLS = {"where": where}

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="where", inputSchema={"type": "object"})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            return [types.TextContent(type="text", text=await TOOLS[name]())]
        """,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        async def where(a, b):
            # migrate-roots: MR153: cannot tell which parameter of this dispatched function
            #   receives the tool arguments: the dispatch `TOOLS[name]()` (pkg/server.py:21)
            #   does not hand on the arguments dict
            result = await server.request_context.session.list_roots()
            return str(result.roots[0].uri)

        TOOLS = {"where": where}

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="where", inputSchema={"type": "object"})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            return [types.TextContent(type="text", text=await TOOLS[name]())]
""",
    )
    assert codes(findings) == ["MR153"]


def test_roots_in_list_tools_handler_stays_mr103(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            result = await server.request_context.session.list_roots()
            return [types.Tool(name="where", description=str(result.roots), inputSchema={"type": "object"})]
        """,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            # migrate-roots: MR103: roots read in the handler `list_tools` registered by
            #   `@server.list_tools` (pkg/server.py:7), outside any tool call: nothing can pass
            #   a path argument here
            result = await server.request_context.session.list_roots()
            return [types.Tool(name="where", description=str(result.roots), inputSchema={"type": "object"})]
""",
    )
    assert codes(findings) == ["MR103"]


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in FIXTURES.glob("*.py") if not p.stem.endswith(".after"))
)
def test_every_fixture_has_a_valid_after(name):
    before, after = _pair(name)
    ast.parse(after)
    for schema in tool_schemas(after).values():
        jsonschema.Draft202012Validator.check_schema(schema)
        if not name.startswith("refuse_"):  # refusal fixtures hold the odd schemas that are refused
            assert schema["type"] == "object"


def test_mcp1_dispatch_table_entered_from_a_branch(tmp_path):
    before, after = _pair("mcp1_dispatch_table")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR101", "MR107", "MR151", "MR151", "MR151", "MR151"]
    check_schemas(after, {"touch", "mkdir", "chmod"})


def test_refuses_merged_untyped_and_duplicate_schemas(tmp_path):
    before, after = _pair("refuse_merged_and_non_object")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR152", "MR152", "MR153"]


def test_helper_in_another_file_reached_from_a_branch(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        from .workspace import project_dir

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="ls", inputSchema={"type": "object", "properties": {}})]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "ls":
                return [types.TextContent(type="text", text=await project_dir(server))]
            raise ValueError(name)
        """,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        from .workspace import project_dir

        # The explicit directory argument of the tools below, in place of MCP roots (deprecated
        # in MCP 2026-07-28, SEP-2577).
        ROOT_PROPERTY = {
            "type": "string",
            "description": (
                "Absolute path (or file:// URI) of the directory this tool works in, usually "
                "the project or workspace root. Required when the MCP client does not provide "
                "roots."
            ),
        }

        server = Server("x")

        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [
                types.Tool(
                    name="ls",
                    inputSchema={"type": "object", "properties": {"root": ROOT_PROPERTY}},
                )
            ]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "ls":
                return [
                    types.TextContent(
                        type="text", text=await project_dir(server, root=arguments.get("root"))
                    )
                ]
            raise ValueError(name)
""",
        extra={
            "workspace.py": """\
            from mcp.server.lowlevel import Server

            async def project_dir(server: Server) -> str:
                result = await server.request_context.session.list_roots()
                return str(result.roots[0].uri)
            """
        },
        extra_after={
            "workspace.py": """\
            from mcp.server.lowlevel import Server

            from pkg._mcp_roots_compat import list_roots_compat

            async def project_dir(server: Server, root: str | list[str] | None = None) -> str:
                result = await list_roots_compat(server.request_context, root, name="root")
                return str(result.roots[0].uri)
"""
        },
    )
    assert codes(findings) == ["MR101", "MR107", "MR151"]


def test_multiline_literals_keep_their_layout_in_nested_handlers(tmp_path):
    before, after = _pair("mcp1_nested_layout")
    check_transformed(tmp_path, before, after)
    check_schemas(after, {"a", "b"})


def test_pydantic_model_shared_with_a_tool_without_roots_gets_a_copy(tmp_path):
    before, after = _pair("mcp1_shared_model")
    check_transformed(tmp_path, before, after)
    schemas = check_schemas(after, {"read"})
    assert schemas["stat"]["properties"] == {"path": {"title": "Path", "type": "string"}}
    assert "class PathArgs(BaseModel):\n    path: str\n" in after  # the model itself is untouched
