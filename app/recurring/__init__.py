"""recurring: templates and the hourly tick that materialises their occurrences."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("schedule", "schemas", "templates")
