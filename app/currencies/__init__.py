"""Reference exchange rates (ECB): lookups for conversions and GET /fx/rates, and the daily fetch."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("rates",)
