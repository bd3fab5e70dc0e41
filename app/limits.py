"""Size limits that schemas document and services enforce, defined once for both."""
from __future__ import annotations

# Distinct participants one expense may name (payers and split members together).
MAX_PARTICIPANTS = 90
# Participants (users and guests) one group may hold. Every roster, balances and settle-up
# read stays one page of one query at this size; adding past it is 409 GROUP_FULL.
MAX_GROUP_PARTICIPANTS = 200
