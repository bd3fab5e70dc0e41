"""Groups: create, read, rename, change currency."""
from __future__ import annotations

from typing import Any, Optional

from app.errors import DomainError, concurrent_update, group_not_found, id_collision
from app.groups.errors import currency_locked
from app.core import changelog
from app.core.access import Access
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from app.groups.codes import new_invite_code
from app.ledger.default_split import stored as stored_default
from app.ledger import rounding
from app.users.profiles import get_profile
from models.groups import Balance, Group, GroupStatus, Invite, Participant, UserMember, balance_row


def create_group(user_id: str, *, name: str, currency: str) -> Access:
    """One TransactWrite: head (OwnerCount 1, ParticipantCount 1), invite, the creator as
    OWNER, guard, balance."""
    group_id, participant_id, now = new_id(), new_id(), now_iso()
    profile = get_profile(user_id)
    head = Group(*Group.key(group_id), Name=name, Currency=currency, CreatedBy=user_id,
                 OwnerCount=1, ParticipantCount=1, Status=GroupStatus.ACTIVE, Revision=0, CreatedAt=now,
                 UpdatedAt=now)
    invite = Invite(*Invite.key(group_id), Enabled=True, Code=new_invite_code(),
                    DefaultRole="MEMBER", CreatedAt=now, UpdatedAt=now)
    owner = Participant(group_id, Participant.sort_key(participant_id),
                        ParticipantId=participant_id, Type="USER", UserId=user_id,
                        DisplayName=profile.DisplayName, Role="OWNER", ClaimedAt=now,
                        CreatedAt=now, UpdatedAt=now)
    guard = UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=participant_id,
                       Role="OWNER", CreatedAt=now)
    balance = Balance(*Balance.key(group_id), BalanceRevision=0, Initialized=True,
                      ExpenseCount=0, SettlementCount=0, CreatedAt=now,
                      Users={Balance.user_pair(participant_id, user_id)},
                      Name=name, Currency=currency)  # the head copy (Balance.Name)
    collision = id_collision()
    tx = Transaction().require_live_account(user_id)
    for row in (head, invite, owner, guard, balance):
        tx.put(row, condition=type(row).SK.does_not_exist(), on_fail=collision)
    for row in (head, owner):
        changelog.record(tx, head, row, changelog.CREATE, actor=participant_id)
    tx.commit()
    return Access(group=head, user_id=user_id, participant_id=participant_id, role="OWNER")


# ``default_split`` of update_group when the PATCH did not send it (None clears it).
NOT_SENT: Any = object()


def update_group(access: Access, *, name: Optional[str] = None,
                 currency: Optional[str] = None, default_split: Any = NOT_SENT,
                 simplify_debts: Optional[bool] = None,
                 rounding_mode: Optional[str] = None) -> Access:
    """Rename, change the currency (OWNER; only while no money is recorded), set or clear the
    default split (``{"splitMode", "splits"}`` as the API names them, or None);
    ``simplify_debts`` picks the default balances view (copied onto the balance row);
    ``rounding_mode`` LIST_ORDER or FAIR: turning FAIR on writes every participant's
    cumulative rounding, computed from the group's expenses, onto the balance row in the
    same transaction, conditioned on the balance revision it read.

    The money check is a condition on BALANCE#v1 in the same TransactWrite as the head
    update, so an expense created concurrently either lands first (409) or after the change.
    That TransactWrite also writes the balance row's copy of the name and currency. A default
    split names roster participants: read once after the head, and the head update
    conditions on the roster version that read saw. Setting or clearing the default moves
    that version, as a roster change does: a removal rewrites the default it read in its
    own TransactWrite, held by that version (app.groups.membership.default_without)."""
    group = access.group
    new_currency = currency if currency is not None and currency != group.Currency else None
    turning_fair = rounding_mode == rounding.FAIR and not rounding.is_fair(group)
    if rounding_mode == (group.Rounding or rounding.LIST_ORDER):
        rounding_mode = None
    if name is None and new_currency is None and default_split is NOT_SENT and \
            simplify_debts is None and rounding_mode is None:
        return access
    now = now_iso()
    actions = [Group.UpdatedAt.set(now)]
    if name is not None:
        actions.append(Group.Name.set(name))
    new_default = None
    if default_split is not None and default_split is not NOT_SENT:
        roster = [p.ParticipantId for p in Participant.roster(group.GroupId,
                                                              consistent_read=True)]
        new_default = stored_default(
            default_split["splitMode"],
            [(s["participantId"], s.get("value")) for s in default_split["splits"]], roster)
        actions += [Group.DefaultSplit.set(new_default), Group.roster_bump()]
    elif default_split is None:
        actions += [Group.DefaultSplit.remove(), Group.roster_bump()]
    tx = Transaction()
    # The balance row's head copy moves with the head (Balance.Name): one item, so the money
    # check of a currency change is that update's condition.
    copy = Balance.copy_head(name if name is not None else group.Name,
                             new_currency or group.Currency)
    if simplify_debts is not None:
        actions.append(Group.SimplifyDebts.set(simplify_debts))
        copy.append(Balance.SimplifyDebts.set(simplify_debts))
    balance_condition = None
    if rounding_mode is not None:
        actions.append(Group.Rounding.set(rounding_mode))
    if turning_fair:
        raw = Balance.fetch_raw(group.GroupId)
        written = balance_row.encode(raw, rounding=rounding.changes(
            rounding.stored(raw), rounding.recompute(group.GroupId, group.Currency)))
        copy += written.actions
        # Pinned to the revision read, so seats appended with the rounding are the row's too.
        balance_condition = Balance.BalanceRevision == (Balance.revision_of(raw) or 0)
        if written.condition is not None:
            balance_condition &= written.condition
    if new_currency is not None:
        actions.append(Group.Currency.set(new_currency))
        tx.update(Balance(*Balance.key(group.GroupId)), copy,
                  condition=(Balance.ExpenseCount == 0) & (Balance.SettlementCount == 0),
                  on_fail=currency_locked())
    else:
        tx.update(Balance(*Balance.key(group.GroupId)), copy, condition=balance_condition,
                  on_fail=None if balance_condition is None else concurrent_update(
                      "An expense was written meanwhile; try again."))
    # The copy is whole, so the field this write leaves must still be what it copies: a
    # concurrent rename or currency change makes one of the two writes retry (409), never
    # leaves the balance row's copy behind the head.
    condition = Group.Status == GroupStatus.ACTIVE
    if new_default is not None:
        condition &= Group.roster_unchanged(group.RosterVersion)
    if name is None:
        condition &= Group.Name == group.Name
    if new_currency is None:
        condition &= Group.Currency == group.Currency
    tx.update(Group(*Group.key(group.GroupId)), actions, condition=condition, on_fail=_refused)
    changelog.record(tx, group, Group(*Group.key(group.GroupId), Name=name or group.Name),
                   actor=access.participant_id,
                   diff=changelog.diff_of({"name": group.Name, "currency": group.Currency},
                                        {"name": name or group.Name,
                                         "currency": new_currency or group.Currency}))
    tx.commit()
    group.Name = name if name is not None else group.Name
    group.Currency = new_currency or group.Currency
    if default_split is not NOT_SENT:
        group.DefaultSplit = new_default
        group.RosterVersion = int(group.RosterVersion or 0) + 1
    if simplify_debts is not None:
        group.SimplifyDebts = simplify_debts
    if rounding_mode is not None:
        group.Rounding = rounding_mode
    group.UpdatedAt = now
    return access


def _refused(old: Optional[dict]) -> DomainError:
    """Gone (not ACTIVE) or changed meanwhile, judged on the head as it was."""
    head = Group.from_raw(old)
    if head is None or head.Status != GroupStatus.ACTIVE:
        return group_not_found()
    return concurrent_update()
