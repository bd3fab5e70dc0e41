"""notifications: the outbox's consumer side (stream worker, history, devices, preferences)."""
