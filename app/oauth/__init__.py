"""The MCP connector's OAuth 2.1 authorization server: clients, the grant chain, tokens."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("access_tokens", "ui", "views")
