"""Authentication: bearer tokens -> a Principal (who is calling, with which credential)."""
