"""The per-account projection of cross-group money (issue 50): each expense (an income
too), settlement and conversion of a group gets a MyEntry row in the partition of every
account whose participant it names (models/users/mine.py), so /users/me/expenses and
/users/me/stats read one Query a page however many groups the account has.

Kept by the groups table's stream (app.insight.project_stream), from state, not from the
record: a record only says what to look at (a resource, or a whole group after a roster
change), and the sync reads that state strongly consistent and makes the rows equal to it. A
replayed, duplicated or late record therefore re-reads the present and never writes the
past, and every write is conditioned on the resource's Version (a row is never replaced by
an older version of its resource), so two syncs that overlap cannot leave the older one's row.

A row's key holds its resource's date (no index to write). A create's sync writes without
reading first: no row of the resource can be held yet anywhere but where it writes (a replay
after a later change re-reads the present, and that change's own record follows). Any other
change's sync reads the accounts' rows at the resource's key now and at the key its change
row names as before (Change.SortedAs: an edit may have moved the date), rewrites what
differs and deletes what is no longer wanted. A change logged without that key (older than
it) looks the rows up by group.

What changes a row: the resource's create, edit and delete (its CHANGE record); a transfer
(each moved row is logged); a roster change that binds or unbinds an account (join,
takeover, leave, removal, account deletion's guest conversion: the USERMEMBER record, or the
PARTICIPANT change) rewrites the group's rows of every account, since ``With`` names them; a
group deletion (its sweep's USERMEMBER removals) deletes them. Account deletion sweeps the
account's own rows (app.account.steps). A deploy fills the projection for existing data once
(app.insight.backfill)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from app.core.access import is_live
from app.core.conditional import delete_if, put_if
from app.ledger.balances import expense_participants
from app.money.stats import shares
from app.names import folded
from models.groups import (CHANGE_PREFIX, CONVERSION_PREFIX, EXPENSE_HEAD_SUFFIX, EXPENSE_PREFIX,
                           SETTLEMENT_PREFIX, USERMEMBER_PREFIX, Balance, ChangeKind, Conversion,
                           Expense, Group, GroupItem, Settlement)
from models.users import MyEntry

PROJECTED = (ChangeKind.EXPENSE, ChangeKind.SETTLEMENT, ChangeKind.CONVERSION)
MONEY_ROWS = (Expense, Settlement, Conversion)
# A change row's Action when it created its resource (app.core.changelog.CREATE).
CREATED = "CREATE"
# Changes after which every account's rows of the group are rebuilt: a roster change may
# bind or unbind an account. (A rename or currency change of the group moves no row: names
# are read with the page, and the currency changes only while the group holds no money.)
REBUILDS = (ChangeKind.PARTICIPANT,)


@dataclass
class GroupState:
    """What a sync needs of a group: readable?, its currency, USER participant -> account."""

    group_id: str
    live: bool
    currency: str = ""
    users: Dict[str, str] = field(default_factory=dict)

    def account_of(self, participant_id: str) -> Optional[str]:
        return self.users.get(participant_id)


def read_group(group_id: str, *extra: str) -> Tuple[GroupState, Dict[str, dict]]:
    """The group's state, plus the raw rows of ``extra`` sort keys (one consistent batch)."""
    keys = [Group.key(group_id), Balance.key(group_id)] + [(group_id, sk) for sk in extra]
    rows = GroupItem.raw_batch_get(keys, consistent_read=True)
    head = Group.from_raw(rows.get(Group.key(group_id)))
    if not is_live(head):
        return GroupState(group_id, False), rows
    users = Balance.users_of(rows.get(Balance.key(group_id)))
    return GroupState(group_id, True, head.Currency, users), rows


def _expense_side(row: Expense, state: GroupState) -> tuple:
    currency, converted, owed, paid = shares(row)
    names = "\n".join([folded(row.Description or "")]
                      + [folded(item.Name or "") for item in row.Items or ()])
    # The row's own kind (an INCOME expense carries ExpenseKind; without it, an EXPENSE).
    # Its Paid and Owed come from stats.shares, already negative for an INCOME.
    kind = row.ExpenseKind or ChangeKind.EXPENSE
    return (kind, expense_participants(row), paid, owed, {},
            state.currency if converted else currency, row.Description, row.Category,
            row.Date, names)


def _settlement_side(row: Settlement, state: GroupState) -> tuple:
    converted = row.GroupAmount is not None
    amount = int(row.GroupAmount if converted else row.Amount)
    section = state.currency if converted or not row.Currency else row.Currency
    return (ChangeKind.SETTLEMENT, {row.PayerId, row.PayeeId}, {row.PayerId: amount},
            {row.PayeeId: amount}, {}, section, row.Note, None, row.day, None)


def _conversion_side(row: Conversion) -> tuple:
    """A conversion moves each kept net out of its currency (Paid - Owed = minus the kept
    net) and its converted value into the group's (GroupNet)."""
    kept = {pid: int(value) for pid, value in row.KeptNets.as_dict().items()}
    moved = {pid: int(value) for pid, value in row.GroupNets.as_dict().items()}
    return (ChangeKind.CONVERSION, set(kept) | set(moved),
            {pid: -value for pid, value in kept.items() if value < 0},
            {pid: value for pid, value in kept.items() if value > 0}, moved, row.Currency,
            None, None, row.CreatedAt[:10], None)


def entries_of(state: GroupState, row) -> Dict[str, MyEntry]:
    """account -> the row it should hold for ``row`` (an Expense, Settlement or Conversion)."""
    if isinstance(row, Expense):
        side = _expense_side(row, state)
    elif isinstance(row, Settlement):
        side = _settlement_side(row, state)
    elif isinstance(row, Conversion):
        side = _conversion_side(row)
    else:
        return {}
    kind, involved, paid, owed, moved, section, description, category, date, names = side
    accounts = {state.account_of(pid): pid for pid in involved if state.account_of(pid)}
    if not state.live or not accounts:
        return {}
    key = MyEntry.sort_key(row.projected_sort(), state.group_id)
    return {user_id: MyEntry(user_id, key, GroupId=state.group_id, ResourceKey=row.SK,
                             Kind=kind, Date=date, Description=description, Currency=section,
                             Category=category, Paid=int(paid.get(pid, 0)),
                             Owed=int(owed.get(pid, 0)),
                             GroupNet=int(moved[pid]) if pid in moved else None,
                             Names=names, With=set(accounts), Version=_version(row)).fitted()
            for user_id, pid in accounts.items()}


def _version(row) -> int:
    """A resource's Version (a conversion is never edited: 1)."""
    return int(getattr(row, "Version", None) or 1)


_COMPARED = ("GroupId", "ResourceKey", "Kind", "Date", "Description", "Currency", "Category",
             "Paid", "Owed", "GroupNet", "Names", "With", "Version")


def _same(old: Optional[MyEntry], new: MyEntry) -> bool:
    return old is not None and old.SK == new.SK and all(
        getattr(old, name) == getattr(new, name) for name in _COMPARED)


def _put(entry: MyEntry) -> bool:
    """Write unless the stored row is of a newer version of its resource."""
    return put_if(entry, MyEntry.Version.does_not_exist() | (MyEntry.Version <= entry.Version))


def _delete(entry: MyEntry, below: Optional[int]) -> None:
    """Delete; with ``below``, only while the stored row is of that version or older."""
    if below is None:
        entry.delete()
    else:
        delete_if(entry, MyEntry.Version <= below)


def _resource(raw: Optional[dict]):
    row = GroupItem.from_raw(raw) if raw else None
    return row if isinstance(row, MONEY_ROWS) else None


def sync_resource(group_id: str, resource_key: str, sorted_as: Optional[str] = None,
                  created: bool = False) -> None:
    """Make every account's row of one resource equal to the resource as stored now.
    ``sorted_as``: its projected_sort before the change (an edit's or delete's change row);
    ``created``: the change created it (nothing to read first)."""
    state, rows = read_group(group_id, resource_key)
    if not state.live:
        sync_group(group_id)
        return
    row = _resource(rows.get((group_id, resource_key)))
    wanted = entries_of(state, row) if row is not None else {}
    if created:
        for entry in wanted.values():
            _put(entry)
        return
    held = _held(state, resource_key, {sort for sort in (
        sorted_as, row.projected_sort() if row is not None else None) if sort})
    wanted_keys = {(user_id, entry.SK) for user_id, entry in wanted.items()}
    for user_id, entry in wanted.items():
        if not _same(held.get((user_id, entry.SK)), entry):
            _put(entry)
    for key, old in held.items():
        if key not in wanted_keys:
            _delete(old, None if row is None else _version(row))


def _held(state: GroupState, resource_key: str, sorts: set) -> Dict[tuple, MyEntry]:
    """(account, key) -> the row each bound account holds for the resource at any of
    ``sorts`` (one consistent BatchGetItem), or, without any, found by group."""
    accounts = set(state.users.values())
    if not sorts:
        return {(user_id, row.SK): row for user_id in accounts
                for row in MyEntry.of_group(user_id, state.group_id)
                if row.ResourceKey == resource_key}
    keys = [(user_id, MyEntry.sort_key(sort, state.group_id))
            for user_id in accounts for sort in sorted(sorts)]
    return {key: MyEntry.from_raw(raw) for key, raw in
            MyEntry.raw_batch_get(keys, consistent_read=True).items()}


def group_resources(group_id: str) -> List:
    """Every expense head, settlement and conversion of a group (consistent base-table
    Queries: an index may not hold a row the stream has already told us about)."""
    found: List = []
    for prefix in (EXPENSE_PREFIX, SETTLEMENT_PREFIX, CONVERSION_PREFIX):
        for row in GroupItem.partition(group_id, prefix, consistent_read=True):
            if isinstance(row, (Settlement, Conversion)) or (
                    isinstance(row, Expense) and row.SK.endswith(EXPENSE_HEAD_SUFFIX)):
                found.append(row)
    return found


def sync_group(group_id: str, also: Iterable[str] = ()) -> None:
    """Rebuild every account's rows of a group: its bound accounts and ``also`` (an account
    that has just left it). A group that is not readable keeps none."""
    state, _ = read_group(group_id)
    wanted: Dict[str, Dict[str, MyEntry]] = {}
    if state.live:
        for row in group_resources(group_id):
            for user_id, entry in entries_of(state, row).items():
                wanted.setdefault(user_id, {})[entry.SK] = entry
    for user_id in set(state.users.values()) | set(wanted) | set(also):
        sync_account(user_id, group_id, wanted.get(user_id, {}))


def sync_account(user_id: str, group_id: str, wanted: Dict[str, MyEntry]) -> None:
    """Make one account's rows of one group equal to ``wanted`` (sort key -> row)."""
    held = {row.SK: row for row in MyEntry.of_group(user_id, group_id)}
    for sort_key, entry in wanted.items():
        if not _same(held.get(sort_key), entry):
            _put(entry)
    for sort_key, old in held.items():
        if sort_key not in wanted:
            _delete(old, None)


def targets(records: Iterable[dict]) -> List[tuple]:
    """What a batch of groups-stream records asks to sync, in order, each once:
    ("resource", group, key, its sort before or None, created?) or ("group", group, leaving
    account or None)."""
    out: List[tuple] = []
    for record in records:
        dynamodb = record.get("dynamodb") or {}
        keys = dynamodb.get("Keys") or {}
        group_id = keys.get("GroupId", {}).get("S")
        sort_key = keys.get("SK", {}).get("S", "")
        if not group_id:
            continue
        if sort_key.startswith(CHANGE_PREFIX):
            image = dynamodb.get("NewImage") or {}
            kind = image.get("Kind", {}).get("S")
            if kind in PROJECTED:
                out.append(("resource", group_id, image["ResourceKey"]["S"],
                            image.get("SortedAs", {}).get("S"),
                            image.get("Action", {}).get("S") == CREATED))
            elif kind in REBUILDS:
                out.append(("group", group_id, None))
        elif sort_key.startswith(USERMEMBER_PREFIX):
            out.append(("group", group_id, sort_key[len(USERMEMBER_PREFIX):]))
    return list(dict.fromkeys(out))


def apply(target: tuple) -> None:
    what, group_id, detail = target[:3]
    if what == "resource":
        sync_resource(group_id, detail, *target[3:])
    else:
        sync_group(group_id, [detail] if detail else [])
