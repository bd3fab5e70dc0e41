"""The MCP server: JSON-RPC over POST /mcp, the tool registry and the tools, each standing for a
REST route (its OAuth server is app.oauth)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
