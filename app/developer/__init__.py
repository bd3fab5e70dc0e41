"""Developer platform: personal access tokens, scopes, usage, daily budgets and rate limits."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ('gate', 'pepper', 'usage')
