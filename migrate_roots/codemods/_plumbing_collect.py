"""The collector of the plumbing analysis: one walk that records the list_changed registrations (all four
spellings), the handlers, the functions with their roots reads, calls and globals, tasks, attribute writes,
leftover references and roots wording.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _plumbing_setters, _sdk
from migrate_roots.codemods._plumbing_base import FuncInfo, Registration
from migrate_roots.codemods._plumbing_queries import (
    _branch_kind,
    _calls_in,
    _docstring_owner,
    _handler_arg,
    _in_import,
    _is_site,
    _is_tool,
    _log_argument,
    _mentions_site,
    _names,
    _our_description,
    _pattern_argument,
    _statement_of_call,
)
from migrate_roots.codemods._plumbing_state import (
    _attribute_base,
    _is_local,
    _long_lived_alias,
    _names_global,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_uses import constant_text

if TYPE_CHECKING:
    from migrate_roots.codemods._plumbing import _Plumbing
    from migrate_roots.codemods.base import FileState


# Wording in user-facing strings that tells people to set up roots (MR218).
# A single "root" is MCP's only as "MCP root" / "client root": "the configured corpus root", "add a target root"
# are a project's own folders (ai-governance-mcp).
# Not the roots of an equation or of a tree ("No real roots", "Set the roots of the outline": sweep N, r08).
_NOT_MATHS = "".join(f"(?<!{w}\\s)" for w in ("complex", "real", "square", "cube", "imaginary", "distinct"))
_ROOTS = _NOT_MATHS + r"(roots|(mcp|client)\s+root)\b(?!\s+of\b)"
_ROOTS_WORDING = re.compile(
    r"\b(configur\w*|set\s*up|set(?!\s+of\b)|provid\w*|add|declar\w*|expos\w*|shar\w*|enabl\w*|support\w*|grant\w*)"
    rf"\s+(\w+\s+){{0,2}}?{_ROOTS}"
    r"|\b(roots|(mcp|client)\s+root)\s+(capabilit\w*|support|are\s+(not|configured|set|provided)|is\s+(not|configured|set))"
    rf"|\bno\s+(\w+\s+)?{_ROOTS}|\bwithout\s+(\w+\s+)?{_ROOTS}"
    # The protocol's method named to users (codescalpel: "Set roots via the roots/list capability").
    r"|\broots/list\s+(capabilit\w*|request\w*|method)|\b(via|using|use)\s+(the\s+)?roots/list\b",
    re.IGNORECASE,
)


def wording_phrase(node: cst.CSTNode) -> str:
    """The words of a string (or f-string) that speak of roots, as the marker quotes them."""
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value if isinstance(node.evaluated_value, str) else ""
    elif isinstance(node, cst.FormattedString):
        text = "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    else:
        text = ""
    found = _ROOTS_WORDING.search(text)
    phrase = " ".join(found.group(0).split()) if found else "roots"
    return phrase if len(phrase) <= 40 else phrase[:37] + "..."


class _Collector(cst.CSTVisitor):
    def __init__(self, owner: _Plumbing) -> None:
        super().__init__()
        self.o = owner
        self.state = owner.state
        self.stack: list[cst.FunctionDef] = []
        self.classes: list[cst.ClassDef] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        top = not self.stack and not self.classes
        info = FuncInfo(node, top)
        info.tool = any(_is_tool(self.state, d.decorator) for d in node.decorators)
        self.o.funcs[node] = info
        self.stack.append(node)
        if (
            node.name.value == "on_notification"
            and self.classes
            and any(self.state.qnames(b.value) & _sdk.FASTMCP_MIDDLEWARE for b in self.classes[-1].bases)
        ):
            read(node.body, _MiddlewareBranches(self.o))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Global(self, node: cst.Global) -> None:
        if self.stack:
            self.o.funcs[self.stack[-1]].globals_declared |= {n.name.value for n in node.names}

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            target = node.targets[0].target
            if (
                isinstance(target, cst.Subscript)
                and isinstance(target.value, cst.Attribute)
                and target.value.attr.value == "notification_handlers"
                and len(target.slice) == 1
            ):
                key = target.slice[0].slice
                if isinstance(key, cst.Index):
                    self._handlers_key(node, key.value)
        # `self._root, self._name = <roots>, ...`: each attribute of a tuple target (sweep K r08 of session 22)
        targets: list[cst.BaseExpression] = [t.target for t in node.targets]
        targets += [e.value for t in targets if isinstance(t, (cst.Tuple, cst.List)) for e in t.elements]
        self._attr_write(node, targets)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._attr_write(node, [node.target])

    def _attr_write(self, node: cst.Assign | cst.AnnAssign, targets: list[cst.BaseExpression]) -> None:
        if not self.stack or node.value is None:
            return
        func = self.stack[-1]
        info = self.o.funcs[func]
        if not info.sites and not any(_is_site(c, self.state) for c in _calls_in(node.value, self.state)):
            return  # no roots read so far in this function (the walk goes in order), none in the value
        for target in targets:
            if (
                isinstance(target, cst.Subscript)
                and self.state.wrapper.module.code_for_node(target.value) == "globals()"
                and _mentions_site(node.value, func, self.o)
            ):  # `globals()["_PROJECT"] = <roots>` (sweep K r02 of session 22)
                spelled = self.state.wrapper.module.code_for_node(target)
                self.o.attr_writes.append(
                    (func, node, cst.ensure_type(cst.ensure_type(target.value, cst.Call).func, cst.Name))
                )
                self.o.setter_said[node] = (
                    spelled,
                    f"roots kept on `{spelled}` outlive the request (a global of this module, shared by every "
                    "request)",
                )
                return
            if isinstance(target, cst.Attribute) and _mentions_site(node.value, func, self.o):
                base = _attribute_base(target)
                if (
                    isinstance(base, cst.Name)
                    and _is_local(base, func, self.state)
                    and not _long_lived_alias(base, func, self.state)
                ):
                    continue  # an object built here dies with the request; an alias of the lifespan's does not
                self.o.attr_writes.append((func, node, target))
                return  # one marker per statement (`self._root, self._name = ...`)

    def _handlers_key(self, assign: cst.Assign, key: cst.BaseExpression) -> None:
        names = self.state.qnames(key)
        stmt = self.state.parent(assign)
        single = isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
        if names & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS:
            reg = Registration(assign, "notification_handlers[RootsListChangedNotification]")
            self.o.handled.add(key)
            if single:
                reg.remove = stmt
            else:
                reg.refusal = "registration shares its line with other statements"
            self._handler(reg, assign.value)
            self.o.registrations.append(reg)
        elif names & _sdk.INITIALIZED_NOTIFICATIONS:
            self._init_handler(assign.value)

    def _handler(self, reg: Registration, value: cst.BaseExpression) -> None:
        reg.handler_expr = value
        if isinstance(value, cst.Name):
            func = self.o.top.get(value.value)
            scope = self.state.scope(value)
            # The module's function, also when registered from inside a function (`install_handlers()`).
            if func is not None and scope is not None and _names_global(scope, value.value):
                reg.handler = func
                reg.handler_name = value.value

    def _init_handler(self, value: cst.BaseExpression) -> None:
        if isinstance(value, cst.Name) and value.value in self.o.top:
            self.o.init_handlers.append(self.o.top[value.value])

    def visit_Call(self, node: cst.Call) -> None:
        state = self.state
        func = node.func
        if self.stack:
            info = self.o.funcs[self.stack[-1]]
            if isinstance(func, cst.Name):
                info.calls.add(func.value)
            if _is_site(node, state):
                info.sites.append(node)
            elif not _plumbing_setters.setattr_call(node, self.stack[-1], self.o, self.state):
                _plumbing_setters.setter_call(node, self.stack[-1], self.o, self.state)
            if isinstance(func, cst.Attribute):
                if func.attr.value == "send_roots_list_changed":
                    info.relays.append(node)
                elif func.attr.value == "send_resource_list_changed":
                    info.resource_changed.append(node)
        names = state.qnames(func)
        if names & _sdk.LOW_LEVEL_SERVERS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "on_roots_list_changed":
                    reg = Registration(arg, "Server(on_roots_list_changed=...)", kwarg=(node, arg))
                    self._handler(reg, arg.value)
                    self.o.registrations.append(reg)
                    self.o.handled.add(arg)
                elif arg.keyword is not None and arg.keyword.value == "on_initialized":
                    self._init_handler(arg.value)
        if isinstance(func, cst.Name) and func.value == "dict":
            for arg in node.args:  # `Server("x", **dict(on_roots_list_changed=h))` (mcp 2.x)
                if arg.keyword is not None and arg.keyword.value == "on_roots_list_changed":
                    self.o.method_strings.append(arg.keyword)
        if isinstance(func, cst.Attribute) and func.attr.value == "add_notification_handler" and node.args:
            method = node.args[0].value
            value = (
                method.evaluated_value if isinstance(method, cst.SimpleString) else _constant(state, method)
            )
            kind = _sdk.expr_kind(state, func.value)
            if kind == _sdk.FOREIGN:
                self.o.handled.add(node)  # a user's own event bus that happens to use the same string
            elif value in (_sdk.ROOTS_LIST_CHANGED_METHOD, _sdk.INITIALIZED_METHOD):
                handler = _handler_arg(node)
                if value == _sdk.INITIALIZED_METHOD:
                    if handler is not None:
                        self._init_handler(handler)
                    return
                reg = Registration(node, 'add_notification_handler("notifications/roots/list_changed")')
                stmt = _statement_of_call(node, state)
                if stmt is None:
                    reg.refusal = "registration is not a statement of its own"
                else:
                    reg.remove = stmt
                if handler is not None:
                    self._handler(reg, handler)
                self.o.registrations.append(reg)
                self.o.handled.add(node)
        if isinstance(func, (cst.Attribute, cst.Name)):
            attr = func.attr.value if isinstance(func, cst.Attribute) else func.value
            tasks = ("create_task", "ensure_future", "start_soon", "start", "run_coroutine_threadsafe")
            if attr in tasks and node.args:
                target = node.args[0].value
                if isinstance(target, cst.Call):
                    target = target.func
                if (
                    isinstance(target, cst.Name)
                    and target.value in self.o.top
                    and not _awaited(node, self.state)
                ):
                    self.o.tasks.append((node, target.value))

    def visit_Name(self, node: cst.Name) -> None:
        if self.state.qnames(node) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS:
            parent = self.state.parent(node)
            in_attribute = isinstance(parent, cst.Attribute) and parent.attr is node
            if not in_attribute and not _in_import(node, self.state):
                self.o.type_refs.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.state.qnames(node) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS and not _in_import(
            node, self.state
        ):
            self.o.type_refs.append(node)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if not isinstance(value, str):
            return
        # The name, or its tail matched by suffix (`method.endswith("roots/list_changed")` in a middleware).
        if value == _sdk.ROOTS_LIST_CHANGED_METHOD or (
            value.endswith("roots/list_changed") and _sdk.ROOTS_LIST_CHANGED_METHOD.endswith(value)
        ):
            self.o.method_strings.append(node)
        elif misspelt_method(value):
            self.o.misspelt.append(node)
        elif value == "on_roots_list_changed" and isinstance(self.state.parent(node), cst.DictElement):
            self.o.method_strings.append(node)  # `Server("x", **{"on_roots_list_changed": h})` (mcp 2.x)
        elif (
            _ROOTS_WORDING.search(value)
            and self._user_facing(node)
            and not _our_description(node, self.state)
        ):
            self.o.wording.append(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._pieces(node)

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> None:
        self._pieces(node)

    def _pieces(self, node: cst.BinaryOperation | cst.ConcatenatedString) -> None:
        """The name in pieces: `"notifications/roots/" + "list_changed"`, `"notifications/" "roots/list_changed"`."""
        if isinstance(self.state.parent(node), (cst.BinaryOperation, cst.ConcatenatedString)):
            return  # the whole expression is looked at once
        if constant_text(node) == _sdk.ROOTS_LIST_CHANGED_METHOD:
            self.o.method_strings.append(node)

    def _user_facing(self, node: cst.SimpleString) -> bool:
        """Not a docstring, unless it is a tool's (the tool description a model reads); not a pattern; not a
        log message."""
        if _pattern_argument(node, self.state) or _log_argument(node, self.state):
            return False
        owner = _docstring_owner(node, self.state)
        if owner is None:
            return True
        return isinstance(owner, cst.FunctionDef) and owner in self.o.funcs and self.o.funcs[owner].tool

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        if _ROOTS_WORDING.search(node.value):
            current: cst.CSTNode | None = node
            while current is not None and not isinstance(current, cst.FormattedString):
                current = self.state.parent(current)
            if (
                current is not None
                and current not in self.o.wording
                and not _log_argument(current, self.state)
            ):
                self.o.wording.append(current)


class _MiddlewareBranches(cst.CSTVisitor):
    def __init__(self, owner: _Plumbing) -> None:
        super().__init__()
        self.o = owner

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # nested functions are not the hook's branches

    def visit_If(self, node: cst.If) -> None:
        state = self.o.state
        kind = _branch_kind(node.test, state)
        if kind is None:
            return
        self.o.handled.add(node.test)
        if kind == _sdk.INITIALIZED_METHOD:
            return
        reg = Registration(node, "fastmcp Middleware.on_notification branch", branch=node)
        if node.orelse is not None:
            reg.refusal = "the branch has an else/elif: remove the roots branch by hand"
        else:
            reg.remove = node
        self.o.registrations.append(reg)


def _constant(state: FileState, node: cst.BaseExpression) -> str | None:
    """The string a module-level constant holds (`ROOTS_CHANGED = "notifications/roots/list_changed"`), when
    `node` names one assigned once."""
    scope = state.scope(node) if isinstance(node, cst.Name) else None
    if scope is None or not isinstance(node, cst.Name) or node.value not in scope:
        return None
    assignments = list(scope[node.value])
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    if not isinstance(target, cst.Name) or not isinstance(
        getattr(assignments[0], "scope", None), GlobalScope
    ):
        return None
    value = _sdk._assigned_value(state, target)
    found = value.evaluated_value if isinstance(value, cst.SimpleString) else None
    return found if isinstance(found, str) else None


def misspelt_method(value: str) -> bool:
    """The notification's name spelt otherwise (`notifications/roots/listChanged`, `.../list-changed`,
    `roots/list_changed` without its prefix): a handler keyed by it never runs, and is still roots wiring."""
    if value == _sdk.ROOTS_LIST_CHANGED_METHOD or _sdk.ROOTS_LIST_CHANGED_METHOD.endswith(value):
        return False
    squashed = value.lower().replace("_", "").replace("-", "").replace(".", "/")
    return squashed in ("notifications/roots/listchanged", "roots/listchanged")


_WAITERS = frozenset({"wait_for", "gather", "wait", "shield", "as_completed"})


def _awaited(call: cst.Call, state: FileState) -> bool:
    """A task the request itself waits for (sweep G, r11: `task = create_task(...)`, then `wait_for(task, 5)`),
    no background refresh: awaited at once, made by a task group of an enclosing `async with` (it ends with
    the block), or kept in a name the function awaits or hands to `wait_for` / `gather` / `wait`."""
    parent = state.parent(call)
    if isinstance(parent, cst.Await):
        return True
    func = call.func
    owner = func.value if isinstance(func, cst.Attribute) else None
    node: cst.CSTNode | None = parent
    kept: str | None = None
    if (
        isinstance(parent, cst.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0].target, cst.Name)
    ):
        kept = parent.targets[0].target.value
    while node is not None and not isinstance(node, cst.FunctionDef):
        if isinstance(node, cst.With) and node.asynchronous is not None and isinstance(owner, cst.Name):
            bound = [i.asname.name for i in node.items if i.asname is not None]
            if any(isinstance(b, cst.Name) and b.value == owner.value for b in bound):
                return True
        node = state.parent(node)
    if kept is None or node is None:
        return False
    found = False

    class Waits(cst.CSTVisitor):
        def visit_Await(self, n: cst.Await) -> None:
            nonlocal found
            found = found or (isinstance(n.expression, cst.Name) and n.expression.value == kept)

        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            name = n.func.attr.value if isinstance(n.func, cst.Attribute) else getattr(n.func, "value", "")
            if name in _WAITERS:
                found = found or any(kept in _names(a.value) for a in n.args)

    read(node, Waits())
    return found
