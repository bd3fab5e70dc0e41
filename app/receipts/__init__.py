"""Receipts: a photo attached to an expense, scanned into a draft (docs/receipts.md)."""
