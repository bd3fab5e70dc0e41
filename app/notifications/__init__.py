"""notifications: the outbox's consumer side (stream worker, history, devices, preferences)."""

# The modules other areas may import (tests/platform/test_architecture.py): the digest run
# (app.insight.digests) writes its e-mails with these.
__all__: tuple = ("digest_mail", "mail", "preferences")
