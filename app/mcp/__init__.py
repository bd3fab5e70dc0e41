"""Mcp."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
