"""Groups: the group, its participants and roles, transfers, invite links, join requests, delete,
and home (/users/me/groups)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("codes", "departure", "groups", "home", "membership", "participants", "schemas",
           "views")
