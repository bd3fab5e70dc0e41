"""Size limits that schemas document and services enforce, defined once for both."""
from __future__ import annotations

# Distinct participants one expense may name (payers and split members together).
MAX_PARTICIPANTS = 90
# Participants (users and guests) one group may hold. Every roster, balances and settle-up
# read stays one page of one query at this size; adding past it is 409 GROUP_FULL.
MAX_GROUP_PARTICIPANTS = 200
# POST /imports: the formats read (app/services/imports/parse.py has a parser for each) and
# the largest file, in bytes of its UTF-8 text (5 MB).
# Import format -> the app whose export it is (the default group name "Imported from <app>"
# for a file with no name): one table, so a new format cannot lack its default name.
IMPORT_SOURCES = {"splitwise-csv": "Splitwise", "spliit-json": "Spliit", "spliit-csv": "Spliit",
                  "ihatemoney-json": "ihatemoney", "ihatemoney-csv": "ihatemoney",
                  "cospend-csv": "Cospend", "tailspend-json": "TailSpend"}
IMPORT_FORMATS = tuple(IMPORT_SOURCES)
IMPORT_MAX_BYTES = 5 * 1024 * 1024
# POST /groups/{groupId}/reminders: one per sender, recipient and group in this many seconds.
REMINDER_INTERVAL_SECONDS = 24 * 3600
# An expense's text fields (a recurring template's expense part too): the most characters
# each may hold. The REST schemas (app.schemas.expenses) and a chat draft's check
# (app.services.chat.proposals) both read them; description and item names must also be
# non-blank (at least 1 character).
EXPENSE_DESCRIPTION_MAX = 200
EXPENSE_CATEGORY_MAX = 50
EXPENSE_NOTES_MAX = 500
EXPENSE_ITEM_NAME_MAX = 200
EXPENSE_TEXT_MAX = {"description": EXPENSE_DESCRIPTION_MAX, "category": EXPENSE_CATEGORY_MAX,
                    "notes": EXPENSE_NOTES_MAX}

# A receipt photo (app/services/receipts, app/schemas/receipts.py): 10 MB at most.
MAX_RECEIPT_BYTES = 10 * 1024 * 1024
