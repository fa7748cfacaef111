"""What the code around a roots read does with it, for the index walk (`_roots_sites.SiteIndex`): a raw
`roots/list` request, a session held on an object, roots chosen by name, and a call's result kept on an
attribute that outlives the request. Each is a reason to mark the read instead of rewriting it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import libcst as cst

from migrate_roots.codemods._plumbing_state import _attribute_base, _is_local, _long_lived_alias
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import _names


def raw_roots_request(call: cst.Call, state: FileState) -> cst.Call | None:
    """`session.send_request(types.ServerRequest(types.ListRootsRequest()), types.ListRootsResult)`: the call to
    mark, which is the `ListRootsRequest(...)` a local holds when the request is built first (`request =
    ListRootsRequest(...)`, then `send_request(ServerRequest(request), ...)`), else this call."""
    func = call.func
    if (
        not (isinstance(func, cst.Attribute) and func.attr.value in ("send_request", "request"))
        or not call.args
    ):
        return None
    code = state.wrapper.module.code_for_node
    # `request = types.ListRootsRequest(...)` first, then `send_request(types.ServerRequest(request), ...)`.
    names = _names(call.args[0].value)
    statement = state.statement_of(call)
    block = state.parent(statement)
    body = list(getattr(block, "body", ()))
    for name in names:
        # The last binding before the send in its own block (each branch of a relay binds `req` anew).
        last: cst.BaseExpression | None = None
        for line in body[: body.index(statement)] if statement in body else ():
            for small in getattr(line, "body", ()) if isinstance(line, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == name.value for t in small.targets
                ):
                    last = small.value
        if isinstance(last, cst.Call) and "ListRootsRequest" in code(last):
            return last
    if "ListRootsRequest" in code(call.args[0].value) or any(
        "ListRootsResult" in code(a.value) for a in call.args[1:]
    ):
        return call
    # The request not first: `send_request(client_id, ListRootsRequest())` (a proxy's own request helper).
    if any("ListRootsRequest(" in code(a.value) for a in call.args[1:]):
        return call
    return None


_SENDS = re.compile(r"(^|_)(send|request|rpc|call|ask|emit|post|write|notify|dispatch)(_|$)", re.IGNORECASE)
_CHECKS = re.compile(
    r"authori|permi|check|allow|valid|log|metric|label|deny|audit|match|handler|handle|register|route|subscri|^on_",
    re.IGNORECASE,
)
_MESSAGE_KEYS = frozenset({"jsonrpc", "id", "params"})


def hand_request(node: cst.DictElement | cst.Call, state: FileState) -> str | None:
    """Roots asked for without the SDK (MCPyDoc): `{"jsonrpc": "2.0", "id": 9, "method": "roots/list"}`, or the
    method handed to a request helper (`self._create_request("roots/list")`, `method="roots/list"`): "request".
    The method name where nothing says a request is sent (`{"method": "roots/list"}` as an error's data,
    `authorize(user, method="roots/list")` while answering one): "named". Else None."""
    if isinstance(node, cst.DictElement):
        key = node.key
        if is_roots_list(key):
            # `{"roots/list": ListRootsRequest}`: the requests a server sends, by method name (a counter or a
            # label keyed by it, `{"roots/list": 0}`, is about incoming messages: not a site).
            value = state.wrapper.module.code_for_node(node.value)
            return "named" if "Request" in value else None
        if not is_roots_list(node.value):
            return None
        if not (isinstance(key, cst.SimpleString) and key.value[1:-1] == "method"):
            return "named"  # `{"list_roots": "roots/list"}`: a table of method names
        parent = state.parent(node)
        keys = {
            e.key.value[1:-1]
            for e in getattr(parent, "elements", ())
            if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
        }
        return "request" if keys & _MESSAGE_KEYS else "named"
    callee = node.func.attr.value if isinstance(node.func, cst.Attribute) else getattr(node.func, "value", "")
    if callee == "ListRootsRequest":  # the SDK's own request type: its send is the site (raw_roots_request)
        return None
    named = [a for a in node.args if is_roots_list(a.value)]
    constructs = isinstance(node.func, cst.Name) and node.func.value in ("frozenset", "set", "tuple", "list")
    if (
        not named
        and not constructs  # `frozenset({...})` kept in a constant: reported where it is kept
        and any(
            isinstance(a.value, (cst.List, cst.Tuple, cst.Set))
            and any(is_roots_list(e.value) for e in a.value.elements)
            for a in node.args
        )
    ):
        return "named"  # `send_batch(["roots/list", ...])`
    if not named:
        # `write('{"jsonrpc": "2.0", "id": 7, "method": "roots/list"}')`: the request written out by hand.
        texts = [t for a in node.args if (t := constant_text(a.value)) is not None]
        return "request" if any('"method"' in t and '"roots/list"' in t for t in texts) else None
    if all(a.keyword is not None and a.keyword.value != "method" for a in named):
        return "named"  # `SimpleNamespace(ROOTS_LIST="roots/list")`
    func = node.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    return "request" if _SENDS.search(name) and not _CHECKS.search(name) else "named"


def is_roots_list(value: cst.BaseExpression) -> bool:
    """`"roots/list"` however the literal is spelled: any prefix or quotes, `"roots/" "list"`, `"roots/" +
    "list"`, an f-string with no placeholder."""
    return constant_text(value) == "roots/list"


def constant_text(value: cst.BaseExpression) -> str | None:
    if isinstance(value, cst.SimpleString):
        text = value.evaluated_value
        return text.decode("latin-1") if isinstance(text, bytes) else text
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "encode"
        and len(value.args) <= 1
    ):
        return constant_text(value.func.value)  # `"roots/list".encode()`
    if isinstance(value, cst.ConcatenatedString):
        left, right = constant_text(value.left), constant_text(value.right)
        return left + right if left is not None and right is not None else None
    if isinstance(value, cst.FormattedString):
        texts = [p.value for p in value.parts if isinstance(p, cst.FormattedStringText)]
        return "".join(texts) if len(texts) == len(value.parts) else None
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        left, right = constant_text(value.left), constant_text(value.right)
        return left + right if left is not None and right is not None else None
    return None


def held_method(
    targets: Sequence[cst.BaseExpression], value: cst.BaseExpression
) -> list[tuple[cst.CSTNode, str]]:
    """(the literal, its reason) for each roots/list literal an assignment keeps: `X = "roots/list"`,
    `self.method = ...`, `A, B = "roots/list", "x"`, or one listed in a tuple, list or set constant."""
    out: list[tuple[cst.CSTNode, str]] = []
    text = constant_text(value)
    if text is not None and '"method"' in text and '"roots/list"' in text:  # a request kept as JSON text
        return [(value, REQUEST_BY_HAND)]
    for target in targets:
        spelled = _spelled(target)
        if is_roots_list(value) and spelled is not None:
            out.append((value, named_method(spelled)))
        elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
            for t, v in zip(target.elements, value.elements, strict=False):
                if is_roots_list(v.value) and (name := _spelled(t.value)) is not None:
                    out.append((v.value, named_method(name)))
        elif isinstance(listed := _unwrapped(value), (cst.Tuple, cst.List, cst.Set)) and spelled is not None:
            value = listed
            out += [
                (e.value, named_method(spelled, listed=True))
                for e in value.elements
                if is_roots_list(e.value)
            ]
    return out[:1] if out and len(targets) > 1 else out


def _unwrapped(value: cst.BaseExpression) -> cst.BaseExpression:
    """`frozenset({...})`, `set([...])`, `tuple(...)`: the collection inside."""
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value in ("frozenset", "set", "tuple", "list")
        and len(value.args) == 1
    ):
        return value.args[0].value
    return value


def _spelled(target: cst.BaseExpression) -> str | None:
    if isinstance(target, cst.Name):
        return target.value
    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
        return f"{target.value.value}.{target.attr.value}"
    return None


REQUEST_BY_HAND = (
    'roots asked for by hand (a JSON-RPC request for `"roots/list"`), which MCP 2026-07-28 requests '
    "cannot answer: give the tools that need the directory a path argument in their inputSchema and "
    "read it before this request, by hand (migrate-roots rewrites SDK calls only); if the roots bound "
    "what the tools may touch, keep that bound in the server's configuration instead, never in an "
    "argument the caller chooses"
)


def named_method(name: str, listed: bool = False) -> str:
    """The reason for `ROOTS_LIST = "roots/list"` (a protocol constant, a local, an attribute, or a collection of
    method names): where the name goes is not followed, so the definition itself is the finding."""
    held = f"listed in `{name}`" if listed else f"held in `{name}`"
    return (
        f"the roots/list method name, {held} (migrate-roots does not follow where it is used): a request "
        "sent with it asks the client for roots, which MCP 2026-07-28 requests cannot answer; give the tools that "
        "need a directory a path argument in their inputSchema, by hand; code that only checks, matches or "
        "labels something with it (a client answering roots/list) needs no change"
    )


def spells_session(receiver: cst.BaseExpression, state: FileState) -> bool:
    """`state.host_session`, `self._session`, or a name bound once from such a value: an untyped session."""
    code = state.wrapper.module.code_for_node
    if isinstance(receiver, cst.Name):
        bound = _bindings(receiver, state)
        node = getattr(bound[0], "node", None) if len(bound) == 1 else None
        target = state.parent(node) if node is not None else None
        owner = state.parent(target) if target is not None else None
        if isinstance(owner, cst.Assign) and isinstance(owner.value, cst.Attribute):
            return "session" in code(owner.value).rpartition(".")[2].lower()
        return False
    if not (isinstance(receiver, cst.Attribute) and "session" in receiver.attr.value.lower()):
        return False
    # `ctx.session` on a parameter: a context of the SDK was typed above, so this one is someone else's
    # (`ctx: AppContext`); an object of the module (`state.host_session`) is the case here.
    base = _attribute_base(receiver)
    bound = _bindings(base, state) if isinstance(base, cst.Name) else []
    return bool(bound) and not any(isinstance(getattr(b, "node", None), cst.Param) for b in bound)


def _bindings(name: cst.Name, state: FileState) -> list[Any]:
    """The assignments of `name` as seen where it is read (libcst's scope analysis)."""
    scope = state.scope(name)
    return list(scope[name.value]) if scope is not None and name.value in scope else []


def stored_on(call: cst.Call, func: cst.FunctionDef, state: FileState) -> str | frozenset[str] | None:
    """The attribute a value holding `call`'s result is assigned to (`self.x = await call`, `cls.x +=
    list(call)`), unless its base is a local of `func` (an object built here dies with the request); or the
    local names it is assigned to, whose later writes `SiteIndex.stores` reads."""
    node: cst.CSTNode = call
    parent = state.parent(node)
    while parent is not None and not isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        if isinstance(parent, cst.Lambda):
            return None  # run later, if ever
        if isinstance(parent, cst.Arg):
            setter = _guarded_setter(parent, func, state)
            if setter is not None:
                return setter
        node, parent = parent, state.parent(parent)
    if isinstance(parent, cst.Assign) and parent.value is node:
        targets = [t.target for t in parent.targets]
    elif isinstance(parent, (cst.AnnAssign, cst.AugAssign)) and parent.value is node:
        targets = [parent.target]
    else:
        return None
    kept = kept_target(targets, func, state)
    if kept is not None:
        return kept
    # `found = await helper(ctx)`, then `self._roots = found` later: decided when the function is walked.
    names = frozenset(t.value for t in targets if isinstance(t, cst.Name))
    return names or None


def _guarded_setter(arg: cst.Arg, func: cst.FunctionDef, state: FileState) -> str | None:
    """`binding.bind(await helper(ctx))` under `if binding.project is None:`, on an object that outlives the
    request (`self`, a class, a module-level object, a local alias of one): `binding.bind()`, as the plumbing's
    setter test says it in the read's own function (session 20, sweep D r04)."""
    from migrate_roots.codemods._plumbing_setters import guarded_by_absence
    from migrate_roots.codemods._plumbing_state import _LOG_METHODS, _READ_ONLY_METHODS, _names_global

    call = state.parent(arg)
    if not isinstance(call, cst.Call):
        return None
    method = call.func
    if not isinstance(method, cst.Attribute) or method.attr.value in _LOG_METHODS | _READ_ONLY_METHODS:
        return None
    base = _attribute_base(method)
    if not isinstance(base, cst.Name):
        return None
    scope = state.scope(base)
    lasting = (
        base.value in ("self", "cls")
        or bool(_long_lived_alias(base, func, state))
        or (scope is not None and base.value in scope and _names_global(scope, base.value))
    )
    if not lasting or not guarded_by_absence(call, base.value, func, state):
        return None
    return state.wrapper.module.code_for_node(method) + "()"


def kept_target(targets: Sequence[cst.BaseExpression], func: cst.FunctionDef, state: FileState) -> str | None:
    """The first attribute among `targets` whose base is not a local of `func`, as written."""
    for target in targets:
        if not isinstance(target, cst.Attribute):
            continue
        base = _attribute_base(target)
        if isinstance(base, cst.Name) and (
            not _is_local(base, func, state) or _long_lived_alias(base, func, state)
        ):
            return state.wrapper.module.code_for_node(target)
    return None


def spells(state: FileState, text: str) -> bool:
    """Does the file's text hold `text` anywhere (once per file): most files never spell the method name."""
    cache = state.extra.setdefault("spells", {})
    found = cache.get(text)
    if found is None:
        found = cache[text] = any(text in line for line in state.lines)
    return bool(found)


INPUT_REQUEST = (
    "roots asked for through an input request (`ListRootsRequest()` in `InputRequiredResult(input_requests=...)`): "
    "roots are deprecated in every era by SEP-2577, and a 2026-07-28 client without roots fails the request; give "
    "the tool a path argument by hand, or move the directory to the server's configuration"
)
RESOLVED_ROOTS = (
    "mcp 2.x's era-portable roots request (`ListRoots()`, resolved into a tool parameter by `Resolve`): roots are "
    "deprecated in every era by SEP-2577 (a 2026-07-28 client is asked through an input request, and one without "
    "roots fails it with -32021); give the tool a path argument by hand, or move the directory to the server's "
    "configuration"
)


def input_request(node: cst.Call, state: FileState) -> bool:
    """`types.ListRootsRequest()` built for an input request (`InputRequiredResult(input_requests={"r":
    ListRootsRequest()})`, mcp 2.x; the session 21 field hunt's r01)."""
    if not any(q.startswith("mcp.") and q.endswith(".ListRootsRequest") for q in state.qnames(node.func)):
        return False
    # Held where input requests are: a dict's value (`{"r": ListRootsRequest()}`) or `input_requests=`; a
    # request built into a local or a `ServerRequest(...)` for `send_request` is the raw request's.
    parent = state.parent(node)
    if isinstance(parent, cst.DictElement) and parent.value is node:
        return True
    return (
        isinstance(parent, cst.Arg)
        and parent.keyword is not None
        and parent.keyword.value == "input_requests"
    )
