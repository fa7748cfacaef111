"""The model over a group of files: which functions are tools, and why a roots site is reached by none.

Built from the per-file summaries of the roots rule (each carries its `ModuleFacts` and its functions with
the calls they make); a pure function of them: nothing here writes into a summary.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from migrate_roots.codemods.program.facts import ModuleFacts, Registration

# `@wraps(fn)`, `@functools.wraps(fn)`, `@ft.wraps(fn)`: the wrapper is what the decorated function becomes.
WRAPS = re.compile(r"@(?:\w+\.)*wraps\(")
# `why_unreached` of a function kept as a value and called later (`_roots_absorbed` asks for it).
KEPT = "returns and its caller keeps and calls later"


@dataclass
class ProgramModel:
    modules: dict[str, ModuleFacts] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)  # module -> path
    # Function (fully qualified) -> tool name, for registrations resolved over the group.
    tools: dict[str, str] = field(default_factory=dict)
    # Such a function -> the parameters its registration hides (`exclude_args`; `*`: all of them).
    hidden: dict[str, frozenset[str]] = field(default_factory=dict)
    # Function -> (path, registration) whose server object the group does not show.
    unresolved: dict[str, tuple[str, Registration]] = field(default_factory=dict)
    # Callee -> (caller, path, line).
    callers: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    # Function -> (spelling, path, line) of a registration other than a tool's (`@server.list_tools()`).
    handlers: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    # Tool -> (code, why it gets no argument): a tool whose own refusal also holds for what it reaches.
    refused: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Function -> (decorator, path, line): decorated by something that is not a known registration.
    decorated: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    # Nested function -> (the function returning it, path, line): called later through a variable.
    returned: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    # Such a nested function -> the parameters of the function returning it (is `@wraps(fn)` its argument?).
    outer_params: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A nested function an SDK tool object is built from: (enclosing function, the constructor call, path, line).
    made: dict[str, tuple[str, str, str, int]] = field(default_factory=dict)
    # A nested function handed by name to the project's code: (enclosing function, call, path, line).
    handed: dict[str, tuple[str, str, str, int]] = field(default_factory=dict)
    # A function of another module that a low-level dispatch table calls as tools: (tools, table, path, line).
    dispatched: dict[str, tuple[str, str, str, int]] = field(default_factory=dict)
    # (caller, line) -> the global flag that makes that call happen once per process.
    once: dict[tuple[str, int], str] = field(default_factory=dict)
    # Tools registered from values no function names: (spelling, path, line), the first of the group.
    opaque: tuple[str, str, int] | None = None

    @classmethod
    def build(cls, summaries: Mapping[str, Any]) -> ProgramModel:
        model = cls()
        for path, summary in summaries.items():
            facts = getattr(summary, "facts", None)
            model.paths.setdefault(summary.module, path)
            if facts is not None:
                model.modules[summary.module] = facts
                for spelling, line in getattr(facts, "opaque", ()):
                    if model.opaque is None or (path, line) < model.opaque[1:]:
                        model.opaque = (spelling, path, line)
                for fq, spelling, line in getattr(facts, "handed", ()):
                    model.handed.setdefault(fq, ("", spelling, path, line))
                for fq, tools, table, line in getattr(facts, "dispatched", ()):
                    model.dispatched.setdefault(fq, (tools, table, path, line))
            for func in summary.functions.values():
                if func.tool and func.refusal:
                    model.refused[f"{summary.module}.{func.qualname}"] = func.refusal
                if getattr(func, "decorator", None) and not func.tool:
                    model.decorated[f"{summary.module}.{func.qualname}"] = (func.decorator, path, func.pos[0])
                if getattr(func, "made_tool", None) and not func.tool:
                    outer, spelling, line = func.made_tool
                    model.made[f"{summary.module}.{func.qualname}"] = (outer, spelling, path, line)
                if getattr(func, "handed_to", None) and not func.tool:
                    outer, spelling, line = func.handed_to
                    model.handed[f"{summary.module}.{func.qualname}"] = (outer, spelling, path, line)
                if getattr(func, "returned_by", None) and not func.tool:
                    model.returned[f"{summary.module}.{func.qualname}"] = (
                        func.returned_by,
                        path,
                        func.pos[0],
                    )
                    model.outer_params[f"{summary.module}.{func.qualname}"] = func.outer_params
                if getattr(func, "handler", None):
                    line = getattr(func, "handler_line", 0) or func.pos[0]
                    model.handlers[f"{summary.module}.{func.qualname}"] = (func.handler, path, line)
                for callee, pos in func.calls:
                    # `Config().load` (a method of what a constructor or getter returns, program/typed.py) is
                    # also `Config.load` to the reasons: a class's method, when `Config` is a class.
                    for name in {callee, callee.replace("().", ".")}:
                        model.callers.setdefault(name, []).append(
                            (f"{summary.module}.{func.qualname}", path, pos[0])
                        )
                    if pos in getattr(func, "once", {}):
                        model.once[(f"{summary.module}.{func.qualname}", pos[0])] = func.once[pos]
        for fq, (tools, table, path, line) in list(model.dispatched.items()):
            # A table of another module (`HANDLERS.get(name)`, tools ''): its functions, keyed by tool name.
            module, _, name = fq.rpartition(".")
            entries = (
                dict(getattr(model.modules.get(module), "tables", ())).get(name, ()) if not tools else ()
            )
            for key, value in entries:
                model.dispatched.setdefault(value, (key, table, path, line))
        classes = {c for facts in model.modules.values() for c in facts.server_classes}
        for path, summary in summaries.items():
            facts = getattr(summary, "facts", None)
            for registration in facts.registrations if facts is not None else ():
                fq = registration.target or f"{summary.module}.{registration.function}"
                if model._registers_server(summary.module, registration, classes):
                    model.tools[fq] = registration.name or registration.function.rpartition(".")[2]
                    if registration.hidden:
                        model.hidden[fq] = model.hidden.get(fq, frozenset()) | set(registration.hidden)
                else:
                    model.unresolved.setdefault(fq, (path, registration))
        return model

    def _registers_server(self, module: str, registration: Registration, classes: set[str]) -> bool:
        """The receiver is a server object of the group, or comes from a module of the same top-level package
        that this run did not index (a module that only builds the server: `_mcp.py`, `server.py`), or, for a
        module outside any package, from a sibling module (`from app import mcp`)."""
        if registration.target:
            return True  # on the module's own server object (recognise saw it constructed there)
        top = module.split(".")[0]
        for name in registration.receiver:
            found = self._is_server(name, classes, 0)
            # A loose module (a script's folder, no package) imports its siblings by their bare names.
            first_party = name.split(".")[0] == top or ("." not in module and name.count(".") == 1)
            if found or (found is None and first_party):
                return True
        return False

    def _is_server(self, fq: str, classes: set[str], depth: int) -> bool | None:
        """True / False when the group shows what `fq` is bound to; None when its module is not indexed."""
        module, _, name = fq.rpartition(".")
        facts = self.modules.get(module)
        if depth > 8:
            return False
        if facts is None:
            return None if module not in self.paths else False
        if name in facts.servers:
            return True
        if any(n == name and ctor in classes for n, ctor in facts.instances):
            return True
        for bound, target in facts.imports:
            if bound == name:
                return self._is_server(target, classes, depth + 1) is not False
        return any(self._is_server(f"{star}.{name}", classes, depth + 1) for star in facts.stars)

    def why_unreached(self, fq: str) -> tuple[str, str]:
        """The truthful reason a roots site in `fq` gets no path argument: which registration could not be
        resolved, or which non-tool callers reach it, or that nothing in the package calls it."""
        seen, todo = {fq}, [fq]
        chain: list[tuple[str, str, int]] = []
        handler: tuple[str, str] | None = None
        context_code: tuple[str, str] | None = None  # a function taking a MiddlewareContext on the way
        while todo:
            current = todo.pop(0)
            if current in self.refused:
                code, why = self.refused[current]
                if fq != current and not why.startswith("tool `"):  # say who, before why
                    why = f"`{_last(current)}`: {why}"
                return code, f"roots read {_via(fq, current)}{why}"
            if current in self.dispatched:
                return "MR153", _dispatched(fq, current, *self.dispatched[current])
            if current in self.unresolved:
                path, registration = self.unresolved[current]
                return "MR103", (
                    f"tool `{registration.name or registration.function.rpartition('.')[2]}` is registered by "
                    f"`{registration.spelling}` ({_short(path)}:{registration.pos[0]}), whose server object "
                    "cannot be resolved: roots read outside any tool call migrate-roots can see"
                )
            if current in self.handlers:
                # Kept until the walk ends: a tool found later on another way (a low-level `call_tool` after a
                # `get_prompt` handler in the file) is the truer reason, whatever the order in the file.
                spelling, path, line = self.handlers[current]
                if spelling.startswith(MIDDLEWARE_CODE):
                    # A hook further up (the base's `on_call_tool` calling `self.check`) is the nearer place.
                    what = f"code of the fastmcp middleware `{spelling[len(MIDDLEWARE_CODE) :]}` (it takes a "
                    context_code = context_code or _middleware(
                        fq, current, f"{what}`MiddlewareContext`, ", path, line
                    )
                elif spelling.startswith(MIDDLEWARE):
                    what = f"a hook of the fastmcp middleware `{spelling[len(MIDDLEWARE) :]}` ("
                    handler = handler or _middleware(fq, current, what, path, line)
                    continue
                else:
                    handler = handler or (
                        "MR103",
                        f"roots read {_via(fq, current)}the handler `{current.rpartition('.')[2]}` registered by "
                        f"`{spelling}` ({_short(path)}:{line}), outside any tool call: {_handler_advice(spelling)}",
                    )
                    continue
            for caller, path, line in self.callers.get(current, ()):
                flag = self.once.get((caller, line))
                if flag is not None:
                    return "MR211", (
                        f"roots read in `{_last(fq)}`"
                        + (f" (through `{_last(current)}`)" if current != fq else "")
                        + f", called by `{_last(caller)}` "
                        f"({_short(path)}:{line}) "
                        + (
                            f"once per call of `{_last(flag.split(' nonlocal ')[1])}`, behind the flag "
                            f"`{flag.split(' nonlocal ')[0]}` (its variable, set through `nonlocal`)"
                            if " nonlocal " in flag
                            else f"once, behind the flag `{flag}` that it sets on that object"
                            if "." in flag
                            else f"once per process, behind the flag `{flag}`"
                        )
                        + ": a path argument would be read on the first call and ignored afterwards; read it per "
                        "call, then run again"
                    )
                if caller not in seen:
                    seen.add(caller)
                    todo.append(caller)
                    chain.append((caller, path, line))
        if handler is not None or context_code is not None:
            return handler or context_code  # type: ignore[return-value]
        short = fq.rpartition(".")[2]
        wrapped = [(c, self.decorated[c]) for c in [fq, *(c for c, _, _ in chain)] if c in self.decorated]
        wrapped = [(c, d) for c, d in wrapped if "test" not in c]
        if wrapped:
            caller, (decorator, path, line) = wrapped[0]
            wrapped_name = WRAPS.sub("", decorator).partition(")")[0].strip()
            if (
                WRAPS.match(decorator)
                and caller in self.returned
                and wrapped_name not in self.outer_params.get(caller, ())
            ):
                # `_factory(name)` returns `run`, made with `@wraps(_template)`: the tools are built from the
                # returned function, their signature set where they are made (playwright-python-mcp).
                outer = self.returned[caller][0]
                return "MR104", (
                    f"roots read in `{short}`, reached from `{_last(caller)}` ({_short(path)}:{line}), which "
                    f"`{_last(outer)}` returns made with `{decorator}`: the tools built from it take their "
                    "inputSchema from what they are given where they are made (a wrapped function, or a "
                    "`__signature__` set there), not from this code; add a path parameter there by hand and "
                    "pass it here"
                )
            if WRAPS.match(decorator):
                return "MR104", (
                    f"roots read in `{short}`, reached from `{_last(caller)}` ({_short(path)}:{line}), the "
                    f"wrapper a decorator puts around functions (`{decorator}`): give each tool it wraps a "
                    "path argument by hand, and pass it here"
                )
            place = f"({_short(path)}:{line})"
            where = f" {place}" if caller == fq else f", reached from `{_last(caller)}` {place}"
            if decorator.startswith(STANDALONE_TOOL):
                return "MR103", (
                    f"roots read in `{short}`{where}, a tool declared with fastmcp's standalone "
                    f"`{decorator[len(STANDALONE_TOOL) :]}`, registered by a provider (such as "
                    "`FileSystemProvider`) or by a call migrate-roots does not follow: give that tool a path "
                    "argument by hand"
                )
            if decorator.startswith(LAZY_WRAPPER):
                return "MR103", (
                    f"roots read in `{short}`{where}, decorated by `{decorator[len(LAZY_WRAPPER) :]}`, a "
                    "registrar of the project that hands the SDK a wrapper from another module: with `from "
                    "__future__ import annotations` here, fastmcp 2 reads the tool's annotations in that "
                    "module, where a new parameter's type is unknown; give that tool a path argument by hand"
                )
            return "MR103", (
                f"roots read in `{short}`{where}, decorated by `{decorator}`, which "
                "migrate-roots does not know as a tool registration (a registrar of the project is not "
                "followed): if it registers a tool, give that tool a path argument by hand"
            )
        made = [c for c in [fq, *(c for c, _, _ in chain)] if c in self.made]
        if made:
            outer, spelling, path, line = self.made[made[0]]
            through = "" if made[0] == fq else f", reached from `{_last(made[0])}`"
            return "MR104", (
                f"roots read in `{short}`{through}, the function of a tool object that `{_last(outer)}` builds "
                f"with `{spelling}` ({_short(path)}:{line}): its inputSchema is the one given there, not this "
                "code's signature; add a path property there by hand and pass it here"
            )
        handed = [c for c in [fq, *(c for c, _, _ in chain)] if c in self.handed]
        if handed:
            outer, spelling, path, line = self.handed[handed[0]]
            through = "" if handed[0] == fq else f", reached from `{_last(handed[0])}`"
            kind = _HANDLER_CALL.search(spelling)
            if kind is not None:  # `mcp.resource("cfg://x")(fn)`, `Server(on_get_prompt=fn)` (sweep F, r01)
                what = next(
                    k for k in ("list_tools", "resource", "prompt", "completion") if k in kind[0].lower()
                )
                return "MR103", (
                    f"roots read in `{short}`{through}, the {what} handler registered by `{spelling}` "
                    f"({_short(path)}:{line}), outside any tool call: {_handler_advice(what)}"
                )
            who = f"a function that `{_last(outer)}` hands" if outer else "a function handed"
            return "MR103", (
                f"roots read in `{short}`{through}, {who} as a value to `{spelling}` ({_short(path)}:{line}): "
                "the tools that call it there are not followed; give them a path argument by hand and pass it on"
            )
        values = [c for c in [fq, *(c for c, _, _ in chain)] if c in self.returned]
        if values:
            outer, path, line = self.returned[values[0]]
            through = (
                "" if values[0] == fq else f", reached from `{_last(values[0])}` ({_short(path)}:{line})"
            )
            return "MR103", (
                f"roots read in `{short}`{through}, a function that `{_last(outer)}` {KEPT}: migrate-roots "
                "cannot see whether a tool call reaches it, or follow a path argument there"
            )
        if not chain:
            return "MR103", (
                f"roots read in `{short}`, which is not a tool and which no call migrate-roots can follow "
                "reaches (unused, a handler, called from outside the package, or called through a value it "
                "cannot type, such as a method of an object a function returns): if a tool reaches it, give "
                f"that tool a path argument by hand{self._opaque_note()}"
            )
        chain.sort(key=lambda c: "test" in c[1])  # the package's own callers first, its tests after
        callers = ", ".join(f"`{c.rpartition('.')[2]}` ({_short(p)}:{line})" for c, p, line in chain[:3])
        more = f" and {len(chain) - 3} more" if len(chain) > 3 else ""
        return "MR103", (
            f"roots read in `{short}`, which the calls migrate-roots can follow reach only from {callers}{more}: "
            "none of them a tool or called from one. If a tool (or a prompt) reaches it another way (an import "
            f"inside a function, a value it cannot type), give that tool a path argument by hand{self._opaque_note()}"
        )

    def _opaque_note(self) -> str:
        """The first tool registration whose value names no function: such a tool may be the way in."""
        if self.opaque is None:
            return ""
        spelling, path, line = self.opaque
        # One line, as written but for its line breaks (`mcp.tool(\n    name=name,\n)(fn)` -> `mcp.tool(name=name)(fn)`).
        spelling = " ".join(spelling.split()).replace("( ", "(").replace(", )", ")").replace(" )", ")")
        spelling = spelling if len(spelling) <= 60 else f"{spelling[:57]}..."
        return (
            f". Tools registered from a value migrate-roots cannot follow to a function, such as `{spelling}` "
            f"({_short(path)}:{line}), may be that way"
        )


def _last(fq: str) -> str:
    return fq.rpartition(".")[2]


MIDDLEWARE = "middleware:"  # `Func.handler` of a fastmcp Middleware's hook: "middleware:<its class>"
# ... of a function that takes a fastmcp MiddlewareContext: "middleware-code:<its class, or itself>"
MIDDLEWARE_CODE = "middleware-code:"
# `Func.decorator` of a function under fastmcp's standalone `@tool`: "standalone-tool:@tool(...)"
STANDALONE_TOOL = "standalone-tool:"
LAZY_WRAPPER = "lazy-wrapper:"  # a registrar not followed for string annotations (`registrars.unresolvable`)


def _via(fq: str, handler: str) -> str:
    return "in " if fq == handler else f"in `{fq.rpartition('.')[2]}`, reached from "


def _dispatched(fq: str, current: str, tools: str, spelled: str, path: str, line: int) -> str:
    """MR153's text for a function a low-level handler dispatches to in a way the rewrite does not follow: a
    table of another module, or a method looked up by a name built from the tool's (`getattr(self, ...)`)."""
    head = f"roots read {_via(fq, current)}`{_last(current)}`, which "
    if spelled.startswith("getattr("):
        return head + (
            f"the low-level tool handler looks up by a computed name (`{spelled}`, {_short(path)}:{line}) as tool "
            f"`{tools}`: migrate-roots does not follow a computed dispatch; add the path property to the tool's "
            "schema and read it from the arguments by hand"
        )
    return head + (
        f"`{spelled}` ({_short(path)}:{line}) dispatches as tool{'s' * (',' in tools)} `{tools}` from another "
        "module: the low-level rewrite edits a schema and its dispatched function only in the module of the "
        "`call_tool` handler; add the path property to the schema and read it from the arguments by hand"
    )


def _short(path: str) -> str:
    """The file's folder and name (`tools/__init__.py`): enough to find it, short enough for a comment."""
    head, name = os.path.split(path)
    return f"{os.path.basename(head)}/{name}" if os.path.basename(head) else name


# A call that registers a function as a resource, prompt or completion handler, as written.
_HANDLER_CALL = re.compile(
    # mcp 1.x low-level decorators called by hand too (`server.list_tools()(list_tools)`, sweep P, r02)
    r"\.(resource|prompt|completion|list_tools|read_resource|get_prompt)\(|"
    r"\bon_(read_resource|get_prompt|completion|list_tools)\s*="
    r"|\b(Prompt|Resource|FunctionResource|ResourceTemplate)\.from_function\(|\.add_(prompt|resource)\("
)


def _handler_advice(spelling: str) -> str:
    """What can carry the path to a handler that is no tool (migrate-roots rewrites tools only)."""
    if "prompt" in spelling.lower():
        return (
            "migrate-roots rewrites tools only, but a prompt takes arguments too (prompts/get carries them): "
            "give it a path argument by hand"
        )
    if "resource" in spelling.lower():
        return (
            "a resource read carries no arguments beyond its URI: put the path in its URI template, by hand"
        )
    if "lifespan" in spelling:
        return (
            "the server's lifespan runs at its start, outside any request, and on MCP 2026-07-28 has no client "
            "to ask: take the directory from the server's configuration, or read it in the tools, by hand"
        )
    return "nothing can pass a path argument here"


def _middleware(fq: str, current: str, what: str, path: str, line: int) -> tuple[str, str]:
    """MR103 for roots read in fastmcp middleware: `what` names it, up to the place `(path:line)`."""
    return (
        "MR103",
        f"roots read {_via(fq, current)}`{current.rpartition('.')[2]}`, {what}{_short(path)}:{line}): it runs "
        "around tool calls but takes no argument of its own, so migrate-roots rewrites nothing here; if the "
        "roots bound what the tools may touch, keep that bound in the server's configuration, never in an "
        "argument the caller chooses; else read the tool's own path argument from `context.message.arguments`, "
        "by hand",
    )
