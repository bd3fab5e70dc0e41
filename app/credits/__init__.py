"""Credits: the balance that chat messages and receipt scans spend, its monthly allowance,
grants, refunds and the ledger of every move. Chat and receipts both use these names."""
from app.credits.errors import insufficient_credits
from app.credits.service import (ALLOWANCE, GRANT, RECEIPT_SCAN, REFUND, SPEND, CreditsPage,
                                 Standing, credits_page, grant, period_of, refund, reserve,
                                 standing)

__all__ = ["ALLOWANCE", "GRANT", "RECEIPT_SCAN", "REFUND", "SPEND", "CreditsPage", "Standing",
           "credits_page", "grant", "insufficient_credits", "period_of", "refund", "reserve",
           "standing"]
