"""The home screen: the caller's groups with role, participant id and net balance.

One query of UserParticipantsIndex (which projects Role and ParticipantId) and one
BatchGetItem of the page's group heads and BALANCE#v1 rows, however many groups; that batch
also reads the caller's profile, the request's liveness check (a second BatchGetItem of one
key on a full page of 50 groups). The head is read, not the balance row's copy of it
(Balance.Name): the page shows the group's revision, which only the head carries."""
from __future__ import annotations

from typing import Optional

from app.core import changelog, paging
from app.ledger import balances
from app.core.access import is_live
from app.core.live import read_live_with
from models.groups import BALANCE, META, Group, GroupItem, Participant

# Two keys per group and BatchGetItem takes 100 keys: at most 50 groups per page keeps a
# page at one BatchGetItem. A larger ?limit= still pages through everything via nextCursor.
MAX_GROUPS_PER_PAGE = 50


def my_groups(user_id: str, *, limit: Optional[int], cursor: Optional[str],
              scope: str, archived: bool = False) -> paging.Page:
    """A page of ``{groupId, name, currency, myRole, myParticipantId, myNet, revision}``
    (the revision comes with the head this page reads anyway).

    Groups being deleted are skipped; archived groups are listed only with ``archived``
    (and then only they). ``myNet`` is the caller's net from BALANCE#v1, folded
    exactly as the balances route folds it, and ``myOtherNets`` their net in each kept
    currency the balances route shows (the same row: no extra read)."""
    page_size = min(paging.clamp_limit(limit), MAX_GROUPS_PER_PAGE)
    rows = Participant.memberships(user_id, limit=page_size,
                                   last_evaluated_key=paging.decode(cursor, scope))
    memberships = list(rows)
    raw = read_live_with(user_id, GroupItem, [key for m in memberships
                                              for key in ((m.GroupId, META),
                                                          (m.GroupId, BALANCE))])
    items = []
    for membership in memberships:
        head_raw = raw.get((membership.GroupId, META))
        head = GroupItem.from_raw_data(head_raw) if head_raw else None
        if not isinstance(head, Group) or not is_live(head) or head.archived != archived:
            continue
        items.append({"groupId": head.GroupId, "name": head.Name, "currency": head.Currency,
                      "myRole": membership.Role, "myParticipantId": membership.ParticipantId,
                      **_nets(raw.get((membership.GroupId, BALANCE)), membership.ParticipantId),
                      "revision": changelog.revision_of(head), "archived": head.archived})
    return paging.Page(items=items, next_cursor=paging.encode(rows.last_evaluated_key, scope))


def _nets(balance_raw: Optional[dict], participant_id: str) -> dict:
    main, other = balances.split_nets(balances.served_nets(balance_raw)[0])
    return {"myNet": main.get(participant_id, 0),
            "myOtherNets": [{"currency": currency, "net": other[currency].get(participant_id, 0)}
                            for currency in sorted(other)]}

