"""The balances route's replies (schemas.py), apart from app.ledger.schemas for its size."""
