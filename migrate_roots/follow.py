"""Stage two of the prefilter: the files that import a module holding a roots-reaching function.

Stage one parses the files that hold a trigger token. A tool in `server.py` that reaches roots through
`project_dir` in `workspace.py` holds none: it joins because it *imports* `workspace` (or the function, or a
package that re-exports it), not because it mentions a name. Names were the rule until 2026-12-02, and a server
whose tools are called `find`, `tree` and `where` made a third of a 1,700-file library tree parse (benchmark 2's
everyday-names variant).

Bytes only (no libcst, no `ast`): a substring gate on the targets' last names, then the file's import statements
found by a regex and resolved (relative ones against the file's package) to dotted names. A string holding a
function's full dotted name (`patch("pkg.workspace.project_dir", fake)`) joins too: tests patch by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from migrate_roots.codemods import AnyOf

# `from X import a, b as c` (one line, parenthesised over several, or continued with backslashes) and
# `import a.b as c, d`, at any indentation (imports inside functions and `if TYPE_CHECKING:` count).
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|(?:\\\r?\n|[^\n#;])*)"
    rb"|import[ \t]+((?:\\\r?\n|[^\n#;])+))",
    re.M,
)
_WORD = re.compile(rb"[\w.]+")


def expand(targets: Iterable[str], functions: Iterable[str]) -> set[str]:
    """The dotted names whose import makes a file join: each module of `targets`, each function of
    `functions` (`pkg.workspace.project_dir`), and the function under every package above its module
    (`from pkg import project_dir`, re-exported by `pkg/__init__.py`)."""
    out = set(targets)
    for dotted in functions:
        out.add(dotted)
        module, _, name = dotted.rpartition(".")
        while "." in module:
            module = module.rpartition(".")[0]
            out.add(f"{module}.{name}")
    return out


class Joins:
    """The stage-two test of one round: an import of what reaches roots (`Rule.follow_functions`: dotted
    function names), or a follow token (`Rule.follow_tokens`: names whose mention matters to the plan) in a
    file of the same package scope as the file it came from (`scopes`: of one top-level module name, or of one
    folder for loose modules, as `PackageRefs.plan_refs` compares them). Unscoped, a server whose functions are
    named `find` or `where` made every library file that says so parse."""

    def __init__(
        self,
        tokens: dict[str, set[bytes]],
        reached: set[str],
        wanted: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        self.scoped = {scope: AnyOf(names) for scope, names in tokens.items() if names}
        self.gate = AnyOf({t for names in tokens.values() for t in names}) if self.scoped else None
        modules = {name.rpartition(".")[0] for name in reached}
        self.importers = Importers(expand(modules, reached), reached) if reached else None
        # Modules that join by being what they are (`Rule.follow_modules`): a file whose name is the last part
        # of one is asked its module name (a few stats); no other file is.
        self.wanted = wanted
        self.stems = {name.rpartition(".")[2] for name in wanted} | ({"__init__"} if wanted else set())

    def _is_wanted(self, path: str) -> bool:
        if Path(path).stem not in self.stems:
            return False
        from migrate_roots.engine import package_info

        return package_info(Path(path))[0] in self.wanted

    def test(self, path: str, data: bytes) -> bool:
        if self.wanted and self._is_wanted(path):
            return bool(data.strip())  # an empty `__init__.py` holds nothing to read
        if self.gate is not None and self.gate.search(data):
            for scope in scopes(path):
                names = self.scoped.get(scope)
                if names is not None and names.search(data):
                    return True
        return self.importers is not None and self.importers.matches(path, data)


def scopes(path: str, module: str | None = None) -> list[str]:
    """The package scopes of a file: `t:<top-level module name>`, and `d:<folder>` for a loose module."""
    import os

    if module is None:
        from migrate_roots.engine import package_info

        module = package_info(Path(path))[0]
    out = [f"t:{module.split('.')[0]}"]
    if "." not in module and Path(path).stem != "__init__":
        out.append(f"d:{os.path.dirname(path)}")
    return out


class Importers:
    """`matches(path, data)`: does the file import one of `names` (dotted), or name one of `functions` in full?"""

    def __init__(self, names: set[str], functions: set[str]) -> None:
        self.names = names
        self.functions = AnyOf(f.encode() for f in functions) if functions else None
        # Every matching import statement names a module on the way to a target (`pkg`, `workspace`), but for
        # `from . import project_dir` (a re-export of the file's own package): function names alone (`get`,
        # `run`) would let half of any library through to the import regex.
        modules = {n.rpartition(".")[0] for n in functions}
        parts = {part for module in modules for part in module.split(".") if part}
        self.gate = AnyOf({*(p.encode() for p in parts), b"from . import", b"from .. import"})

    def search(self, data: bytes) -> bool:  # the prefilter's interface, without the path: the gate alone
        return self.gate.search(data)

    def matches(self, path: str, data: bytes) -> bool:
        if not self.gate.search(data):
            return False
        if self.functions is not None and self.functions.search(data):
            return True
        package: str | None = None
        for match in _imports(data):
            source, names, plain = match.groups()
            if plain is not None:
                if any(_dotted_prefixes(name) & self.names for name in _items(plain)):
                    return True
                continue
            if source.startswith(b"."):
                if package is None:
                    package = _package(path)
                base = _relative(source, package)
                if base is None:
                    continue
            else:
                base = source.decode("ascii", "replace")
            if self._names(base, names):
                return True
            if not source.startswith(b"."):
                # A script's bare import of its sibling (`from helper import x` in `pkg/scripts/run.py`, which
                # the plan resolves the same way: `_roots_functions.Functions._resolve_from`).
                if package is None:
                    package = _package(path)
                if package and self._names(f"{package}.{base}", names):
                    return True
        return False

    def _names(self, base: str, names: bytes) -> bool:
        """`from base import names` imports one of `self.names` (the module, or a name of it)."""
        if base in self.names:
            return True
        return any(f"{base}.{name.decode('ascii', 'replace')}" in self.names for name in _items(names))


def _imports(data: bytes) -> Iterator[re.Match[bytes]]:
    """`_IMPORT.finditer(data)`, tried only at the starts of lines that say `import` (every import statement's
    first line does): `^` under MULTILINE makes `re` try every position, ten times slower over a library."""
    end = 0
    at = data.find(b"import")
    while at != -1:
        start = data.rfind(b"\n", 0, at) + 1
        if start >= end:
            match = _IMPORT.match(data, start)
            if match is not None:
                end = match.end()
                yield match
            else:
                end = start + 1  # this line start is tried once
        at = data.find(b"import", max(at + 6, end))


def _items(text: bytes) -> list[bytes]:
    """The imported names of an import list: `(a, b as c)` -> [a, b]."""
    out = []
    for part in text.strip(b"()\\ \t\r\n").replace(b"\\", b" ").split(b","):
        words = _WORD.findall(part)
        if words:
            out.append(words[0])
    return out


def _dotted_prefixes(name: bytes) -> set[str]:
    """`import a.b.c` binds `a` and imports a, a.b and a.b.c."""
    parts = name.decode("ascii", "replace").split(".")
    return {".".join(parts[: i + 1]) for i in range(len(parts))}


def _package(path: str) -> str:
    from migrate_roots.engine import package_info

    return package_info(Path(path))[1]


def _relative(source: bytes, package: str) -> str | None:
    """`..mod` from package `a.b.c` -> `a.b.mod` (None: above the top-level package)."""
    text = source.decode("ascii", "replace")
    rest = text.lstrip(".")
    level = len(text) - len(rest)
    parts = package.split(".") if package else []
    if level - 1 > len(parts) or (level - 1 == len(parts) and not rest):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, rest] if rest else base)
