"""The data of the roots-call family (codemods/roots_call.py): what the index records per file (`Site`,
`Func`, `Double`, `Summary`) and what the package plan decides for it (`Plan`). Plain data: it is pickled
between processes and planned more than once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from migrate_roots.codemods.program.facts import ModuleFacts

# The method, also asked for by hand (`{"method": "roots/list"}`) or as a raw request (`ListRootsRequest()`).
TOKENS = (b"list_roots", b"roots/list", b"ListRoots")  # `ListRoots` also mcp 2.x's `ListRoots()` resolver

SHIM_FUNCTION = "list_roots_compat"
# A read whose roots bound paths (MR110): no argument, the operator's bound on modern requests.
BOUND_FUNCTION = "allowed_roots_compat"

Pos = tuple[int, int]


@dataclass
class Site:
    pos: Pos
    shape: str  # "result": a ListRootsResult; "list": fastmcp's list[Root]
    uses: str  # "first" (only roots[0]) or "list"
    refusal: tuple[str, str] | None = None  # (code, message) when it must not be rewritten
    existing: str | None = None  # an existing path parameter of the tool that guards this site
    loose: bool = (
        False  # ... by a test an empty string passes too (`if not repo_path`): pass `repo_path or None`
    )
    # Already `list_roots_compat(...)` (an earlier, interrupted run): counts for the plan, never rewritten.
    done: bool = False
    cached: tuple[str, ...] = ()  # globals the enclosing `if` tests (a fetch-once guard around the read)
    # On an untyped parameter in a module that never imports the SDK (`ctx.session.list_roots()` in a helper
    # module): an MCP call only when MCP code reaches it (the plan decides; otherwise no finding at all).
    maybe: bool = False
    # Read in a plain nested function its enclosing one owns (`_closure_owner`): its name, for the reasons.
    nested: str | None = None
    # Inside a `try` whose broad handler (`except Exception`) absorbs any failure of the read (_roots_absorbed).
    absorbed: bool = False
    # The shim's error is caught in the read's own function (a handler that covers it, or an SDK error's that
    # the rewrite widens): it never reaches a caller's `except ValueError` (`_kept_on_way`).
    caught: bool = False


@dataclass
class Func:
    qualname: str
    pos: Pos
    params: tuple[str, ...]
    tool: str | None = None  # MCP tool name when registered as a tool
    sites: list[Site] = field(default_factory=list)
    calls: list[tuple[str, Pos]] = field(default_factory=list)  # (callee fully qualified name, call position)
    refusal: tuple[str, str] | None = None
    # A low-level tool (a handler branch or a dispatched function, declared by codemods.lowlevel through
    # `state.extra["tool_like"]`): the expression holding the path value there, and the code of its sites.
    value: str | None = None
    code: str | None = None
    # ... and the tool the client calls there, for its findings (`tree` for the `name == "tree"` branch; None
    # for the handler itself, whose reads before the dispatch belong to no one tool). `tool` is the plan's.
    called: str | None = None
    # Call position -> the caller's own parameters passed on as plain names (an existing path argument
    # handed to the helper that reads roots is the sign to reuse it).
    passed: dict[Pos, tuple[str, ...]] = field(default_factory=dict)
    kwargs: bool = False  # takes **kwargs
    # Call or site position -> the parameter whose being set skips it (codemods/program/flow.py).
    guards: dict[Pos, str] = field(default_factory=dict)
    # Call position -> (callee parameter: keyword, or "#<index>" when positional; the name passed there).
    bound: dict[Pos, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    returns: tuple[str, ...] = ()  # parameters it returns as they are (`return explicit`): a fallback value
    handler: str | None = None  # registered by a decorator other than a tool's (`@server.list_tools()`)
    handler_line: int = 0  # where, when not at the function (a lifespan: `FastMCP(..., lifespan=fn)`)
    decorator: str | None = None  # the first decorator that registers nothing migrate-roots knows
    cache: str | None = None  # a cache decorator keyed by the arguments (`@alru_cache`: _roots_cached)
    under: str | None = (
        None  # such a decorator below the tool's own (applied first: the SDK registers its result)
    )
    returned_by: str | None = None  # the enclosing function that returns it (a function used as a value)
    outer_params: tuple[str, ...] = ()  # that function's parameters (`@wraps(fn)` of a decorator's `fn`?)
    # A nested function its enclosing one hands by name to a function of the project (`register_tools(mcp,
    # _detect_root)`): (the enclosing function, the call as written, its line). Whoever calls it is not followed.
    handed_to: tuple[str, str, int] | None = None
    # Functions of the project it hands by name to a call (`tg.start_soon(index_root, ctx, out)`): (their
    # dotted name, the call's position, the call as written). A threaded one gets no argument there.
    hands: list[tuple[str, Pos, str]] = field(default_factory=list)
    # Method calls handed a context or session (`self.paths.workspace(ctx)`): (the method's name, call position,
    # the call's function as written). One the plan cannot tie to a function is said where a method of that
    # name takes the argument (`paths` a dataclass field or a property).
    untyped: list[tuple[str, Pos, str]] = field(default_factory=list)
    # ... or to an SDK's tool constructor (`FunctionTool(..., fn=invoke, parameters={...})`): the tool's schema
    # is the one given there, not this function's signature.
    made_tool: tuple[str, str, int] | None = None
    # Call position -> the global flag that lets it run once per process (`if _DONE: return` before it).
    once: dict[Pos, str] = field(default_factory=dict)
    # `hasattr(x, "list_roots")` / `getattr(x, "list_roots", ...)`: the method named in a string.
    strings: list[Pos] = field(default_factory=list)
    taken: frozenset[str] = frozenset()  # names of the parameter's candidate family the body uses (_names)
    bound_sign: Any = None  # _bounds.BoundFacts: where its body checks paths against a bound
    # Call position -> what a value chosen at run time may be (`BOXES[area](root)`: _bounds_choice), for the
    # bound analysis only.
    chosen: dict[Pos, tuple[str, ...]] = field(default_factory=dict)
    # Parameters annotated with our own alias (`root: RootPath = None`, from an earlier or interrupted run):
    # name -> shape, so a rerun types the helpers as the first run did.
    aliased: dict[str, str] = field(default_factory=dict)
    # Parameters annotated as no path can be (`project: int | None`): never taken for the path argument.
    not_paths: frozenset[str] = frozenset()
    # Parameters with a value already (`root: str = "src"`, or required): never the new argument, which must
    # be None when the caller gives none (reused, the roots would be skipped or the value refused).
    fixed: frozenset[str] = frozenset()
    in_place: bool = False  # calls `allowed_roots_compat` (an earlier run's MR110)
    # Functions of its module it may call that run a function they are given (`_run_sync(fn, *args)`).
    runners: frozenset[str] = frozenset()
    # Every definition of this function (`if sys.platform == "win32": def base() ... else: def base()`): a
    # parameter the plan gives it goes on each, so whichever is live takes what its callers pass.
    defs: tuple[Pos, ...] = ()
    gives: str = (
        ""  # the package class its return annotation names (`get_service() -> Service`): program/typed
    )
    # Call position -> the attribute its result is assigned to (`self._roots = await self.load(ctx)`).
    stores: dict[Pos, str] = field(default_factory=dict)
    # ... and where that assignment is, when it is a later statement (`found = await ...`, then `self.x = found`).
    stored_at: dict[Pos, Pos] = field(default_factory=dict)
    # Call position -> (holder, line, kind): a cache of this function that keeps the call's value beyond the
    # request (`_CACHE[k] = await helper(ctx)` behind `if k not in _CACHE`; program/kept_calls.py).
    cached: dict[Pos, tuple[str, int, str]] = field(default_factory=dict)
    # Calls inside `try` whose handler would catch the shim's error but never caught the SDK's (`except
    # ValueError:`), by position: the handler as written (MR105 for the reads below: `_kept_on_way`).
    newly: dict[Pos, str] = field(default_factory=dict)
    # Calls whose failure with the shim's error is caught around them in this function: it goes no further up.
    caught: set[Pos] = field(default_factory=set)
    keeps: str | None = None  # the attribute it keeps its own roots reads on (`self._roots = ...`)
    # Call or site position -> (key, dict parameter): the key of that dict whose value, when the caller gives
    # one, skips it (program/keyed.py).
    keyed: dict[Pos, tuple[str, str]] = field(default_factory=dict)
    # Call position -> the callee's slots (`#<index>` or a keyword) that get this function's `**kwargs`.
    forwards: dict[Pos, tuple[str, ...]] = field(default_factory=dict)
    star: str = ""  # the name of its `**kwargs` parameter
    positional: int = 0  # how many of `params` take a positional argument (before any `*` or `*args`)
    # Hashes a parameter into a key (`hashlib`, `uuid5`, `hash()`), and the calls handing a parameter on; the
    # calls handed the roots' URI (`_roots_keyed`): the plan follows a URI to a hash across modules.
    hashes: bool = False
    param_calls: frozenset[Pos] = frozenset()
    uri_calls: frozenset[Pos] = frozenset()
    # Reads the names (or URI hosts) of the items of a parameter, to choose among them: roots handed to it
    # carry values, not directories (`_roots_by_name`). (spelling, line, "name" / "host" / "host-value")
    names_read: tuple[str, int, str] | None = None
    # ... or of roots it holds itself (`for r in roots: if r.name == ...`), in a function without a read of its
    # own: roots a helper returns to it (`_roots_by_name`).
    names_local: tuple[str, int, str] | None = None
    names_from: str = ""  # ... the name those roots start from (`roots` of `for r in roots`)
    # A tool built at run time: the parameters its synthesized `__signature__` surely declares.
    declared: frozenset[str] = frozenset()


@dataclass
class Double:
    """A test double: `monkeypatch.setattr(mod, "helper", fake)`, `patch("pkg.mod.helper", fake)`, ..."""

    target: str  # fully qualified name of what is replaced
    pos: Pos  # the patching call
    fake: str | None  # qualname of the replacing function defined in this file; None: anything else
    params: tuple[str, ...] = ()
    kwargs: bool = False
    # Every name the fake's body mentions: a new parameter must not shadow one of them.
    names: frozenset[str] = frozenset()


@dataclass
class Summary:
    module: str
    package_root: str
    package: str
    functions: dict[str, Func]
    doubles: list[Double] = field(default_factory=list)
    facts: ModuleFacts | None = None  # server objects, registrations, imports (codemods/program)
    sdk: bool = True  # the file imports (spells) the SDK
    instances: dict[str, str] = field(default_factory=dict)  # `workspace = Workspace()`: name -> class
    # Dotted names of functions used otherwise than called from a function's body (program/run_time.value_uses).
    values: frozenset[str] = frozenset()
    # Dotted names of functions stored under another name (`workspace_dir = first_root`, run_time.value_uses).
    stored: tuple[tuple[str, str], ...] = ()  # with where each is stored (`server.py:11`)
    # Module-level decorators whose wrapper would not carry a new argument through: name -> why (_roots_wrappers).
    wrappers: dict[str, str] = field(default_factory=dict)
    # Names the rewrite imports (`Field`, `Annotated`, ...) that the module binds to something else: name -> line.
    clashes: dict[str, int] = field(default_factory=dict)
    # Keys a low-level call handler takes out of every call's arguments first (`arguments.pop("workspace_root",
    # None)`): the server's own path argument, when one is path-like (_roots_absorbed).
    own_keys: frozenset[str] = frozenset()
    # Tools handed to fastmcp's `Tool.from_tool(..., transform_fn=fn)`, `fn` without `**kwargs` (_fastmcp_forms):
    # (the tool's dotted names, the call as written, its line).
    transformed: tuple[tuple[tuple[str, ...], str, int], ...] = ()
    # Tools it runs by name or through their tool object ("name:where", "fn:pkg.fs.where"), and the servers it
    # mounts with a prefix: (prefix, the mounted server's dotted name or "", the call, line, its tools' new names
    # as (name, new name) from `tool_names={...}`) (_roots_run_by_name).
    runs: frozenset[str] = frozenset()
    mounts: tuple[tuple[str, str, str, int, tuple[tuple[str, str], ...]], ...] = ()
    # Dotted names of functions whose name the module or their class binds again (`if cond: _dir = _dir_v2`), with
    # where (`server.py:19`) (program/run_time.rebound).
    rebound: tuple[tuple[str, str], ...] = ()


@dataclass
class Plan:
    tools: dict[str, tuple[str, str, bool]] = field(default_factory=dict)  # qualname -> (param, shape, new)
    threaded: dict[str, str] = field(default_factory=dict)  # helper qualname -> param added
    values: dict[str, str] = field(default_factory=dict)  # qualname -> expression of the path value there
    calls: dict[Pos, str] = field(default_factory=dict)  # call position -> expression to pass as keyword
    keywords: dict[Pos, str] = field(default_factory=dict)  # call position -> keyword, when not param-name
    # Calls passing a list-shaped value into a parameter that takes one path: its first, `root[0] if root else None`.
    firsts: set[Pos] = field(default_factory=set)
    # call position -> the callee's own name: `first_root(ctx).iterdir()` is two calls at one position
    callees: dict[Pos, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # helper qualname -> argument its errors name
    # helper qualname -> shapes of the values the tools reaching it pass ("any": a type we did not write)
    helper_shapes: dict[str, frozenset[str]] = field(default_factory=dict)
    doubles: dict[str, tuple[str, str]] = field(default_factory=dict)  # fake qualname -> (param, helper)
    double_shapes: dict[str, frozenset[str]] = field(default_factory=dict)  # fake -> its helper's shapes
    double_notes: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # patch call -> (param, helper)
    strings: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # `hasattr(x, "list_roots")` -> marker
    sites: dict[Pos, tuple[str, str] | None] = field(default_factory=dict)  # None: rewrite; else refusal
    # Sites whose roots bound paths (refused MR109 above): the read takes the operator's bound in place (MR110),
    # position -> the sign of the bound with its place.
    bound: dict[Pos, str] = field(default_factory=dict)
    # Call position -> (code, reason): a refused tool's call of a helper that now takes the argument it never
    # passes (a tool built at run time calling a helper another tool threads).
    # ... with the argument and its position in the helper (a call that gives it, by keyword or position, is fine).
    notes: dict[Pos, tuple[str, str, str, int]] = field(default_factory=dict)
    absorbed: set[str] = field(
        default_factory=set
    )  # helpers whose reads pass None, absorbed (_roots_absorbed)
    # A run of a tool that now takes a new argument ("name:where" / "fn:pkg.fs.where", _roots_run_by_name) ->
    # (the argument, the tool said for the marker).
    by_name: dict[str, tuple[str, str]] = field(default_factory=dict)
    shim_import: str = ""
    shim_path: str = ""


def reusable(func: Func) -> tuple[frozenset[str], tuple[str, ...]]:
    """(names the body takes, parameters the new argument may reuse) for `_names.choose`."""
    unfit = func.not_paths | func.fixed
    return func.taken | unfit, tuple(p for p in func.params if p not in unfit)


def import_root(summary: Summary) -> str:
    """The folder a module is imported from (its `sys.path` entry): the folder above its top-level package, or
    a loose file's own folder. Two `server.py` in sibling folders are two modules (README, "How it works")."""
    import os

    return os.path.dirname(summary.package_root) if summary.package else summary.package_root
