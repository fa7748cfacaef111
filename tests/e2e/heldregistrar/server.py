"""A fastmcp 2.x/3.x server whose tools register through a method of the project's registry object, and
read roots through helpers that take no context (tests/test_registrar_classes_e2e.py)."""

import seeds
from fastmcp import FastMCP
from registry import ToolRegistry

mcp = FastMCP("e2e-held-registrar")
registry = ToolRegistry(mcp)
section_tool = registry.section_tool


@section_tool("files")
async def where() -> str:
    """The shared directories, as one seed."""
    return await seeds.session_seed()


@registry.section_tool("files")
async def profile(name: str | None = None) -> str:
    """The profile folder: the named one, else one named after the client's directories."""
    return str(await seeds.profile_dir(name))


@registry.tool
def plain() -> str:
    """A tool that takes no directory."""
    return "plain"


if __name__ == "__main__":
    mcp.run()
