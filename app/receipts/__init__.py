"""Receipts: a photo attached to an expense, scanned into a draft (docs/receipts.md)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("cleanup", "schemas", "uploads", "views")
