"""/health, and local mode's token issuer (/dev/tokens, the JWKS)."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
