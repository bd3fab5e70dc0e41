"""Balances that explain themselves: the reply shapes of a participant's statement (its
service is app.ledger.statement). A package of its own so app/ledger/schemas.py stays one
concept a page."""
