"""Participants: the roster, guests, roles and removal.

Every owner add, remove or flip moves the head's OwnerCount in the same TransactWrite, and a
decrement is conditioned on OwnerCount > 1, so concurrent demotions or removals can never
leave a group without an owner. A USER participant's role is mirrored on its USERMEMBER
guard (authorization reads only the guard), so both change together."""
from __future__ import annotations

from typing import Iterator, Optional

from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.services.access import Access, group_not_found
from app.services.clock import new_id, now_iso
from app.services.transactions import Transaction
from models.groups import (Balance, Expense, Group, GroupItem, Participant, RecurringExpense,
                           Settlement, UserMember, EXPENSE_PREFIX, RECURRING_PREFIX,
                           SETTLEMENT_PREFIX)

OWNER, USER, GUEST = "OWNER", "USER", "GUEST"
# Rows that can name a participant, with the sort-key prefix that narrows the query to them.
REFERENCING_ROWS = ((EXPENSE_PREFIX, Expense), (SETTLEMENT_PREFIX, Settlement),
                    (RECURRING_PREFIX, RecurringExpense))
# Attribute names that hold a participant id anywhere inside those rows (payments, splits,
# settlement sides, recurring templates).
REFERENCE_ATTRIBUTES = frozenset({"ParticipantId", "PayerId", "PayeeId"})


def participant_view(row: Participant) -> dict:
    view = {"participantId": row.ParticipantId, "type": row.Type,
            "displayName": row.DisplayName, "role": row.Role}
    if row.UserId:
        view["userId"] = row.UserId
    if row.ClaimedAt:
        view["claimedAt"] = row.ClaimedAt
    return view


def last_owner() -> Conflict:
    return Conflict("A group needs at least one owner; make someone else an owner first.",
                    code="LAST_OWNER")


def changed_meanwhile() -> Conflict:
    return Conflict("The participant changed meanwhile; reload and try again.",
                    code="CONCURRENT_UPDATE")


def roster(group_id: str) -> list:
    """Every participant of a group (consistent read: the roster guards money writes)."""
    return list(Participant.roster(group_id, consistent_read=True))


def list_participants(access: Access) -> list:
    return [participant_view(p) for p in roster(access.group_id)]


def get_participant(group_id: str, participant_id: str) -> Participant:
    """The participant of this group, or NotFound."""
    try:
        return Participant.get(group_id, Participant.sort_key(participant_id),
                               consistent_read=True)
    except Participant.DoesNotExist:
        raise NotFound("Participant not found.") from None


# --- transaction parts shared by every membership change -----------------------------------

def require_live_group(tx: Transaction, group_id: str) -> None:
    """The group must still be ACTIVE when ``tx`` commits (a delete may be under way)."""
    tx.check(Group, *Group.key(group_id), condition=Group.Status == "ACTIVE",
             on_fail=group_not_found())


def require_still_owner(tx: Transaction, access: Access) -> None:
    """The caller must still be an OWNER when ``tx`` commits, not only when authorized."""
    tx.check(UserMember, access.group_id, UserMember.sort_key(access.user_id),
             condition=UserMember.Role == OWNER,
             on_fail=Forbidden("This needs the OWNER role in the group."))


def count_owners(group_id: str) -> int:
    return sum(1 for p in roster(group_id) if p.Type == USER and p.Role == OWNER)


def change_owner_count(tx: Transaction, group: Group, delta: int) -> None:
    """Move the head's OwnerCount by ``delta`` in ``tx``; a decrement must leave an owner.

    Groups that predate OwnerCount are seeded from a roster count through if_not_exists,
    so their first owner mutation heals them; a concurrent healer then sees the attribute
    and its own ``OwnerCount > 1`` guard decides."""
    if group.OwnerCount is not None:
        action = Group.OwnerCount.add(delta)
        floor = Group.OwnerCount > 1
    else:
        count = count_owners(group.GroupId)
        if count + delta < 1:
            raise last_owner()
        action = Group.OwnerCount.set((Group.OwnerCount | count) + delta)
        floor = Group.OwnerCount.does_not_exist() | (Group.OwnerCount > 1)
    live = Group.Status == "ACTIVE"
    tx.update(Group(*Group.key(group.GroupId)), [action],
              condition=(live & floor) if delta < 0 else live,
              on_fail=last_owner() if delta < 0 else group_not_found())


# --- use cases -----------------------------------------------------------------------------

def add_guest(access: Access, *, display_name: str, role: str = "MEMBER") -> dict:
    """A GUEST participant; its Role is what it will hold once claimed (never OWNER)."""
    participant_id, now = new_id(), now_iso()
    guest = Participant(access.group_id, Participant.sort_key(participant_id),
                        ParticipantId=participant_id, Type=GUEST, DisplayName=display_name,
                        Role=role, CreatedAt=now, UpdatedAt=now)
    tx = Transaction()
    tx.check(Group, *Group.key(access.group_id), condition=Group.Status == "ACTIVE",
             on_fail=group_not_found())
    tx.put(guest, condition=Participant.SK.does_not_exist())
    tx.commit()
    return participant_view(guest)


def update_participant(access: Access, participant_id: str, *, role: Optional[str] = None,
                       display_name: Optional[str] = None) -> dict:
    """Change a participant's role and/or a guest's name (OWNER only).

    A guest cannot be made OWNER (it cannot act, so it must not count as the group's owner);
    a USER's name follows their profile. Role flips to or from OWNER move OwnerCount."""
    target = get_participant(access.group_id, participant_id)
    if display_name is not None and target.Type != GUEST:
        raise Invalid("A user's name follows their profile; only guests are renamed here.",
                      details={"displayName": ["Only a guest's name can be changed."]})
    if role == OWNER and target.Type == GUEST:
        raise Invalid("A guest cannot be an owner until someone claims it.",
                      details={"role": ["Guests may be MEMBER or VIEWER."]})
    new_role = role if role is not None and role != target.Role else None
    if new_role is None and display_name in (None, target.DisplayName):
        return participant_view(target)

    now = now_iso()
    row = Participant(access.group_id, target.SK)
    actions = [Participant.UpdatedAt.set(now)]
    condition = Participant.Type == target.Type
    if display_name is not None:
        actions.append(Participant.DisplayName.set(display_name))
    tx = Transaction()
    if new_role is not None:
        actions.append(Participant.Role.set(new_role))
        condition &= Participant.Role == target.Role
        if target.Type == USER:
            tx.update(UserMember(access.group_id, UserMember.sort_key(target.UserId)),
                      [UserMember.Role.set(new_role)],
                      condition=UserMember.ParticipantId == participant_id,
                      on_fail=changed_meanwhile())
    tx.update(row, actions, condition=condition, on_fail=changed_meanwhile())
    delta = (new_role == OWNER) - (target.Role == OWNER) if new_role else 0
    if delta:
        change_owner_count(tx, access.group, delta)
    else:
        require_live_group(tx, access.group_id)
    if target.UserId != access.user_id:
        # A self-change is already guarded by the participant's own Role condition.
        require_still_owner(tx, access)
    tx.commit()

    target.Role = new_role or target.Role
    target.DisplayName = display_name if display_name is not None else target.DisplayName
    target.UpdatedAt = now
    return participant_view(target)


def remove_participant(access: Access, participant_id: str) -> None:
    """Remove someone (OWNER only) under the referenced / last-owner rules."""
    target = get_participant(access.group_id, participant_id)
    _remove(access, target, actor=None if target.UserId == access.user_id else access)


def leave_group(access: Access) -> None:
    """Remove the caller's own participation under the same rules as a removal."""
    _remove(access, get_participant(access.group_id, access.participant_id), actor=None)


def _remove(access: Access, target: Participant, actor: Optional[Access]) -> None:
    group_id, participant_id = access.group_id, target.ParticipantId
    if target.TransferTarget:
        raise Conflict("This participant is being transferred; let the transfer finish.",
                       code="TRANSFER_IN_PROGRESS")
    revision = balance_revision(group_id)
    if is_referenced(group_id, participant_id):
        raise Conflict("Expenses, settlements or recurring expenses name this participant; "
                       "transfer or remove them first.", code="PARTICIPANT_REFERENCED")
    tx = Transaction()
    tx.delete(Participant(group_id, target.SK),
              condition=((Participant.Type == target.Type) & (Participant.Role == target.Role)
                         & Participant.TransferTarget.does_not_exist()),
              on_fail=changed_meanwhile())
    if target.Type == USER:
        tx.delete(UserMember(group_id, UserMember.sort_key(target.UserId)))
    if target.Type == USER and target.Role == OWNER:
        change_owner_count(tx, access.group, -1)
    else:
        require_live_group(tx, group_id)
    # Every money write bumps BalanceRevision, so an expense or settlement naming this
    # participant that lands after the reference check makes the removal fail, not dangle.
    tx.check(Balance, *Balance.key(group_id),
             condition=(Balance.BalanceRevision == revision if revision is not None
                        else Balance.BalanceRevision.does_not_exist()),
             on_fail=Conflict("The group's money changed meanwhile; try again.",
                              code="CONCURRENT_UPDATE"))
    if actor is not None:
        require_still_owner(tx, actor)
    tx.commit()
    if target.Type == GUEST:
        # Imported here: join_requests builds on this module (participant views, guards).
        from app.services.join_requests import cancel_takeovers_of
        cancel_takeovers_of(group_id, participant_id)


def balance_revision(group_id: str) -> Optional[int]:
    raw = Balance.fetch_raw(group_id) or {}
    value = raw.get("BalanceRevision")
    return int(value["N"]) if value else None


def is_referenced(group_id: str, participant_id: str, *, page_size: Optional[int] = None) -> bool:
    """True if any expense, settlement or recurring template names the participant.

    One key-condition query per row kind with an EntityType filter (comments share the
    EXPENSE# prefix); pages whose rows were all filtered out are paged past, not taken as
    the end."""
    return any(participant_id in _participant_ids(item)
               for prefix, kind in REFERENCING_ROWS
               for item in _raw_rows(group_id, prefix, kind, page_size))


def _raw_rows(group_id: str, prefix: str, kind, page_size: Optional[int]) -> Iterator[dict]:
    connection = GroupItem._get_connection()
    start = None
    while True:
        page = connection.query(group_id, range_key_condition=GroupItem.SK.startswith(prefix),
                                filter_condition=GroupItem.EntityType == kind,
                                consistent_read=True, exclusive_start_key=start,
                                limit=page_size)
        yield from page.get("Items", [])
        start = page.get("LastEvaluatedKey")
        if not start:
            return


def _participant_ids(raw_item: dict) -> set:
    """Every participant id inside a raw (DynamoDB-JSON) item, at any depth.

    Walking the raw item rather than model fields keeps the check right whatever shape a
    payment, split or template takes, as long as it names ids by these attribute names."""
    found: set = set()
    stack = list(raw_item.items())
    while stack:
        name, value = stack.pop()
        if "S" in value:
            if name in REFERENCE_ATTRIBUTES:
                found.add(value["S"])
        elif "M" in value:
            stack.extend(value["M"].items())
        elif "L" in value:
            stack.extend((None, element) for element in value["L"])
    return found
