"""Roots calls in decorator-based servers: give each tool that reaches roots an explicit path argument.

The family of codes MR101-MR106 runs as one rule (`RootsCall`):

- index: per file, the functions, which are tools (`@server.tool`, `server.add_tool(fn)`), the roots sites in
  them (`ctx.session.list_roots()`, `ctx.request_context.session.list_roots()`, fastmcp `ctx.list_roots()`,
  `get_context()` forms) and the calls they make;
- plan: over the whole package, which tools reach a site (through helpers, across files), what parameter
  each gets, which helpers receive the value as a keyword argument, and which sites are refused;
- rewrite: the site becomes `list_roots_compat(<ctx>, <value>, name=...)` (same return shape), the tool gets
  `root: Annotated[str | None, Field(description=...)] = None`, helpers get `root=None`, and the calls on the
  way pass `root=root`.

The family is split by stage: `_roots_model.py` (the data), `_roots_sites.py` (the index walk),
`_roots_receiver.py` (which `list_roots()` call is the SDK's), `_roots_refusals.py` (what a site's code does
with the roots, and why it is refused), `_roots_plan.py` (the package plan), `_roots_rewrite.py` (the rewrite
walk) and `_roots_edits.py` (the node edits). This module holds the rules and their registration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import libcst as cst

from migrate_roots.codemods import (
    _fastmcp_forms,
    _roots_absorbed,
    _roots_follow,
    _roots_kept,
    _roots_keyed,
    _roots_run_by_name,
    _roots_select,
    _roots_untyped,
    _roots_wrappers,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_handed_to import _fq, _module_constant
from migrate_roots.codemods._roots_model import TOKENS, Double, Func, Plan, Pos, Summary, import_root
from migrate_roots.codemods._roots_names import root_names_read, root_names_source
from migrate_roots.codemods._roots_plan import plan_package
from migrate_roots.codemods._roots_refusals import _names_in, _returns_name
from migrate_roots.codemods._roots_rewrite import _Rewriter
from migrate_roots.codemods._roots_sites import SiteIndex
from migrate_roots.codemods._roots_uses import spells
from migrate_roots.codemods._schema_text import DESCRIPTION_MANY, DESCRIPTION_ONE
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.codemods.program import lifespans, module_scan, run_time, typed
from migrate_roots.codemods.program.facts import Registration
from migrate_roots.codemods.program.model import WRAPS
from migrate_roots.model import Severity

__all__ = [
    "DESCRIPTION_MANY",
    "DESCRIPTION_ONE",
    "Plan",
    "RootsCall",
    "import_root",
    "plan_package",
]


class RootsCall(SiteIndex, Rule):
    code = "MR101"
    name = "roots-session-call"
    summary = "`session.list_roots()` in a tool: rewritten to an explicit path argument with a legacy shim."
    severity = Severity.BROKEN
    fix = "safe"
    tokens = TOKENS
    # A roots token is always parsed: whether a call is MCP is the plan's decision (`Site.maybe`), not the
    # prefilter's (README, "How it works").
    requires = b""
    nodes = (
        cst.Module,
        cst.FunctionDef,
        cst.Call,
        cst.Assign,
        cst.AnnAssign,
        cst.AugAssign,
        cst.DictElement,
        cst.Attribute,
    )
    limits = (
        "Sites outside a tool call (MR103), in wrappers or generated tools (MR104), and code that tells "
        "'no roots capability' from 'empty list' (MR105) are marked, not rewritten."
    )

    def leave(self, state: FileState) -> None:
        self.stores()
        _roots_kept.cache_refusals(self.functions.values(), state)
        if state.phase == "index":  # `Func.keeps`: a fact for the plan only
            _roots_kept.kept_attributes(self.functions.values(), state)
        registered: dict[str, tuple[Pos, str]] = {}
        opaque: list[tuple[str, int]] = []
        for ref, tool_name, scope, pos, spelling, imported in self.added_tools:
            qualname = module_scan.registered_function(ref, scope, self.defs)
            func = self.functions.get(qualname) if qualname is not None else None
            # `exclude_args`; of another module's function, carried to the plan (`*`: not a literal, all of them).
            hidden = _fastmcp_forms.hidden(self.registered_at[pos], func.params if func else ("*",))
            if func is None and imported and qualname is None:
                # `mcp.tool()(list_roots)` of a function another module defines: the model makes it the tool.
                reg = Registration(ref, tool_name or "", (), spelling, pos, imported, tuple(sorted(hidden)))
                self.registrations.append(reg)
            elif func is None:
                opaque.append((spelling, pos[0]))
            else:
                func.tool = tool_name or func.qualname.rpartition(".")[2]
                func.not_paths, func.fixed = func.not_paths | hidden, func.fixed | hidden
                registered.setdefault(func.qualname, (pos, spelling))
        self.opaque = tuple(opaque)
        self._decorated_signatures(state)
        for func in self.functions.values():
            if func.tool and func.decorator and WRAPS.match(func.decorator) and func.refusal is None:
                # `@functools.wraps(fn)` on the registered wrapper: the SDK reads the schema from `fn`
                # (`__wrapped__`), so a parameter added to the wrapper never reaches it.
                where = registered.get(func.qualname)
                how = f" by `{where[1]}` ({os.path.basename(state.path)}:{where[0][0]})" if where else ""
                func.refusal = (
                    "MR104",
                    f"`{func.qualname.rpartition('.')[2]}`, registered as a tool{how}, is a wrapper made with "
                    f"`{func.decorator}`: the SDK builds its name and inputSchema from the wrapped function, so a "
                    "path argument added here would never reach the schema; give the wrapped function a path "
                    "parameter by hand and pass it here",
                )
            if func.tool and func.under and func.refusal is None:
                func.refusal = _unwrapped_refusal(func, self.defs)
            if func.tool and func.qualname.rpartition(".")[2] in self.signatures:
                func.declared = self._declared(func.qualname)
                where = registered.get(func.qualname)
                place = os.path.basename(state.path)
                how = f", registered by `{where[1]}` ({place}:{where[0][0]})" if where else ""
                func.refusal = (
                    "MR104",
                    f"tool `{func.tool}`{how}, is built at run time with a synthesized `__signature__`: its "
                    "inputSchema is not its code, so migrate-roots cannot add a path argument; check that the "
                    "signature declares one (add it by hand if not) and that its value reaches this read",
                )
        named = spells(state, ".name") or spells(state, ".uri.host") or spells(state, ".uri.netloc")
        for qualname, func in self.functions.items() if state.phase == "index" else ():  # facts for the plan
            node = self.defs.get(qualname)
            if node is None:
                continue
            func.hashes, func.param_calls = _roots_keyed.hash_facts(node, state)
            if named and node.params.params:
                func.names_read = root_names_read(node, state, params=True)
            if named and not func.sites:
                func.names_local = root_names_read(node, state)
                func.names_from = root_names_source(node, state) if func.names_local else ""
            if func.sites:
                func.uri_calls = _roots_keyed.uri_calls(node, state)
        if state.phase == "rewrite":
            _Rewriter(self, state).record()

    def _decorated_signatures(self, state: FileState) -> None:
        """A tool decorated by a function of this file that sets `__signature__` (`@with_signature(sig)`): built
        at run time too; what its signature declares is not read (no factory of its own)."""
        if not spells(state, "__signature__"):
            return
        setters = {q for q, node in self.defs.items() if "." not in q and _sets_signature(node)}
        for func in self.functions.values():
            spelled = (func.decorator or "").lstrip("@").partition("(")[0]
            if func.tool and spelled in setters:
                name = func.qualname.rpartition(".")[2]
                self.signatures.add(name)
                self.factories.setdefault(name, []).append((None, "<decorator>", cst.Name("None")))

    def _declared(self, qualname: str) -> frozenset[str]:
        """The parameters the one `__signature__` given to the function `qualname` surely declares: from the
        function that sets it, and from this file's functions it calls there to build it
        (`_build_handler_signature(spec)`). Set more than once, or by a value that could leave one out: none."""
        name = qualname.rpartition(".")[2]
        found = [
            (factory, value)
            for factory, owner, value in self.factories.get(name, ())
            if (f"{owner}.{name}" if owner else name) == qualname
        ]
        if len(self.factories.get(name, ())) != 1 or len(found) != 1 or not run_time.sure_value(found[0][1]):
            return frozenset()
        factory, value = found[0]
        names = set(run_time.declared(factory)) if factory is not None else set()
        for call in run_time.calls_in(value):
            builder = self.defs.get(call.func.value) if isinstance(call.func, cst.Name) else None
            if builder is not None:
                names |= run_time.declared(builder)
        return frozenset(names)

    def summarize(self, state: FileState) -> Any:
        for name, (spelled, line) in lifespans.lifespans(state).items():
            func = self.functions.get(name)
            if func is not None and not func.tool and func.handler is None:
                func.handler, func.handler_line = spelled, line
        wanted = {
            q: f
            for q, f in self.functions.items()
            if f.sites
            or f.calls
            or f.chosen
            or f.tool
            or f.strings
            or f.gives
            or f.names_read
            or (f.bound_sign and (f.bound_sign.signs or f.bound_sign.checks))
        }
        doubles = self._doubles()
        facts = module_scan.module_facts(state, self.registrations, self.opaque, tuple(self.handed))
        # A module that only re-exports (a package's `__init__`) is summarized for its first-party imports.
        top = state.module.split(".")[0]
        targets = [target for _, target in facts.imports] + list(facts.stars)
        reexports = any(target.split(".")[0] == top for target in targets)
        wrappers = _roots_wrappers.opaque(state.wrapper.module) if spells(state, "def ") else {}
        transformed = _fastmcp_forms.transformed(self.transforms, self.defs, state.module)
        runs = frozenset(key for _, keys, *_ in _roots_run_by_name.runs(state) for key in keys)
        mounts = _roots_run_by_name.mounts(state)
        if not (wanted or doubles or facts or reexports or wrappers or transformed or runs or mounts):
            return None
        sdk = bool(state.extra.get("imports_sdk"))
        instances = typed.instances(state, lambda n: _fq(state, n))
        values, stored = run_time.value_uses(state, lambda n: _fq(state, n))
        return Summary(
            state.module,
            state.package_root,
            state.package,
            wanted,
            doubles,
            facts,
            sdk,
            instances,
            values,
            stored,
            wrappers,
            _roots_wrappers.clashes(state),
            self._own_keys(state),
            transformed,
            runs,
            mounts,
            run_time.rebound(state, lambda n: _fq(state, n)),
        )

    def _own_keys(self, state: FileState) -> frozenset[str]:
        """The keys this module's low-level call handlers take out of every call's arguments first."""
        keys: set[str] = set()
        for qualname, func in self.functions.items():
            node = self.defs.get(qualname)
            if node is not None and func.handler is not None and func.handler.endswith(".call_tool"):
                keys |= _roots_absorbed.own_keys(node, lambda n: _module_constant(n, state))
        return frozenset(keys)

    def _doubles(self) -> list[Double]:
        out = []
        for target, pos, value, scopes in self.patches:
            fake = None
            if isinstance(value, cst.Name):
                fake = next(
                    (
                        self.functions[q]
                        for s in scopes
                        if (q := f"{s}.{value.value}".lstrip(".")) in self.functions
                    ),
                    None,
                )
            elif isinstance(value, (cst.Call, cst.Attribute)):
                continue  # a Mock/AsyncMock (any signature) or something this file cannot see: not a fake
            if fake is None:
                out.append(Double(target, pos, None))
            else:
                names = frozenset(n.value for n in _names_in(self.defs[fake.qualname].body))
                out.append(Double(target, pos, fake.qualname, fake.params, fake.kwargs, names))
        return out

    # --- the package plan ----------------------------------------------------------------------------
    @classmethod
    def follow_tokens(cls, summaries: Mapping[str, Any]) -> set[bytes]:
        return _roots_untyped.sdk_tokens(summaries.values())

    @classmethod
    def follow_functions(cls, summaries: Mapping[str, Any], reached: set[str]) -> set[str]:
        return _roots_follow.functions(summaries, reached)

    @classmethod
    def follow_modules(cls, summaries: Mapping[str, Any]) -> set[str]:
        # The first-party modules a file with a roots read imports from: a bound check there (`ensure_within(
        # path, roots)` in `file_access.py`) must be seen, or the roots would become the caller's choice.
        # ... and the module of a project decorator around a function here (`_roots_wrappers`).
        out: set[str] = set()
        for summary in summaries.values():
            if any(f.sites for q, f in summary.functions.items() if q != "<module>"):
                out |= _roots_follow.first_party_imports(summary)
            out |= _roots_wrappers.decorator_modules(summary)
        return out

    @classmethod
    def follow_onward(cls, summaries: Mapping[str, Any]) -> set[str]:
        # `guard.ensure_within`, called by the `files.read_inside` the read hands its result to.
        return {m for summary in summaries.values() for m in _roots_follow.first_party_imports(summary)}

    @classmethod
    def links(cls, summary: Any) -> set[str]:
        # The functions it calls (resolved by Functions in plan_package) and the helpers its test doubles replace.
        calls = {callee for func in summary.functions.values() for callee, _ in func.calls}
        # ... and the functions of other modules it registers as tools (`mcp.tool()(list_roots)`).
        facts = getattr(summary, "facts", None)
        registered = {r.target for r in facts.registrations if r.target} if facts is not None else set()
        return calls | registered | {double.target for double in summary.doubles}

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        return _roots_select.plan(summaries, settings)


class FastmcpListRoots(Rule):
    code = "MR102"
    name = "fastmcp-list-roots"
    summary = (
        "fastmcp `ctx.list_roots()` in a tool (removed in fastmcp 4): rewritten like MR101, list shape kept."
    )
    severity = Severity.BROKEN
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = RootsCall.limits


class RootsOutsideRequest(Rule):
    code = "MR103"
    name = "roots-outside-request"
    summary = "Roots read outside a tool call (startup, handler, captured session): marked for a person."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Never rewritten: no request exists there to carry a path argument. Use server configuration."


class RootsInWrapper(Rule):
    code = "MR104"
    name = "roots-in-wrapper"
    summary = "Roots read in a decorator wrapping tools, or in a tool with a synthesized signature: marked."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "The wrapped tools' signatures are not in the code, so no parameter can be added with certainty."


class RootsNoneVersusEmpty(Rule):
    code = "MR105"
    name = "roots-none-versus-empty"
    summary = (
        "Code that tells 'no roots capability' (None) from 'empty roots list': marked (a security boundary)."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Deciding what a missing path argument means here is a security decision left to a person."


class HelperSignatureChanged(Rule):
    code = "MR107"
    name = "helper-signature-changed"
    summary = "A helper on the way from a tool to roots gained a keyword parameter: callers outside the package may need it."
    severity = Severity.INFO
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Callers outside the files of the run are not seen; fakes of the helper in the run are MR108's."


class TestDoubleSignature(Rule):
    code = "MR108"
    name = "test-double-signature"
    summary = "A test's fake of a helper that gained the path parameter: given the same parameter."
    severity = Severity.INFO
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = (
        "Only doubles in the files of the run (pass your tests folder too: `migrate-roots apply src tests`), "
        "installed with monkeypatch.setattr, setattr or [mock.]patch[.object] and defined in the same file as "
        "a def; lambdas and imported fakes are reported (MR108, info), Mock objects need nothing."
    )


class RootsBound(Rule):
    code = "MR109"
    name = "roots-bound"
    summary = (
        "Roots used as a bound, a checked path argument the roots skip, or roots handed with a path argument to "
        "code migrate-roots cannot read: marked where MR110 cannot take the operator's bound; never turned into "
        "the caller's choice."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    runner = RootsCall
    limits = (
        "Recognised: is_relative_to, relative_to under try, commonpath/commonprefix, a prefix test on a resolved "
        "path, a raise saying 'outside', on the way from the tool to the read or one call away. A bound checked "
        "further away (or spelled otherwise) is not seen; the shim's allow-list variable is the operator's bound."
    )


class RootsBoundOperator(Rule):
    code = "MR110"
    name = "roots-bound-operator"
    summary = (
        "Roots used as a bound: the read takes the operator's allow-list on 2026-07-28 requests, legacy clients "
        "keep their roots; no argument."
    )
    severity = Severity.BROKEN
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = (
        "Only the bounds MR109 recognises, at a read nothing else refuses; a capability check before the read is "
        "kept, so a modern client that declares no roots skips the read and gets the server's old fallback."
    )


class RootsParamClash(Rule):
    code = "MR106"
    name = "roots-param-clash"
    summary = "A helper on the way to roots already has a parameter with the configured name: marked."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Set `param-name` in [tool.migrate-roots] to a free name and run again."


def _sets_signature(node: cst.FunctionDef) -> bool:
    found = False

    class Sets(cst.CSTVisitor):
        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            nonlocal found
            found = found or (
                isinstance(target.target, cst.Attribute) and target.target.attr.value == "__signature__"
            )

    read(node, Sets())
    return found


def _unwrapped_refusal(func: Func, defs: Mapping[str, cst.FunctionDef]) -> tuple[str, str] | None:
    """MR104 for a tool decorated, below its registration, by a decorator of this module that returns a function
    of its own not made with `functools.wraps`: the SDK registers that function and builds the schema from its
    signature, so a parameter added to the tool would never be offered (B's r01)."""
    name, called, _ = (func.under or "").partition("(")
    decorator = defs.get(name)
    if decorator is None:
        return None  # another module's, or a library's: most use `functools.wraps`, which the SDK follows
    inner = _returned_functions(decorator)
    if called:  # `@_guard(tier=...)`: a factory; the decorator is what it returns, the wrapper one level down
        if len(inner) != 1:
            return None
        inner = _returned_functions(inner[0])
    if not inner or any(
        WRAPS.match("@" + cst.Module([]).code_for_node(d.decorator)) for f in inner for d in f.decorators
    ):
        return None
    return (
        "MR104",
        f"`{func.qualname.rpartition('.')[2]}` is decorated by `@{func.under}` below its registration, which returns "
        f"its own function `{inner[0].name.value}` (not made with `functools.wraps`): the SDK registers that one and "
        "builds the inputSchema from its signature, so a path argument added here would never be offered; add it "
        f"to `{inner[0].name.value}` and pass it on, by hand",
    )


def _returned_functions(func: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The functions `func` defines in its body and returns by name."""
    return [s for s in func.body.body if isinstance(s, cst.FunctionDef) and _returns_name(func, s.name.value)]
