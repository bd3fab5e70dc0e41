"""Share links: take part in one group as one guest without an account (docs/share-links.md)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("links", "sessions")
