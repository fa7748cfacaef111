"""The project's registry: it holds the server object it is built with and registers through it."""

from collections import defaultdict

from stamp import stamped

SECTIONS = defaultdict(list)


class ToolRegistry:
    def __init__(self, mcp) -> None:
        self._mcp = mcp

    def section_tool(self, section):
        def decorator(func):
            SECTIONS[section].append(func.__name__)
            return self._mcp.tool(stamped(func))

        return decorator

    def tool(self, func):
        return self._mcp.tool(func)
