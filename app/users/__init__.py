"""Users: profiles and identities, provisioning, local sign-in, the rename's roster mirror."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("directory_rows", "local_auth", "profiles", "schemas", "views")
