"""The ledger: expenses (one ExpenseInput in, one body stored), comments, settlements, balances
per currency with their settle-up plan and payTo links, conversions."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__ = ("balance_replies", "balances", "comments", "default_split", "explained",
           "expense_body", "expense_build", "expense_delete", "expense_input", "expense_search",
           "expenses", "foreign_currency", "guards", "households", "pay_links", "rounding",
           "schemas", "settlements", "statement", "views")
