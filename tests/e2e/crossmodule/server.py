"""The entry point: the server object comes from `app`, its tools from `tools` (mcp 1.x FastMCP)."""

import guarded  # noqa: F401  (registers its tools)
import held  # noqa: F401  (registers its tool)
import shared  # noqa: F401  (registers its tools)
import tools  # noqa: F401  (registers the tools)
import typed  # noqa: F401  (registers its tools)
from app import mcp

if __name__ == "__main__":
    mcp.run()
