"""A fastmcp 2.x/3.x server, before migration: its tools are methods of an `MCPMixin`, registered by fastmcp's
own `@mcp_tool` and `register_all` (rsp2k/mcp-arduino-server's shape)."""

from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP
from fastmcp.contrib import mcp_mixin
from fastmcp.contrib.mcp_mixin import MCPMixin, mcp_tool
from fastmcp.server.dependencies import get_context


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


class Places(MCPMixin):
    @mcp_tool(name="where")
    async def project(self, ctx: Context) -> str:
        """The project directory."""
        roots = await ctx.list_roots()
        return _path(roots[0].uri)

    @mcp_mixin.mcp_tool(description="Every shared directory (no ctx parameter: get_context()).")
    async def where_all(self) -> str:
        roots = await get_context().list_roots()
        return "\n".join(_path(r.uri) for r in roots)

    @mcp_tool()
    def echo(self, text: str) -> str:
        """Untouched by the migration."""
        return text


mcp = FastMCP("e2e-fastmcp-mixin")
Places().register_all(mcp_server=mcp)

if __name__ == "__main__":
    mcp.run(show_banner=False)
