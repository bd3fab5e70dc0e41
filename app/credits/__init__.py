"""Credits: the balance that chat messages and receipt scans spend, its monthly allowance,
grants, refunds and the ledger of every move. Chat and receipts both use these names."""

# The modules other areas may import (tests/platform/test_architecture.py): the service, which
# also hands on insufficient_credits, and the errors.
__all__ = ("errors", "service")
