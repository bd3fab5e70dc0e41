"""Size limits that schemas document and services enforce, defined once for both."""
from __future__ import annotations

# Distinct participants one expense may name (payers and split members together).
MAX_PARTICIPANTS = 90
# Participants (users and guests) one group may hold. Every roster, balances and settle-up
# read stays one page of one query at this size; adding past it is 409 GROUP_FULL.
MAX_GROUP_PARTICIPANTS = 200
# POST /imports: the formats read (app/services/imports/parse.py has a parser for each) and
# the largest file, in bytes of its UTF-8 text (5 MB).
IMPORT_FORMATS = ("splitwise-csv", "spliit-json", "spliit-csv", "ihatemoney-json",
                  "ihatemoney-csv", "cospend-csv", "tailspend-json")
IMPORT_MAX_BYTES = 5 * 1024 * 1024
# POST /groups/{groupId}/reminders: one per sender, recipient and group in this many seconds.
REMINDER_INTERVAL_SECONDS = 24 * 3600
