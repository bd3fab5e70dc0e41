"""Participants: the roster, guests, roles and removal.

Every owner add, remove or flip moves the head's OwnerCount in the same TransactWrite, and a
decrement is conditioned on OwnerCount > 1, so concurrent demotions or removals can never
leave a group without an owner. A USER participant's role is mirrored on its USERMEMBER
guard (authorization reads only the guard), so both change together."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from app.errors import ConcurrentUpdate, Forbidden, Invalid, concurrent_update
from app.ledger import households
from app.groups.errors import participant_changed, transfer_in_progress
from app.core import cascades, changelog
from app.groups.errors import participant_referenced
from app.core.access import Access, require_role
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from app.groups.join_requests import cancel_takeovers_of
from app.groups.membership import (GUEST, OWNER, USER, change_counts, change_owner_count,
                                   get_participant, require_live_group, require_still_owner,
                                   reread_head, roster)
from models.groups import (Balance, Conversion, Expense, GroupItem, Participant,
                           RecurringExpense, Settlement, UserMember, CONVERSION_PREFIX,
                           EXPENSE_PREFIX, RECURRING_PREFIX, SETTLEMENT_PREFIX,
                           STORED_PARTICIPANT_ID)

# Rows that can name a participant, with the sort-key prefix that narrows the query to them.
REFERENCING_ROWS = ((EXPENSE_PREFIX, Expense), (SETTLEMENT_PREFIX, Settlement),
                    (RECURRING_PREFIX, RecurringExpense), (CONVERSION_PREFIX, Conversion))
# Stored attribute names that hold a participant id anywhere inside those rows (payments
# and splits store theirs short, settlement sides, recurring templates).
REFERENCE_ATTRIBUTES = frozenset({"ParticipantId", STORED_PARTICIPANT_ID, "PayerId", "PayeeId"})
# Map attributes keyed by participant id (a conversion's kept and converted nets).
REFERENCE_MAPS = frozenset({"KeptNets", "GroupNets"})


def list_participants(access: Access) -> list:
    return roster(access.group_id)


# --- use cases -----------------------------------------------------------------------------

def add_guest(access: Access, *, display_name: str, role: str = "MEMBER") -> Participant:
    """A GUEST participant; its Role is what it will hold once claimed (never OWNER).

    The group's ParticipantCount moves in the same transaction: 409 GROUP_FULL at the cap."""
    participant_id, now = new_id(), now_iso()
    guest = Participant(access.group_id, Participant.sort_key(participant_id),
                        ParticipantId=participant_id, Type=GUEST, DisplayName=display_name,
                        Role=role, CreatedAt=now, UpdatedAt=now)
    tx = Transaction()
    change_counts(tx, access.group, participants=1)
    require_role(tx, access, "MEMBER")
    tx.put(guest, condition=Participant.SK.does_not_exist())
    changelog.record(tx, access.group, guest, changelog.CREATE, actor=access.participant_id)
    tx.commit()
    return guest


# A keyword's default when the caller did not send the field (household: None clears it).
NOT_SENT = object()


def update_participant(access: Access, participant_id: str, *, role: Optional[str] = None,
                       display_name: Optional[str] = None,
                       household: object = NOT_SENT) -> Participant:
    """Change a participant's role, a guest's name and/or the household (OWNER; any
    participant may set their own household).

    A guest cannot be made OWNER (it cannot act, so it must not count as the group's owner);
    a USER's name follows their profile. Role flips to or from OWNER move OwnerCount."""
    if not access.at_least(OWNER) and (participant_id != access.participant_id
                                       or role is not None or display_name is not None):
        raise Forbidden("Only an owner changes others; you may set your own household.")
    target = get_participant(access.group_id, participant_id)
    if display_name is not None and target.Type != GUEST:
        raise Invalid("A user's name follows their profile; only guests are renamed here.",
                      details={"displayName": ["Only a guest's name can be changed."]})
    if role == OWNER and target.Type == GUEST:
        raise Invalid("A guest cannot be an owner until someone claims it.",
                      details={"role": ["Guests may be MEMBER or VIEWER."]})
    new_role = role if role is not None and role != target.Role else None
    label = _household(access, target, household)
    if new_role is None and display_name in (None, target.DisplayName) and label is NOT_SENT:
        return target

    now = now_iso()
    row = Participant(access.group_id, target.SK)
    actions = [Participant.UpdatedAt.set(now)]
    condition = Participant.Type == target.Type
    if display_name is not None:
        actions.append(Participant.DisplayName.set(display_name))
    if label is not NOT_SENT:
        actions += ([Participant.Household.set(label), Participant.HouseholdSetAt.set(now)]
                    if label else [Participant.Household.remove(),
                                   Participant.HouseholdSetAt.remove()])
    tx = Transaction()
    if new_role is not None:
        actions.append(Participant.Role.set(new_role))
        condition &= Participant.Role == target.Role
        if target.Type == USER:
            tx.update(UserMember(access.group_id, UserMember.sort_key(target.UserId)),
                      [UserMember.Role.set(new_role)],
                      condition=UserMember.ParticipantId == participant_id,
                      on_fail=participant_changed())
    tx.update(row, actions, condition=condition, on_fail=participant_changed())
    delta = (new_role == OWNER) - (target.Role == OWNER) if new_role else 0
    if delta:
        change_owner_count(tx, access.group, delta, actor=access.participant_id)
    else:  # a role change moves the roster: money writes read the writer's role from it
        require_live_group(tx, access.group_id, roster_change=new_role is not None)
    if target.UserId != access.user_id:
        # A self-change is already guarded by the participant's own Role condition.
        require_still_owner(tx, access)
    changelog.record(tx, access.group, row, actor=access.participant_id,
                   diff=changelog.diff_of({"role": target.Role, "household": target.Household},
                                          {"role": new_role or target.Role,
                                           "household": target.Household if label is NOT_SENT
                                           else label}))
    tx.commit()

    target.Role = new_role or target.Role
    target.DisplayName = display_name if display_name is not None else target.DisplayName
    if label is not NOT_SENT:
        target.Household, target.HouseholdSetAt = label, now if label else None
    target.UpdatedAt = now
    return target


def set_households(access: Access, changes: Sequence[Tuple[str, Optional[str]]], *,
                   also: Optional[Callable[[Transaction], None]] = None) -> List[Participant]:
    """Set or clear (None) several participants' households in one TransactWrite, by the
    rules of :func:`update_participant` (OWNER, or a participant for their own household;
    the group's spelling of a label); ``also(tx)`` adds the caller's rows (a chat draft's
    saved marker). Returns the participants as they are now (those unchanged as read)."""
    if not access.at_least(OWNER) and any(pid != access.participant_id for pid, _ in changes):
        raise Forbidden("Only an owner changes others; you may set your own household.")
    now, tx, changed = now_iso(), Transaction(), []
    targets = [get_participant(access.group_id, pid) for pid, _ in changes]
    for target, (_, household) in zip(targets, changes, strict=True):
        label = _household(access, target, household)
        if label is NOT_SENT:
            continue
        row = Participant(access.group_id, target.SK)
        tx.update(row, [Participant.UpdatedAt.set(now)] + (
            [Participant.Household.set(label), Participant.HouseholdSetAt.set(now)] if label
            else [Participant.Household.remove(), Participant.HouseholdSetAt.remove()]),
            condition=Participant.Type == target.Type, on_fail=participant_changed())
        changelog.record(tx, access.group, row, actor=access.participant_id,
                         diff=changelog.diff_of({"household": target.Household},
                                                {"household": label}))
        target.Household, target.HouseholdSetAt, target.UpdatedAt = \
            label, now if label else None, now
        changed.append(target)
    require_live_group(tx, access.group_id)
    if any(target.UserId != access.user_id for target in changed):
        require_still_owner(tx, access)
    if also is not None:
        also(tx)
    tx.commit()
    return targets


def _household(access: Access, target: Participant, household: object) -> object:
    """The label to store (the group's spelling of it), None to clear, or NOT_SENT when the
    household does not change."""
    if household is NOT_SENT:
        return NOT_SENT
    if household is None:
        return None if target.Household else NOT_SENT
    label = households.spelled_as_the_group_does(
        roster(access.group_id), households.checked_label(household), target.ParticipantId)
    return NOT_SENT if label == target.Household else label


def remove_participant(access: Access, participant_id: str) -> None:
    """Remove someone (OWNER only) under the referenced / last-owner rules."""
    target = get_participant(access.group_id, participant_id)
    _remove(access, target, actor=None if target.UserId == access.user_id else access)


def leave_group(access: Access) -> None:
    """Remove the caller's own participation under the same rules as a removal."""
    _remove(access, get_participant(access.group_id, access.participant_id), actor=None)


# Removals built anew after losing to a change of the roster or the default split.
REMOVAL_ATTEMPTS = 3


def _remove(access: Access, target: Participant, actor: Optional[Access]) -> None:
    """Remove ``target``; when the commit loses to a roster or default-split change (the
    default must be rewritten from the head as it is now) while ``target`` itself stayed
    as it was, read again and retry."""
    for attempt in range(REMOVAL_ATTEMPTS):
        try:
            _remove_once(access, target, actor)
            break
        except ConcurrentUpdate:
            head = reread_head(access.group)
            if head is None or attempt == REMOVAL_ATTEMPTS - 1:
                raise
            now = get_participant(access.group_id, target.ParticipantId)
            if (now.Type, now.Role, now.UserId) != (target.Type, target.Role, target.UserId):
                raise  # the one asked about changed (a guest claimed meanwhile): say so
            access, target = replace(access, group=head), now
    if target.Type == GUEST:
        cancel_takeovers_of(access.group_id, target.ParticipantId)
        if target.InvitedUserId:  # a reserved guest's invitation goes with it
            cascades.guest_removed(access.group_id, target.InvitedUserId, target.ParticipantId)


def _remove_once(access: Access, target: Participant, actor: Optional[Access]) -> None:
    group_id, participant_id = access.group_id, target.ParticipantId
    if target.TransferTarget:
        raise transfer_in_progress()
    if int(target.IncomingTransfers or 0):
        raise transfer_in_progress("Another participant is being transferred into this one; "
                                   "let that transfer finish.")
    raw_balance = Balance.fetch_raw(group_id)
    revision = Balance.revision_of(raw_balance)
    if holds_a_net(raw_balance, participant_id) or is_referenced(group_id, participant_id):
        raise participant_referenced()
    tx = Transaction()
    tx.delete(Participant(group_id, target.SK),
              condition=((Participant.Type == target.Type) & (Participant.Role == target.Role)
                         & Participant.TransferTarget.does_not_exist()
                         & (Participant.IncomingTransfers.does_not_exist()
                            | (Participant.IncomingTransfers == 0))),
              on_fail=participant_changed())
    if target.Type == USER:
        tx.delete(UserMember(group_id, UserMember.sort_key(target.UserId)))
    change_counts(tx, access.group, participants=-1,
                  owners=-1 if target.Type == USER and target.Role == OWNER else 0,
                  actor=access.participant_id, leaving=participant_id)
    # Every money write bumps BalanceRevision, so an expense or settlement naming this
    # participant that lands after the reference check makes the removal fail, not dangle.
    unchanged = (Balance.BalanceRevision == revision if revision is not None
                 else Balance.BalanceRevision.does_not_exist())
    moved = concurrent_update("The group's money changed meanwhile; try again.")
    if target.Type == USER:  # the same guard, on the write that unfiles the account
        tx.update(Balance(*Balance.key(group_id)), [Balance.unbind_user(participant_id, target.UserId)],
                  condition=unchanged, on_fail=moved)
    else:
        tx.check(Balance, *Balance.key(group_id), condition=unchanged, on_fail=moved)
    if actor is not None:
        require_still_owner(tx, actor)
    changelog.record(tx, access.group, Participant(group_id, target.SK), changelog.DELETE,
                   actor=access.participant_id)
    tx.commit()


def balance_revision(group_id: str) -> Optional[int]:
    return Balance.revision_of(Balance.fetch_raw(group_id))


def holds_a_net(raw_balance: Optional[dict], participant_id: str) -> bool:
    """True if the participant's net is not 0 in the main currency or any kept section."""
    from app.ledger.balances import split_nets

    main, kept = split_nets(Balance.nets_of(raw_balance) if raw_balance else {})
    return bool(main.get(participant_id)) or any(nets.get(participant_id)
                                                 for nets in kept.values())


def is_referenced(group_id: str, participant_id: str, *, page_size: Optional[int] = None) -> bool:
    """True if any expense, settlement, conversion or recurring template names the participant.

    One key-condition query per row kind with an EntityType filter (comments share the
    EXPENSE# prefix); pages whose rows were all filtered out are paged past, not taken as
    the end."""
    return any(participant_id in participant_ids_in(item)
               for prefix, kind in REFERENCING_ROWS
               for item in _raw_rows(group_id, prefix, kind, page_size))


def _raw_rows(group_id: str, prefix: str, kind, page_size: Optional[int]) -> Iterator[dict]:
    for page in GroupItem.raw_pages(group_id, range_key_condition=GroupItem.SK.startswith(prefix),
                                    filter_condition=GroupItem.EntityType == kind,
                                    page_size=page_size):
        yield from page


def participant_ids_in(raw_item: dict) -> set:
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
            if name in REFERENCE_MAPS:
                found.update(value["M"])
            stack.extend(value["M"].items())
        elif "L" in value:
            stack.extend((None, element) for element in value["L"])
    return found
