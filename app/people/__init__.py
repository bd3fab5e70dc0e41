"""People: handles and the directory search, friends, direct invitations into guest slots, and
what I share across groups (/users/me/people)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("invitation_rows", "my_expenses", "people_balances", "schemas", "shared_groups")
