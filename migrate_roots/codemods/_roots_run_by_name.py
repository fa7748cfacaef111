"""A tool that gains a path argument, run by other code without it: through the server by its name
(`await mcp.call_tool("where", {})`, B's r11), on a parent server that mounts the tool's server with a prefix
(`mcp.call_tool("fs_where", {})` after `mcp.mount(fs, namespace="fs")`, sweep R r01), from another module
(`fs.call_tool("where", {})`), or through its fastmcp tool object (`(await mcp.get_tool("where")).run({})`,
fastmcp 2's `await where.run({})`: sweep R r03). That run passes no path, so on MCP 2026-07-28 requests the tool
asks for one: marked MR104 at the call (never rewritten: the caller's path is its own to choose).

Index: which runs a module makes (`runs`: "name:<tool name>" or "fn:<dotted name of a tool object>") and which
servers it mounts with a prefix (`mounts`). Plan: `Plan.by_name`, what each such key runs (`plan`). Rewrite: the
marker (`mark`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_handed_to import _fq
from migrate_roots.codemods._roots_model import Plan, import_root
from migrate_roots.codemods._roots_uses import spells
from migrate_roots.codemods.program.model import _short
from migrate_roots.model import Severity

if TYPE_CHECKING:
    from migrate_roots.codemods._roots_model import Summary
    from migrate_roots.codemods.base import FileState

Run = tuple[
    cst.Call, tuple[str, ...], str, str, "cst.BaseExpression | None"
]  # call, keys, how, spelled, args


def _string(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        return node.evaluated_value
    return None


def _arg(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    return positional[index] if len(positional) > index else None


def _unawaited(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.expression if isinstance(node, cst.Await) else node


def _called(node: cst.BaseExpression, method: str) -> bool:
    """`await x.<method>(...)` (or not awaited)."""
    node = _unawaited(node)
    return (
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == method
    )


def _got_tool(node: cst.BaseExpression, tables: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """`await mcp.get_tool("where")`, fastmcp 2's `(await mcp.get_tools())["where"]` or `tools["where"]` of a
    local `tools = await mcp.get_tools()` (sweep S, r05): (the name of the tool taken by name, the method)."""
    node = _unawaited(node)
    if (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Index)
    ):
        table = node.value
        name = _string(node.slice[0].slice.value)
        if name is not None and (
            _called(table, "get_tools") or isinstance(table, cst.Name) and table.value in tables
        ):
            return name, "get_tools"
        return None
    if isinstance(node, cst.Call) and _called(node, "get_tool"):
        name = _string(_arg(node, 0, "name") or _arg(node, 0, "key"))
        return (name, "get_tool") if name is not None else None
    return None


def _passes(args: cst.BaseExpression | None, param: str) -> bool:
    """The run's arguments hold `param`: a key of a dict display (not a value: `{"user": "root"}`), else any
    mention of the name as a string (`dict(args, root=...)` is not read: `_unread`)."""
    if isinstance(args, cst.Dict):
        return any(isinstance(e, cst.DictElement) and _string(e.key) == param for e in args.elements)
    if args is None:
        return False
    text = cst.Module(body=[]).code_for_node(args)
    return f'"{param}"' in text or f"'{param}'" in text or f"{param}=" in text


def runs(state: FileState) -> list[Run]:
    """The runs of a tool by name or through its tool object in this file."""
    if not (spells(state, "call_tool") or spells(state, ".run(")):
        return []
    code = state.wrapper.module.code_for_node
    top = state.module.split(".")[0]
    found: list[Run] = []

    class Find(cst.CSTVisitor):
        def __init__(self) -> None:
            self.got: list[dict[str, tuple[str, str]]] = [{}]  # per function: `t = await x.get_tool("n")`
            self.tables: list[set[str]] = [set()]  # per function: a local bound to `await x.get_tools()`

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.got.append({})
            self.tables.append(set())

        def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.got.pop()
            self.tables.pop()

        def visit_Assign(self, node: cst.Assign) -> None:
            got = _got_tool(node.value, frozenset(self.tables[-1]))
            table = _called(node.value, "get_tools")
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    if got is None:
                        self.got[-1].pop(target.target.value, None)
                    else:
                        self.got[-1][target.target.value] = got
                    if table:
                        self.tables[-1].add(target.target.value)
                    else:
                        self.tables[-1].discard(target.target.value)

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if not isinstance(func, cst.Attribute):
                return
            if func.attr.value == "call_tool":
                name = _string(_arg(node, 0, "name") or _arg(node, 0, "key"))
                if name is not None:
                    found.append((node, (f"name:{name}",), "call_tool", name, _arg(node, 1, "arguments")))
                return
            if func.attr.value != "run":
                return
            args = _arg(node, 0, "arguments")
            owner = func.value
            got = _got_tool(owner, frozenset(self.tables[-1]))
            if got is None and isinstance(owner, cst.Name):
                got = self.got[-1].get(owner.value)
            if got is not None:
                found.append((node, (f"name:{got[0]}",), got[1], got[0], args))
            elif isinstance(owner, (cst.Name, cst.Attribute)):
                # Only the project's own names: `asyncio.run(...)` runs no tool.
                keys = tuple(sorted(f"fn:{fq}" for fq in _fq(state, owner) if fq.split(".")[0] == top))
                if keys:
                    found.append((node, keys, "object", code(owner), args))

    read(state.wrapper.module, Find())
    return found


def mounts(state: FileState) -> tuple[tuple[str, str, str, int, tuple[tuple[str, str], ...]], ...]:
    """`mcp.mount(fs, namespace="fs")`, fastmcp 2's `mount(fs, prefix="fs")` / `mount("fs", fs)`, and
    `import_server`: (prefix, the mounted server's dotted name or "", the call as written, line, the tools it
    renames: `tool_names={"where": "locate"}`, sweep S r05)."""
    if not (spells(state, ".mount(") or spells(state, ".import_server(")):
        return ()
    code = state.wrapper.module.code_for_node
    out: list[tuple[str, str, str, int, tuple[tuple[str, str], ...]]] = []

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value in ("mount", "import_server")):
                return
            prefix = server = None
            renames: list[tuple[str, str]] = []
            for arg in node.args:
                key = arg.keyword.value if arg.keyword is not None else None
                if key == "tool_names" and isinstance(arg.value, cst.Dict):
                    for item in arg.value.elements:
                        old = _string(item.key) if isinstance(item, cst.DictElement) else None
                        new = _string(item.value) if isinstance(item, cst.DictElement) else None
                        if old is not None and new is not None:
                            renames.append((old, new))
                elif key in ("namespace", "prefix") or (key is None and _string(arg.value) is not None):
                    prefix = _string(arg.value)
                elif key in (None, "server") and server is None:
                    server = arg.value
            if not prefix or server is None:
                return
            names = _fq(state, server) if isinstance(server, (cst.Name, cst.Attribute)) else set()
            spelled = f"{code(func)}({code(server)}, ...)"
            server_name = sorted(names)[0] if len(names) == 1 else ""
            out.append((prefix, server_name, spelled, state.pos(node)[0], tuple(renames)))

    read(state.wrapper.module, Find())
    return tuple(out)


def plan(
    summaries: Mapping[str, Summary],
    by_key: Mapping[Any, tuple[str, Any]],
    plans: dict[str, Plan],
    resolve: Any,
) -> None:
    """Fill `Plan.by_name` of each module that runs a tool which now takes a new argument: key -> (the
    argument, what that key runs, said for the marker)."""
    wanted = {path: s.runs for path, s in summaries.items() if s.runs}
    if not wanted:
        return
    named: dict[str, list[Any]] = {}  # tool name -> the keys of every tool of that name
    gaining: dict[Any, str] = {}  # tool key -> its new argument
    for key, (path, func) in by_key.items():
        if func.tool is None or func.value is not None:
            continue
        named.setdefault(func.tool, []).append(key)
        entry = plans.get(path)
        tool = entry.tools.get(func.qualname) if entry is not None else None
        if tool is not None and tool[2]:
            gaining[key] = tool[0]
    if not gaining:
        return
    # The server objects each module binds or imports: a tool registered there is on one of them.
    servers = {
        s.module: {f"{s.module}.{n}" for n in s.facts.servers} | {fq for _, fq in s.facts.imports}
        for s in summaries.values()
        if s.facts is not None
    }
    prefixes = [(m, path) for path, s in summaries.items() for m in s.mounts]
    for path, keys in wanted.items():
        module = summaries[path].module
        found: dict[str, tuple[str, str]] = {}
        for key in keys:
            kind, _, value = key.partition(":")
            if kind == "fn":
                resolved = resolve(import_root(summaries[path]), value)
                tool_key = resolved if resolved in gaining else None
                if tool_key is not None:
                    found[key] = (gaining[tool_key], _subject(tool_key, by_key, module, value))
                continue
            said = _by_tool_name(value, named, gaining, by_key, module)
            if said is None:
                said = _by_prefix(value, prefixes, named, gaining, by_key, servers)
            if said is not None:
                found[key] = said
        if found:
            plans.setdefault(path, Plan()).by_name.update(found)


def _where(key: Any, by_key: Mapping[Any, tuple[str, Any]]) -> str:
    path, func = by_key[key]
    return f"{_short(path)}:{func.pos[0]}"


def _module_of(key: Any, by_key: Mapping[Any, tuple[str, Any]]) -> str:
    return key[1][: -len(by_key[key][1].qualname) - 1]


def _subject(key: Any, by_key: Mapping[Any, tuple[str, Any]], module: str, spelled: str) -> str:
    """`where` (of this module) or `where` (fs.py:7), the tool that now takes the argument."""
    name = by_key[key][1].tool
    if _module_of(key, by_key) == module and spelled.rpartition(".")[2] == name:
        return f"`{name}`"
    return f"`{name}` ({_where(key, by_key)})"


def _by_tool_name(
    called: str,
    named: Mapping[str, list[Any]],
    gaining: Mapping[Any, str],
    by_key: Mapping[Any, tuple[str, Any]],
    module: str,
) -> tuple[str, str] | None:
    tools = named.get(called, [])
    hit = [k for k in tools if k in gaining]
    if not hit:
        return None
    params = {gaining[k] for k in hit}
    if len(tools) == 1 and len(params) == 1:
        return params.pop(), _subject(hit[0], by_key, module, called)
    # Tools of that name on more than one server: which one this call runs is not read.
    places = ", ".join(_where(k, by_key) for k in sorted(tools, key=lambda k: _where(k, by_key)))
    param = sorted(params)[0]
    return (
        param,
        f"if it is the tool of that name at {_where(hit[0], by_key)} (tools named so: {places}), that one",
    )


def _by_prefix(
    called: str,
    prefixes: list[tuple[tuple[str, str, str, int, tuple[tuple[str, str], ...]], str]],
    named: Mapping[str, list[Any]],
    gaining: Mapping[Any, str],
    by_key: Mapping[Any, tuple[str, Any]],
    servers: Mapping[str, set[str]],
) -> tuple[str, str] | None:
    """`fs_where`: the tool `where` of a server mounted with the prefix `fs`."""
    for (prefix, server, spelled, line, renames), path in prefixes:
        name = called[len(prefix) + 1 :] if called.startswith(f"{prefix}_") else ""
        # `tool_names={"where": "locate"}`: `files_locate` is `where`, and no tool answers to `files_where`.
        olds = {new: old for old, new in renames}
        name = olds.get(name, "" if name in dict(renames) else name)
        for key in named.get(name, []):
            if key not in gaining:
                continue
            mounted = f"mounted with the prefix `{prefix}` by `{spelled}` ({_short(path)}:{line})"
            if server and server in servers.get(_module_of(key, by_key), ()):
                return gaining[key], f"`{called}` is `{name}` ({_where(key, by_key)}), {mounted}, which"
            # Another server, or one it cannot follow (`mount(make_fs(), ...)`): said as a condition.
            return gaining[key], (
                f"if the server {mounted} is the one of `{name}` ({_where(key, by_key)}), `{called}` is that "
                "tool, which"
            )
    return None


def mark(state: FileState, plan: Plan) -> None:
    """The marker at each run of a tool that now takes an argument this run does not pass."""
    if not plan.by_name:
        return
    code = state.wrapper.module.code_for_node
    for call, keys, how, spelled, args in runs(state):
        entry = next((plan.by_name[k] for k in keys if k in plan.by_name), None)
        if entry is None:
            continue
        param, subject = entry
        text = code(args) if args is not None else ""
        if _passes(args, param):
            continue
        doing = {
            "call_tool": f"runs the tool `{spelled}` by its name through the server",
            "get_tool": f"runs the tool `{spelled}`, taken from the server by its name (`get_tool`)",
            "get_tools": f"runs the tool `{spelled}`, taken from the server's tools by its name (`get_tools`)",
            "object": f"runs the tool through its tool object `{spelled}`",
        }[how]
        passes = (
            "this call passes none, so on MCP 2026-07-28 requests the tool asks for it"
            if args is None
            or isinstance(args, cst.Dict)
            and not any(isinstance(e, cst.StarredDictElement) for e in args.elements)
            else f"this call passes `{text}`, whose keys migrate-roots does not read: unless it holds "
            f"`{param}`, on MCP 2026-07-28 requests the tool asks for it"
        )
        state.mark(
            call,
            "MR104",
            f"{doing}, and {subject} now takes `{param}`: {passes}; pass `{param}` in the arguments, by hand",
            Severity.BROKEN,
        )
