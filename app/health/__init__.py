"""Health."""
