"""people"""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("invitation_rows", "my_expenses", "people_balances", "schemas")
