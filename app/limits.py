"""Size limits that schemas document and services enforce, defined once for both."""
from __future__ import annotations

# Distinct participants one expense may name (payers and split members together).
MAX_PARTICIPANTS = 90
# Participants (users and guests) one group may hold. Every roster, balances and settle-up
# read stays one page of one query at this size; adding past it is 409 GROUP_FULL.
MAX_GROUP_PARTICIPANTS = 200
# POST /imports: the formats read (app/imports/parse.py has a parser for each) and
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
# A display name (a user's, a participant's: app.names.validated, app.api.schemas.DisplayName),
# in characters.
MAX_DISPLAY_NAME = 100
# A comment's body, in characters (REST, MCP and an imported thread alike).
MAX_COMMENT_BODY = 2000
# A settlement's note, in characters.
MAX_SETTLEMENT_NOTE = 500
# A rotating key ring's secret (the PAT pepper, the realtime token keys), in bytes.
MIN_SECRET_BYTES = 32
# Claims of one chat message or receipt scan (the receipt's run is chat's: app.receipts.scanning)
# by runs that died mid-way; past it the work fails and its credit is refunded.
MAX_WORK_CLAIMS = 2
# An expense's text fields' limits are declared with its fields, in
# app.ledger.expense_input (TEXT_MAX, ITEM_NAME_MAX).

# A receipt photo (app/receipts, app/receipts/schemas.py): 10 MB at most.
MAX_RECEIPT_BYTES = 10 * 1024 * 1024
# A receipt JPEG's scans (SOS markers), counted before decoding. Decoding costs a pass over
# the picture per scan and a scan can be a dozen bytes, so the scan count, not the file size,
# bounds the work. Cameras and phones write 1 (baseline) or about 10 (libjpeg's default
# progressive script; its scripts stay far under 100); more is TOO_COMPLEX.
MAX_JPEG_SCANS = 100

# The languages every text written for a reader can be in (app/core/i18n.py, GET /locales):
# BCP 47 tags and each language's own name. Each has a catalog under app/locales.
DEFAULT_LOCALE = "en"
LOCALES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español",
           "it": "Italiano", "pt-BR": "Português (Brasil)", "nl": "Nederlands"}
# An expense's extras (tax, tip, service, discount: app.money.extras): how many one expense
# carries, and the characters of each one's name.
MAX_EXTRAS = 10
MAX_EXTRA_NAME = 100
# A participant's household label (balances settle a household as one unit), in characters.
MAX_HOUSEHOLD = 40
# Settle with a person across groups (POST /users/me/people/{userId}/settle): one
# TransactWrite of 100 items holds 4 per group (the settlement, the balance row, the head's
# revision with its guard, the change row), so at most 25 groups; more is TOO_MANY_GROUPS.
MAX_SETTLE_GROUPS = 25
# A deleted expense or settlement stays in the group's trash this long, restorable; then the
# table's TTL purges it (app.ledger.trash; api.md "Archive and trash").
TRASH_KEEP_SECONDS = 30 * 24 * 3600
# A PDF receipt (app/receipts/pdfs.py): its pages are counted before anything is read; an
# e-mailed receipt or an invoice is a page or two, so more than this is TOO_MANY_PAGES.
MAX_PDF_PAGES = 10
# Receipts attached to one expense (photos or PDFs); one more is 409 ATTACHMENT_LIMIT.
MAX_ATTACHMENTS = 5
# Items of one expense body (app/ledger/schemas.py); a receipt draft keeps to it.
MAX_EXPENSE_ITEMS = 50
# Invitations by e-mail (POST /groups/{groupId}/invitations with an address): per group per
# UTC day; one more is 429 RATE_LIMITED. Their links don't count toward the live-link cap.
INVITATION_EMAILS_PER_GROUP_PER_DAY = 20
