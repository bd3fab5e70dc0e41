"""Insight and getting paid: payment methods and pay links, expense search, stats."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("schemas", "settle_with_person", "stats", "views")
