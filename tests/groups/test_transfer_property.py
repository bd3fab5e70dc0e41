"""Transfer properties (hypothesis).

1. Merging one participant into another inside an item (pure): every other split keeps its
   owed amount and position, the target owes exactly what the two owed, the source is gone,
   and the stored values re-resolve to the stored amounts (a later edit changes nothing).
2. For random ledgers (expenses in every split mode, settlements, some between source and
   target) on moto: the transfer keeps the nets summing to zero, leaves everyone else's net
   alone, gives the target the source's and its own, and BALANCE#v1 equals a recomputation.
"""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings, strategies as st

from app.money.splits import resolve_item
from app.groups import participants, transfer
from app.groups.transfer_merge import merge_item
from app.core.access import authorize
from app.ledger import expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Balance, ItemMap, SplitMap
from tests.ledger.helpers import assert_balance_matches_rows, make_group, make_user
from tests.property.test_splits import parts_summing_to
from tests.support.expense_requests import as_create

S, T = "source", "target"
OTHERS = ("a", "b", "c")


@st.composite
def items(draw):
    """An item naming the source (and often the target) among others, resolved."""
    ids = draw(st.lists(st.sampled_from((S, T) + OTHERS), min_size=1, max_size=5, unique=True)
               .filter(lambda chosen: S in chosen))
    amount = draw(st.integers(1, 10**6))
    mode = draw(st.sampled_from(("EQUAL", "EXACT", "PERCENT", "SHARES")))
    if mode == "EQUAL":
        values = [0] * len(ids)
    elif mode == "EXACT":
        values = draw(parts_summing_to(amount, len(ids)))
    elif mode == "PERCENT":
        values = draw(parts_summing_to(10_000, len(ids)))
    else:
        values = draw(st.lists(st.integers(1, 7), min_size=len(ids), max_size=len(ids)))
    owed = resolve_item(amount, mode, list(zip(ids, values, strict=True)))
    return ItemMap(Name="i", Amount=amount, SplitMode=mode,
                   Splits=[SplitMap(ParticipantId=p, Value=v, Amount=o)
                           for p, v, o in zip(ids, values, owed, strict=True)])


@settings(max_examples=300, deadline=None)
@given(items())
def test_merging_keeps_every_owed_amount_and_re_resolves_exactly(item):
    before = {s.ParticipantId: int(s.Amount) for s in item.Splits}
    merged = merge_item(item, S, T)
    after = [(s.ParticipantId, int(s.Value), int(s.Amount)) for s in merged.Splits]
    ids = [pid for pid, _, _ in after]
    assert S not in ids and len(ids) == len(set(ids))
    assert {pid: owed for pid, _, owed in after} == \
        {**{p: v for p, v in before.items() if p not in (S, T)},
         T: before[S] + before.get(T, 0)}
    assert [p for p in ids if p != T] == [s.ParticipantId for s in item.Splits
                                          if s.ParticipantId not in (S, T)]
    assert resolve_item(int(merged.Amount), merged.SplitMode,
                        [(pid, value) for pid, value, _ in after]) == [o for _, _, o in after]


ledgers = st.lists(st.one_of(
    st.tuples(st.just("expense"), st.integers(0, 4), st.integers(1, 5000),
              st.sampled_from(("EQUAL", "SHARES", "PERCENT")),
              st.lists(st.integers(0, 4), min_size=1, max_size=5, unique=True)),
    st.tuples(st.just("settlement"), st.integers(0, 4), st.integers(0, 4),
              st.integers(1, 3000))), min_size=1, max_size=6)


def _split_values(mode: str, count: int, seed: int) -> list:
    if mode == "PERCENT":
        base = [10_000 // count] * count
        base[0] += 10_000 - sum(base)
        return base
    return [1 + (seed + i) % 3 for i in range(count)] if mode == "SHARES" else [0] * count


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ledger=ledgers, user_source=st.booleans())
def test_transfer_conserves_nets_for_random_ledgers(aws, ledger, user_source):
    owner = make_user("prop@example.com")
    access, ids = make_group(owner, guests=4)  # ids[0] is the owner (a USER)
    source, target = (ids[0], ids[1]) if user_source else (ids[1], ids[2])
    access = authorize(owner, access.group_id, "OWNER")
    for entry in ledger:
        if entry[0] == "expense":
            _, payer, amount, mode, among = entry
            expenses.create_expense(access, as_create({
                "description": "p", "date": "2026-11-28", "amount": amount,
                "payments": [{"participantId": ids[payer], "amount": amount}],
                "splitMode": mode, "splits": [{"participantId": ids[i], "value": v}
                                              for i, v in zip(among, _split_values(
                                                  mode, len(among), amount), strict=True)]}))
        elif entry[1] != entry[2]:
            settlements.create_settlement(access, SettlementInput.of(payer_id=ids[entry[1]],
                                          payee_id=ids[entry[2]], amount=entry[3]))
    before = Balance.nets_of(Balance.fetch_raw(access.group_id))
    reply = transfer.transfer_participant(access, source, target)
    after = Balance.nets_of(Balance.fetch_raw(access.group_id))
    assert reply["sourceRemoved"] is not user_source
    assert sum(after.values()) == 0
    for pid in ids:
        if pid not in (source, target):
            assert after.get(pid, 0) == before.get(pid, 0)
    assert after.get(target, 0) == before.get(source, 0) + before.get(target, 0)
    assert after.get(source, 0) == 0
    assert not participants.is_referenced(access.group_id, source)
    assert_balance_matches_rows(access.group_id)
