"""GroupData sort-key prefixes and index bucket names: the only place they are spelled."""
from __future__ import annotations


# Sort-key prefixes (the only place they are spelled).
META = "META"
INVITE = "INVITE"
JOINREQ_PREFIX = "JOINREQ#"
JOINLOCK_PREFIX = "JOINLOCK#"
PARTICIPANT_PREFIX = "PARTICIPANT#"
USERMEMBER_PREFIX = "USERMEMBER#"
EXPENSE_PREFIX = "EXPENSE#"
EXPENSE_HEAD_SUFFIX = "#0#META"
COMMENT_SEGMENT = "#1#COMMENT#"
RECURRING_PREFIX = "RECURRING#"
SETTLEMENT_PREFIX = "SETTLEMENT#"
CONVERSION_PREFIX = "CONVERSION#"
# A money row's place in its accounts' cross-group projection (models/users/mine.py): a kind
# letter, then date, creation and id (``projected_sort`` of Expense, Settlement, Conversion).
PROJECTED_EXPENSE, PROJECTED_SETTLEMENT, PROJECTED_CONVERSION = "E#", "S#", "C#"
TRASH_PREFIX = "TRASH#"
# Where a converted row's rate came from (RateSource): the client, derived from the
# groupAmount it sent, or the ECB reference rate of its date.
RATE_CLIENT, RATE_DERIVED, RATE_ECB = "CLIENT", "DERIVED", "ECB"
RATE_SOURCES = (RATE_CLIENT, RATE_DERIVED, RATE_ECB)
BALANCE = "BALANCE#v1"
CHANGE_PREFIX = "CHANGE#"
# The balance row's first layout, still read (and moved onto seats by the next write):
# ``Net_<ledger key>``; ``Pair_<low>#<high>`` (main currency) or ``Pair_<CUR>#<low>#<high>``
# (a kept one), what the lower id owes the higher; ``Round_<ledger key>``, a FAIR group's
# cumulative rounding as an exact fraction ("-1/3"). The layout since: models.groups.balance_row.
NET_PREFIX = "Net_"
PAIR_PREFIX = "Pair_"
ROUND_PREFIX = "Round_"
# An import's status row and the chunks of its staged file (in the new group's partition).
IMPORT = "IMPORT"
IMPORT_CHUNK_PREFIX = "IMPORT#CHUNK#"
# Active recurring templates are spread over DUE_BUCKETS index partitions ("RECURRING#<n>",
# n from a hash of GroupId): one group stays in one bucket, so its occurrences stay serial.
# 128 serial workers at ~59 ms per occurrence record 1M occurrences in ~8 minutes.
DUE_BUCKET_PREFIX = "RECURRING#"
DUE_BUCKETS = 128
# Group heads whose delete sweep is unfinished share the due index under their own bucket,
# so the maintenance job finds them with one query instead of a table scan.
DELETE_BUCKET = "GROUP_DELETE"
# RUNNING imports, by when they are past any run's lease and the queue's redeliveries
# (NextRunAt): the maintenance job fails the overdue ones with one query.
IMPORT_BUCKET = "IMPORT_RUNNING"
# A receipt photo's status row (app/receipts); its objects live in the receipts
# bucket under the group and receipt ids only.
RECEIPT_PREFIX = "RECEIPT#"
# Share links (models/groups/links.py) and the group's count of live ones.
LINK_PREFIX = "LINK#"
LINK_COUNT = "LINKCOUNT"
