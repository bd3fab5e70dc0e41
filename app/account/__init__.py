"""Account deletion: a resumable, ordered sweep of everything a user left behind."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
