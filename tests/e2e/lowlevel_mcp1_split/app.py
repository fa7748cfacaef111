"""The server object of the split low-level fixture: its handlers live in server.py, which imports it."""

from mcp.server.lowlevel import Server

server = Server("lowlevel-mcp1-split")
