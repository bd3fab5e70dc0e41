"""The expense chat assistant: sessions, credit admission, the worker, drafters, confirmation."""
