"""notifications: the outbox's consumer side (stream worker, history, devices, preferences)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
