"""The low-level index, second half: the `call_tool` handlers (mcp 1.x decorator, mcp 2.x `on_call_tool` /
`add_request_handler`) and how each dispatches on the tool name (if/elif, `match`, a dict of functions).
"""

from __future__ import annotations

import os

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._lowlevel_closed import refuse_closed, refuse_own_key
from migrate_roots.codemods._lowlevel_model import Handler, Index, _code, _extra_blocks, _holder_name, _inside
from migrate_roots.codemods._lowlevel_schemas import _statements, _ToolIndexer
from migrate_roots.codemods._read import read

SPLAT = "**"  # the dispatch call hands the arguments on with `**`


class _Indexer(_ToolIndexer):
    """The whole index: what the module declares (`_ToolIndexer`), then its handlers and their branches."""

    def run(self, module: cst.Module) -> Index:
        for statement in module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            self.constants[target.value] = small.value
                    elif (
                        isinstance(small, cst.AnnAssign)
                        and isinstance(small.target, cst.Name)
                        and small.value
                    ):
                        self.constants[small.target.value] = small.value
            elif isinstance(statement, cst.ClassDef):
                self.classes[statement.name.value] = statement
        outer = self

        class Collect(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                outer.calls.append(node)
                if outer.state.qnames(node.func) & _sdk.TOOL_TYPES:
                    outer.tool_calls.append(node)

            def visit_Dict(self, node: cst.Dict) -> None:
                outer.dicts.append(node)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                outer.functions.append(node)

        self.state.walk(module, Collect())
        self._tools()
        refuse_closed(self.state, self.index, self.calls, self.classes, self.constants)
        self._handlers()
        refuse_own_key(self.state, self.index)
        return self.index

    # --- handlers --------------------------------------------------------------------------------------
    def _handlers(self) -> None:
        found: dict[cst.FunctionDef, str] = {}
        for func in self.functions:
            for decorator in func.decorators:
                call = decorator.decorator
                target = call.func if isinstance(call, cst.Call) else call
                if (
                    isinstance(target, cst.Attribute)
                    and target.attr.value in _sdk.CALL_TOOL_DECORATORS
                    and _sdk.expr_kind(self.state, target.value) == _sdk.LL_SERVER
                ):
                    found.setdefault(func, "v1")
        for call in self.calls:
            ref: cst.BaseExpression | None = None
            registered = self._registered(call)
            if registered is not None:
                # `server.call_tool()(call_tool)`: the decorator applied by a call, the same registration.
                resolved = self.resolve(registered)
                if resolved is not None:
                    found.setdefault(resolved, "v1")
                continue
            if _sdk.call_kind(self.state, call) == _sdk.LL_SERVER:
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value in _sdk.CALL_TOOL_KEYWORDS:
                        ref = arg.value
            elif (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "add_request_handler"
                and _sdk.expr_kind(self.state, call.func.value) == _sdk.LL_SERVER
                and len(call.args) >= 3
                and isinstance(call.args[0].value, cst.SimpleString)
                and call.args[0].value.evaluated_value == _sdk.CALL_TOOL_METHOD
            ):
                ref = call.args[2].value
            if ref is not None:
                resolved = self.resolve(ref)
                if resolved is not None:
                    found.setdefault(resolved, "v2")
        for func, form in found.items():
            handler = self._handler(func, form)
            if handler is not None:
                self.index.handlers.append(handler)

    def _registered(self, call: cst.Call) -> cst.BaseExpression | None:
        """The function `X.call_tool()(fn)` registers (mcp 1.x's decorator called by hand; also through a name
        bound once to `X.call_tool()`: `reg = server.call_tool()`, then `reg(fn)`), or None."""
        inner = self._decorator_held(call.func)
        args = [a for a in call.args if a.keyword is None and not a.star]
        if (
            isinstance(inner, cst.Call)
            and isinstance(inner.func, cst.Attribute)
            and inner.func.attr.value in _sdk.CALL_TOOL_DECORATORS
            and len(args) == 1
            and len(call.args) == 1
            and _sdk.expr_kind(self.state, inner.func.value) == _sdk.LL_SERVER
        ):
            return args[0].value
        return None

    def _decorator_held(self, func: cst.BaseExpression) -> cst.BaseExpression:
        """`reg` bound once, by `reg = X.call_tool()`, is that call; anything else is itself."""
        scope = self.state.scope(func) if isinstance(func, cst.Name) else None
        if scope is None or not isinstance(func, cst.Name) or func.value not in scope:
            return func
        bound = list(scope[func.value])
        target = getattr(bound[0], "node", None) if len(bound) == 1 else None
        value = _sdk._assigned_value(self.state, target) if isinstance(target, cst.Name) else None
        return value if isinstance(value, cst.Call) else func

    def resolve(self, ref: cst.BaseExpression) -> cst.FunctionDef | None:
        """The function a reference names: a module/enclosing-scope function, or `self.method`."""
        if isinstance(ref, cst.Name):
            scope = self.state.scope(ref)
            if scope is not None and ref.value in scope:
                for assignment in scope[ref.value]:
                    node = getattr(assignment, "node", None)
                    if isinstance(node, cst.FunctionDef):
                        return node
            return None
        if isinstance(ref, cst.Attribute) and isinstance(ref.value, cst.Name) and ref.value.value == "self":
            node = self.state.parent(ref)
            while node is not None and not isinstance(node, cst.ClassDef):
                node = self.state.parent(node)
            if isinstance(node, cst.ClassDef):
                for statement in node.body.body:
                    if isinstance(statement, cst.FunctionDef) and statement.name.value == ref.attr.value:
                        return statement
        return None

    def _handler(self, func: cst.FunctionDef, form: str) -> Handler | None:
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        if len(params) < 2:
            return None
        param = self.state.settings.param_name
        qualname = self.state.qualname(func)
        if form == "v1":
            name, args = params[0], params[1]
            handler = Handler(func, qualname, form, f'{args}.get("{param}")', {name}, {args})
        else:
            p = params[1]
            handler = Handler(
                func,
                qualname,
                form,
                f'({p}.arguments or {{}}).get("{param}")',
                {f"{p}.name"},
                {f"{p}.arguments", f"({p}.arguments or {{}})", f"{p}.arguments or {{}}"},
                params_name=p,
            )
        # Simple aliases at the top of the handler: `name = params.name`, `args = params.arguments or {}`.
        for statement in _statements(func.body):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            text = _code(small.value).strip()
                            if text in handler.names:
                                handler.names.add(target.value)
                            elif text in handler.args:
                                handler.args.add(target.value)
        self._branches(func.body, handler, [0])
        self._tables(handler)
        return handler

    def _is_name(self, expr: cst.BaseExpression, handler: Handler) -> bool:
        return _code(expr).strip() in handler.names

    def _test_keys(self, test: cst.BaseExpression, handler: Handler) -> list[str] | None:
        """Tool keys a branch test selects (`name == "x"`, `name in ("x", "y")`, joined by `or`)."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            one, two = self._test_keys(test.left, handler), self._test_keys(test.right, handler)
            return one + two if one is not None and two is not None else None
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op, other = test.comparisons[0].operator, test.comparisons[0].comparator
        left = test.left
        if isinstance(op, cst.Equal):
            if self._is_name(left, handler):
                found = self.key(other)
            elif self._is_name(other, handler):
                found = self.key(left)
            else:
                return None
            return [found[0]] if found else None
        if isinstance(op, cst.In) and isinstance(other, cst.Name):
            other = self.constants.get(other.value, other)  # `name in WRITE_TOOLS`, a module constant
        if (
            isinstance(op, cst.In)
            and self._is_name(left, handler)
            and isinstance(other, (cst.Tuple, cst.List, cst.Set))
        ):
            keys = [self.key(e.value) for e in other.elements if isinstance(e, cst.Element)]
            if keys and all(keys):
                return [k[0] for k in keys if k]
        return None

    def _pattern_keys(self, pattern: cst.MatchPattern) -> list[str] | None:
        if isinstance(pattern, cst.MatchValue):
            found = self.key(pattern.value)
            return [found[0]] if found else None
        if isinstance(pattern, cst.MatchOr):
            keys: list[str] = []
            for element in pattern.patterns:
                sub = self._pattern_keys(element.pattern)
                if sub is None:
                    return None
                keys += sub
            return keys
        if isinstance(pattern, cst.MatchAs) and pattern.pattern is not None:
            return self._pattern_keys(pattern.pattern)
        return None

    def _branches(self, block: cst.BaseSuite, handler: Handler, counter: list[int]) -> None:
        for statement in _statements(block):
            if isinstance(statement, cst.If):
                self._if(statement, handler, counter)
            elif isinstance(statement, cst.Match) and self._is_name(statement.subject, handler):
                for case in statement.cases:
                    keys = self._pattern_keys(case.pattern)
                    if keys and case.guard is None:
                        self._branch(case.body, keys, handler, counter)
            elif isinstance(statement, (cst.Try, cst.TryStar, cst.With, cst.For, cst.While)):
                self._branches(statement.body, handler, counter)
                for extra in _extra_blocks(statement):
                    self._branches(extra, handler, counter)

    def _if(self, node: cst.If, handler: Handler, counter: list[int]) -> None:
        keys = self._test_keys(node.test, handler)
        if keys:
            self._branch(node.body, keys, handler, counter)
        else:
            self._branches(node.body, handler, counter)
        if isinstance(node.orelse, cst.If):
            self._if(node.orelse, handler, counter)
        elif isinstance(node.orelse, cst.Else):
            self._branches(node.orelse.body, handler, counter)

    def _branch(self, block: cst.BaseSuite, keys: list[str], handler: Handler, counter: list[int]) -> None:
        counter[0] += 1
        qualname = f"{handler.qualname}[{counter[0]}:{'|'.join(k[2:] for k in keys)}]"
        handler.branches.append((block, keys, qualname))

    def _tables(self, handler: Handler) -> None:
        """Dicts of functions keyed by tool name, used by the handler (`TOOLS[name](arguments)`)."""
        handler_text = _code(handler.func)
        for node in self.dicts:
            entries: list[tuple[str, cst.FunctionDef]] = []
            imported: dict[str, list[str]] = {}
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    continue
                found = self.key(element.key)
                func = self.resolve(element.value)
                if found and found[0] in self.index.tools and func is not None:
                    entries.append((found[0], func))
                elif found and found[0] in self.index.tools:
                    for fq in self._imported(element.value):
                        imported.setdefault(fq, []).append(found[0])
            if not entries and not imported:
                continue
            holder = _holder_name(node, self.state)
            if holder is None or holder not in handler_text and not _inside(node, handler.func, self.state):
                continue
            line = self.state.pos(node)[0]
            handler.elsewhere += [(fq, keys, holder or "{...}", line) for fq, keys in imported.items()]
            dispatch = self._dispatch_position(handler, holder or _code(node).strip())
            by_func: dict[cst.FunctionDef, list[str]] = {}
            for key, func in entries:
                by_func.setdefault(func, []).append(key)
            for func, keys in by_func.items():
                value, why = self._table_value(func, handler, dispatch)
                handler.tables.append((func, keys, value, why))
        handler.elsewhere += self._imported_tables(handler)
        handler.elsewhere += self._computed(handler)

    def _computed(self, handler: Handler) -> list[tuple[str, list[str], str, int]]:
        """Methods the handler looks up by a name it computes from the tool's (`getattr(self,
        f"handle_{name}")`): (the method's dotted name, its tool's key, the lookup as written, line). Not
        followed: the plan names the lookup in the method's marker (program/model.py, `dispatched`)."""
        node = self.state.parent(handler.func)
        while node is not None and not isinstance(node, cst.ClassDef):
            node = self.state.parent(node)
        if not isinstance(node, cst.ClassDef):
            return []
        methods = {s.name.value: s for s in node.body.body if isinstance(s, cst.FunctionDef)}
        found: list[tuple[str, list[str], str, int]] = []
        outer = self

        class Find(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                if not (
                    isinstance(call.func, cst.Name)
                    and call.func.value == "getattr"
                    and len(call.args) >= 2
                    and _code(call.args[0].value).strip() == "self"
                ):
                    return
                affixes = outer._affixes(call.args[1].value, handler)
                if affixes is None:
                    return
                text, line = _code(call).strip(), outer.state.pos(call)[0]
                for key in outer.index.tools:
                    method = methods.get(affixes[0] + key[2:] + affixes[1])
                    if method is not None:
                        fq = f"{outer.state.module}.{outer.state.qualname(method)}"
                        found.append((fq, [key], text, line))

        read(handler.func.body, Find())
        return found

    def _affixes(self, expr: cst.BaseExpression, handler: Handler) -> tuple[str, str] | None:
        """(prefix, suffix) of a name built around the tool name: `f"handle_{name}"`, `"handle_" + name`."""
        if isinstance(expr, cst.FormattedString):
            parts = list(expr.parts)
            texts = [p.value if isinstance(p, cst.FormattedStringText) else None for p in parts]
            holes = [i for i, p in enumerate(parts) if isinstance(p, cst.FormattedStringExpression)]
            if len(holes) != 1 or any(t is None for i, t in enumerate(texts) if i != holes[0]):
                return None
            hole = parts[holes[0]]
            assert isinstance(hole, cst.FormattedStringExpression)
            if hole.conversion or hole.format_spec or not self._is_name(hole.expression, handler):
                return None
            return "".join(texts[: holes[0]] or ""), "".join(texts[holes[0] + 1 :] or "")  # type: ignore[arg-type]
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            left, right = expr.left, expr.right
            if isinstance(left, cst.SimpleString) and self._is_name(right, handler):
                value = left.evaluated_value
                return (value, "") if isinstance(value, str) else None
            if isinstance(right, cst.SimpleString) and self._is_name(left, handler):
                value = right.evaluated_value
                return ("", value) if isinstance(value, str) else None
        return None

    def _imported_tables(self, handler: Handler) -> list[tuple[str, list[str], str, int]]:
        """Tables of another module the handler looks the tool name up in (`HANDLERS.get(name)`,
        `HANDLERS[name]` after `from .handlers import HANDLERS`): (the table's name, no keys, as written, line).
        The plan reads the table's functions from that module's facts (`ModuleFacts.tables`)."""
        found: list[tuple[str, list[str], str, int]] = []
        outer = self

        class Find(cst.CSTVisitor):
            def visit_Subscript(self, node: cst.Subscript) -> None:
                if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
                    self.table(node.value, node.slice[0].slice.value)

            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value == "get" and node.args:
                    self.table(func.value, node.args[0].value)

            def table(self, base: cst.BaseExpression, key: cst.BaseExpression) -> None:
                if outer._is_name(key, handler) and isinstance(base, (cst.Name, cst.Attribute)):
                    line = outer.state.pos(base)[0]
                    found.extend((fq, [], _code(base).strip(), line) for fq in outer._imported(base))

        read(handler.func.body, Find())
        return found

    def _imported(self, value: cst.BaseExpression) -> set[str]:
        """The names a table value has through an import (`handle_where` after `from .handlers import
        handle_where`, `handlers.handle_where`): a function of another module, when the plan knows it."""
        if not isinstance(value, (cst.Name, cst.Attribute)):
            return set()
        return {name for name in self.state.qnames(value) if name.rpartition(".")[0] != self.state.module}

    def _dispatch_position(self, handler: Handler, holder: str) -> tuple[list[str], str, int] | None:
        """The dispatch call `holder[name](...)` / `holder.get(name)(...)`, or `fn(...)` after a local
        `fn = holder.get(name)` / `fn = holder[name]`: the source texts of its arguments, its text, its line."""
        outer = self

        class Find(cst.CSTVisitor):
            found: tuple[list[str], str, int] | None = None
            aliases: set[str] = set()

            def visit_Assign(self, node: cst.Assign) -> None:
                value = node.value
                if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
                    value = value.func.value if value.func.attr.value == "get" else value
                elif isinstance(value, cst.Subscript):
                    value = value.value
                if (
                    _code(value).strip() == holder
                    and len(node.targets) == 1
                    and isinstance(node.targets[0].target, cst.Name)
                ):
                    Find.aliases = Find.aliases | {node.targets[0].target.value}

            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                if isinstance(func, cst.Subscript):
                    base = _code(func.value).strip()
                elif isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute):
                    base = _code(func.func.value).strip()
                elif isinstance(func, cst.Name) and func.value in Find.aliases:
                    base = holder
                else:
                    return
                if base == holder and Find.found is None:
                    line = outer.state.pos(node)[0]
                    text = _code(node).strip()
                    if any(a.star for a in node.args):
                        # `TOOLS[name](**arguments)`: the arguments arrive as keywords, not as one dict.
                        Find.found = ([SPLAT], text, line)
                        return
                    Find.found = (
                        [_code(a.value).strip() for a in node.args if a.keyword is None],
                        text,
                        line,
                    )

        read(handler.func.body, Find())
        return Find.found

    def _table_value(
        self, func: cst.FunctionDef, handler: Handler, dispatch: tuple[list[str], str, int] | None
    ) -> tuple[str, str | None]:
        param = self.state.settings.param_name
        position = dispatch[0] if dispatch is not None else None
        if position == [SPLAT]:
            return (
                "",
                "the tool arguments reach this dispatched function as keywords (`**arguments`), not as a dict",
            )
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        if position is not None:
            for i, text in enumerate(position):
                if i >= len(params):
                    break
                if text in handler.args:
                    guard = handler.form == "v2" and "or {}" not in text
                    p = params[i]
                    return (f'({p} or {{}}).get("{param}")' if guard else f'{p}.get("{param}")'), None
                if handler.form == "v2" and text == handler.params_name:
                    return f'({params[i]}.arguments or {{}}).get("{param}")', None
        why = "cannot tell which parameter of this dispatched function receives the tool arguments"
        # A single parameter is the arguments dict only when the dispatch visibly hands that dict on: a model
        # validated from it (`Model.model_validate(arguments)`) has no `.get`.
        if dispatch is not None:
            call, line = dispatch[1], dispatch[2]
            shown = call if len(call) <= 60 else call[:57] + "..."
            head, base = os.path.split(self.state.path)
            place = f"{os.path.basename(head)}/{base}" if os.path.basename(head) else base
            return "", f"{why}: the dispatch `{shown}` ({place}:{line}) does not hand on the arguments dict"
        return "", f"{why}: no call of the table found in `{handler.func.name.value}`"
