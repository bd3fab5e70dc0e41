"""Insight and getting paid: payment methods and pay links, expense search, stats, digests."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("digests", "schemas", "settle_with_person", "stats", "views")
