"""Exact integer money arithmetic: split resolution and settle-up plans."""
