"""Tiny before/after helpers, in the style of django-upgrade's tests.

`check_transformed(before, after)` runs the whole engine (index, plan, rewrite) on a temporary package that
holds `before` as `server.py` (plus any `extra` files), asserts the rewritten text equals `after`, that the
result parses, has no new undefined or unused names (pyflakes), and that a second run changes nothing.
`check_noop(src)` asserts nothing changes. Both return the findings for further assertions.
"""

from __future__ import annotations

import difflib
import os
import sys
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path

import pyflakes.api
import pyflakes.reporter

from migrate_roots import codemods
from migrate_roots.config import Settings
from migrate_roots.engine import Engine, Options
from migrate_roots.model import FileResult, Finding


class _Collect(pyflakes.reporter.Reporter):
    def __init__(self) -> None:
        self.messages: list[str] = []

    def unexpectedError(self, filename, message):  # noqa: N802 - pyflakes API
        self.messages.append(f"error: {message}")

    def syntaxError(self, filename, msg, lineno, offset, text):  # noqa: N802
        self.messages.append(f"syntax error: {msg} line {lineno}")

    def flake(self, message):
        self.messages.append(str(message).split(":", 2)[-1].strip())


# The smallest roots-using server: one tool that reads the first root (reliability and install tests).
SERVER = (
    "from mcp.server.fastmcp import Context, FastMCP\n"
    "\n"
    'mcp = FastMCP("x")\n'
    "\n"
    "\n"
    "@mcp.tool()\n"
    "async def where(ctx: Context) -> str:\n"
    "    result = await ctx.session.list_roots()\n"
    "    return str(result.roots[0].uri)\n"
)


# A tool whose roots bound what it may touch (MR110: the operator's bound, no argument; report and guide tests).
BOUND_SERVER = """\
import os

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def view(relative: str, ctx: Context) -> str:
    result = await ctx.session.list_roots()
    base = os.path.realpath(result.roots[0].uri.path)
    target = os.path.realpath(os.path.join(base, relative))
    return "denied" if not target.startswith(base + os.sep) else target
"""


def flakes(text: str) -> set[str]:
    reporter = _Collect()
    pyflakes.api.check(text, "server.py", reporter)
    return set(reporter.messages)


def run_engine(
    folder: Path,
    *,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    write: bool = True,
    settings: Mapping[str, object] | None = None,
    jobs: int = 1,
) -> list[FileResult]:
    options = Options(
        # `select` and `ignore` are also what the settings hold (as the CLI does): MR218 marks only when named
        # there, and the plan leaves a read whose code is not selected alone.
        settings=Settings.from_mapping(
            {
                **({"select": list(select)} if select else {}),
                **({"ignore": list(ignore)} if ignore else {}),
                **dict(settings or {}),
            }
        ),
        enabled=codemods.select_codes(select, ignore),
        write=write,
        want_diff=True,
        jobs=jobs,
    )
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return list(Engine(options).run([Path(".")]))
    finally:
        os.chdir(cwd)


def _layout(tmp: Path, before: str, extra: Mapping[str, str] | None, package: bool) -> Path:
    root = tmp / "proj"
    pkg = root / "pkg" if package else root
    pkg.mkdir(parents=True, exist_ok=True)
    if package:
        (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(textwrap.dedent(before))
    for name, text in (extra or {}).items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(textwrap.dedent(text))
    return root


def _findings(results: list[FileResult]) -> list[Finding]:
    return [f for r in results for f in r.findings]


def check_transformed(
    tmp: Path,
    before: str,
    after: str,
    *,
    extra: Mapping[str, str] | None = None,
    extra_after: Mapping[str, str] | None = None,
    package: bool = True,
    **kwargs: object,
) -> list[Finding]:
    root = _layout(tmp, before, extra, package)
    pkg = root / "pkg" if package else root
    old = {p: p.read_text() for p in pkg.rglob("*.py")}
    results = run_engine(root, **kwargs)  # type: ignore[arg-type]
    failed = [r for r in results if r.status.value == "failed"]
    assert not failed, failed
    new_text = (pkg / "server.py").read_text()
    if os.environ.get("MR_SHOW_DIFF") and new_text != textwrap.dedent(after):  # a readable diff when asked
        diff = difflib.unified_diff(textwrap.dedent(after).splitlines(True), new_text.splitlines(True))
        sys.stderr.write("".join(diff))
    assert new_text == textwrap.dedent(after), new_text
    for name, text in (extra_after or {}).items():
        assert (pkg / name).read_text() == textwrap.dedent(text), (pkg / name).read_text()
    for path, text in old.items():
        new = path.read_text()
        old_flakes = flakes(text)
        # Syntax newer than this interpreter (3.12+ on 3.11): pyflakes cannot judge it; libcst re-parsed it.
        if new != text and not any(m.startswith("syntax error") for m in old_flakes):
            introduced = flakes(new) - old_flakes
            assert not introduced, (path.name, introduced)
    snapshot = {p: p.read_bytes() for p in pkg.rglob("*.py")}
    again = run_engine(root, **kwargs)  # type: ignore[arg-type]
    assert {p: p.read_bytes() for p in pkg.rglob("*.py")} == snapshot, "second run changed files"
    assert not [r for r in again if r.status.value == "changed"]
    return _findings(results)


def check_noop(
    tmp: Path, src: str, *, extra: Mapping[str, str] | None = None, **kwargs: object
) -> list[Finding]:
    root = _layout(tmp, src, extra, True)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    results = run_engine(root, **kwargs)  # type: ignore[arg-type]
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before
    return _findings(results)


def codes(findings: Iterable[Finding]) -> list[str]:
    return sorted(f.code for f in findings)


def package(tmp: Path, files: Mapping[str, str]) -> Path:
    """`tmp/proj/pkg/` with an `__init__.py` and `files` (dedented); returns the project folder `tmp/proj`."""
    pkg = tmp / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(textwrap.dedent(text))
    return tmp / "proj"
