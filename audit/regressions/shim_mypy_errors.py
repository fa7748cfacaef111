# Regression: the compatibility module that `apply` writes (`_mcp_roots_compat.py`) brings NEW mypy errors
# into a package that type-checked before.
#
# Found on: codex-in-claude 0.24.0 (mcp 2.2.0: 3 new errors) and bees-md 0.9.1 (mcp 1.30.0: 4 new errors), with
# the audit's lenient config (ignore_missing_imports, follow_imports=silent); every migrated package gets them.
# Reproduce: save as pkg/server.py, `migrate-roots apply pkg`, then `mypy --ignore-missing-imports pkg` in a
# venv with mcp installed (and mypy). New errors, all in pkg/_mcp_roots_compat.py:
#   - `Variable "pkg._mcp_roots_compat.RootsArgumentError" is not valid as a type  [valid-type]`, twice: the
#     class is built with `RootsArgumentError: type[Exception] = type("RootsArgumentError", bases, {...})` and
#     then used as the return annotation of `_fail()` and `_missing()`.
#   - `Argument "uri" to "Root" has incompatible type "str"; expected "FileUrl"  [arg-type]`:
#     `types.Root(uri=path_to_uri(p))` (pydantic accepts the str at run time; the declared type is FileUrl).
#   - mcp 1.x only: `Module "mcp" has no attribute "MCPDeprecationWarning"  [attr-defined]` on the
#     `from mcp import MCPDeprecationWarning` inside `try/except ImportError`.
# Expected: the shim type-checks cleanly under mypy (and pyright) against every supported SDK line, e.g. a real
# `class RootsArgumentError(*_tool_error_bases())` or annotations `-> Exception`, `FileUrl(...)` or a cast,
# and `# type: ignore[attr-defined]` on the version-dependent import.
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri) if result.roots else "none"
