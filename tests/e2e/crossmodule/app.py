"""The server object, built in its own module (the tools register on it from another)."""

from sdk import FastMCP

mcp = FastMCP("e2e-crossmodule")
