"""The one module that imports the SDK's names; the others take them from here (a re-export, as in clew)."""

from mcp.server.fastmcp import Context, FastMCP

__all__ = ["Context", "FastMCP"]
