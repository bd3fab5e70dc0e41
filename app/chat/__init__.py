"""The expense chat assistant: sessions, credit admission, the worker, drafters, confirmation."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("proposals", "worker")
