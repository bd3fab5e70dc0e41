"""Live updates (docs/realtime.md): the short-lived subscribe token, channel authorization,
the pokes a committed change publishes, and the publisher's transports."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
