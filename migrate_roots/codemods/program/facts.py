"""Records the index extracts from one file: plain, frozen, picklable data (no libcst node)."""

from __future__ import annotations

from dataclasses import dataclass

Pos = tuple[int, int]


@dataclass(frozen=True)
class Registration:
    """A function registered as a tool on a server object the file alone cannot identify.

    `receiver` holds the fully qualified names the object may have (`pkg.server.mcp` for `from .server import
    mcp`, one per star-imported module for a name a star import brings); empty when it is a parameter or an
    attribute whose value the file does not show. `spelling` is the registration as written (`register(app)`,
    `@app.tool`), for the marker that names it."""

    function: str  # qualname of the registered function in this module
    name: str  # the tool's name ('' : the function's own name)
    receiver: tuple[str, ...]
    spelling: str
    pos: Pos
    # The registered function's fully qualified name when it is imported from another module and registered
    # on this module's own server object (`mcp.tool()(list_roots)` after `from .tools.roots import
    # list_roots`); `receiver` is then empty.
    target: str = ""
    # The parameters its `exclude_args=[...]` hides from the schema (`*`: all, the value not a literal list).
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class ModuleFacts:
    """What a module binds at its top level that other modules may import."""

    # Names bound to a server object (a constructor of an SDK server or of a subclass of one).
    servers: frozenset[str] = frozenset()
    # Classes of this module that subclass an SDK server (directly or through another such class).
    server_classes: frozenset[str] = frozenset()
    # Name -> fully qualified name of a constructor it is bound to (`app = MyServer(...)`), for classes
    # defined in other modules of the group.
    instances: tuple[tuple[str, str], ...] = ()
    # Name -> fully qualified name it was imported as (`from ._mcp import mcp`): re-exports to follow.
    imports: tuple[tuple[str, str], ...] = ()
    stars: tuple[str, ...] = ()  # modules star-imported (`from .runtime import *`)
    registrations: tuple[Registration, ...] = ()
    # Tools registered on a server object of this module from a value the rules cannot follow to a function
    # (`mcp.add_tool(method, ...)` in a loop, `mcp.add_tool(getattr(tools, name))`): (spelling, line).
    opaque: tuple[tuple[str, int], ...] = ()
    # Functions of the project handed by name to a call of the project's own code (`register(mcp,
    # resolve=project_root)`): (fully qualified name, the call as written, line). Whoever calls them there is
    # not followed.
    handed: tuple[tuple[str, str, int], ...] = ()
    # Methods of this module's classes that override a method of a project class: (the override, the method
    # it overrides, line). A path argument threaded to the overridden one would reach the override too.
    overrides: tuple[tuple[str, str, int], ...] = ()
    # This module's classes with bases of the project: (the class, (its bases, in order)). A method a class
    # inherits is its base's (`self._check(...)` in `NoteStore(SandboxedStore)`).
    bases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # ... of them, those with more than one base: which method `self.m()` meets depends on the instance's MRO (a
    # mixin beside the base may define it), so calls are not followed through their bases.
    several: frozenset[str] = frozenset()
    # Functions of another module that a low-level dispatch table of this module calls as tools (`HANDLERS =
    # {"where": handle_where}`): (fully qualified name, the tools, the table as written, line).
    dispatched: tuple[tuple[str, str, str, int], ...] = ()
    # Module-level dicts of functions keyed by a string (`HANDLERS = {"where": handle_where}`), which a
    # low-level handler of another module may dispatch on: (name, ((key, the value's qualified name), ...)).
    tables: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # Module-level lists, tuples and sets of names (`ALL_TOOLS = [list_files, grep]`), which another module may
    # register tools from in a loop: (name, (the qualified names of its items, ...)).
    collections: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(
            self.servers
            or self.server_classes
            or self.instances
            or self.registrations
            or self.opaque
            or self.handed
            or self.overrides
            or self.bases
            or self.dispatched
        )
