"""users"""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("directory_rows", "local_auth", "profiles", "schemas", "views")
