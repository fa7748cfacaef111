"""The one module that imports the SDK's names; the others take them from here (a re-export, as in clew),
the server class is the project's own subclass of the SDK's, and so is its context class, whose `list_roots`
the tools call (mcp-use's shape)."""

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.session import ServerSession
from mcp.types import ListRootsResult

__all__ = ["App", "AppContext", "Context", "FastMCP", "ListRootsResult", "ServerSession"]


class AppContext(Context):
    """The project's context: a roots read of its own."""

    async def list_roots(self) -> list:
        result = await self.session.list_roots()
        return result.roots


class App(FastMCP):
    """The project's server class: its instance is a server object like FastMCP's; its tools get AppContext."""

    def get_context(self) -> AppContext:
        try:
            request_context = self._mcp_server.request_context
        except LookupError:
            request_context = None
        return AppContext(request_context=request_context, fastmcp=self)
