"""The one module that imports the SDK's names; the others take them from here (a re-export, as in clew), and
the server class is the project's own subclass of the SDK's."""

from mcp.server.fastmcp import Context, FastMCP

__all__ = ["App", "Context", "FastMCP"]


class App(FastMCP):
    """The project's server class: its instance is a server object like FastMCP's."""
