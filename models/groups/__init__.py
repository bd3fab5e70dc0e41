"""GroupData: one partition per group holding every per-group row kind.

Row kinds share the ``GroupId`` partition and are told apart by the sort-key prefix and the
``EntityType`` discriminator (values are permanent: never rename them). One module per family
of kinds; everything is re-exported here, so ``from models.groups import Expense`` works."""
from models.groups.keys import (BALANCE, CHANGE_PREFIX, COMMENT_SEGMENT, CONVERSION_PREFIX,
                                DELETE_BUCKET, DUE_BUCKET_PREFIX, DUE_BUCKETS, EXPENSE_HEAD_SUFFIX,
                                EXPENSE_PREFIX, IMPORT, IMPORT_CHUNK_PREFIX, INVITE, RATE_CLIENT,
                                RATE_DERIVED, RATE_ECB, RATE_SOURCES,
                                JOINLOCK_PREFIX, JOINREQ_PREFIX, META, NET_PREFIX, PAIR_PREFIX,
                                PARTICIPANT_PREFIX, RECURRING_PREFIX, SETTLEMENT_PREFIX,
                                TRASH_PREFIX, USERMEMBER_PREFIX)
from models.groups.base import (DueRecurringExpensesIndex, ExpenseIdIndex,
                                GroupExpensesIndex, GroupItem,
                                PendingJoinRequestsIndex,
                                UserParticipantsIndex, UserPendingJoinRequestsIndex)
from models.groups.membership import (DefaultShareMap, DefaultSplitMap, Group, GroupStatus,
                                      Invite, JoinLock, JoinRequest, Participant, UserMember)
from models.groups import balance_row
from models.groups.ledger import (BODY_FIELDS, STORED_PARTICIPANT_ID, Balance, Comment,
                                  Conversion, Expense, ExpenseBodyAttributes, ExtraMap, ItemMap,
                                  PaymentMap, Settlement, SplitMap, Trashed)
from models.groups.recurring import ExpenseTemplateMap, RecurringExpense
from models.groups.changes import Change, ChangeKind
from models.groups.imports import ImportChunk, ImportJob
from models.groups.receipts import Receipt
from models.groups.links import LinkCount, ShareLink

__all__ = ["balance_row", "DefaultShareMap", "DefaultSplitMap", "BALANCE", "BODY_FIELDS", "ExpenseBodyAttributes", "STORED_PARTICIPANT_ID", "CHANGE_PREFIX", "Change", "ChangeKind", "COMMENT_SEGMENT", "CONVERSION_PREFIX",
           "Conversion", "RATE_CLIENT", "RATE_DERIVED", "RATE_ECB", "RATE_SOURCES", "DELETE_BUCKET",
           "DUE_BUCKET_PREFIX", "DUE_BUCKETS", "EXPENSE_HEAD_SUFFIX", "EXPENSE_PREFIX", "IMPORT",
           "IMPORT_CHUNK_PREFIX", "INVITE", "JOINLOCK_PREFIX",
           "JOINREQ_PREFIX", "META", "NET_PREFIX", "PAIR_PREFIX", "PARTICIPANT_PREFIX", "RECURRING_PREFIX",
           "SETTLEMENT_PREFIX", "USERMEMBER_PREFIX", "DueRecurringExpensesIndex",
           "ExpenseIdIndex", "GroupExpensesIndex", "GroupItem", "PendingJoinRequestsIndex",
           "UserParticipantsIndex", "UserPendingJoinRequestsIndex", "Group", "GroupStatus", "Invite",
           "JoinLock", "JoinRequest", "Participant", "UserMember", "Balance", "Comment",
           "Expense", "ExtraMap", "ItemMap", "PaymentMap", "Settlement", "SplitMap", "ExpenseTemplateMap",
           "RecurringExpense", "ImportChunk", "ImportJob", "Receipt", "LinkCount", "ShareLink",
           "TRASH_PREFIX", "Trashed"]
