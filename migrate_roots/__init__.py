"""migrate-roots: move MCP servers off the deprecated roots feature onto explicit path arguments."""

__version__ = "0.1.0"
