"""The balance row's codec (models.groups.balance_row), on moto's DynamoDB: whatever the
writes, the row decodes to their exact sums; a row in the first layout decodes equal and is
moved onto seats by its next write; a write encoded against a stale read still lands exactly."""
from __future__ import annotations

import uuid
from fractions import Fraction

import boto3
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.core.transactions import Transaction
from app.ledger import balances
from models.groups import BALANCE, NET_PREFIX, PAIR_PREFIX, Balance, GroupItem, balance_row
from models.groups.keys import ROUND_PREFIX

# Participant ids as the service makes them (UUIDs), plus ids that are not canonical UUIDs
# (an uppercase one, and short text such as tests and imports have used; one is 16 bytes).
IDS = [str(uuid.UUID(int=n * 7919 + 1)) for n in range(6)] + [
    str(uuid.UUID(int=99)).upper(), "guest-a", "sixteen-chars-id"]
CURRENCIES = [None, "USD", "JPY"]

ids = st.sampled_from(IDS)
currency = st.sampled_from(CURRENCIES)
amount = st.integers(-10**12, 10**12)


def ledger_key(pid: str, cur) -> str:
    return balances.ledger_key(pid, cur)


@st.composite
def pair_keys(draw) -> str:
    low, high = sorted(draw(st.lists(ids, min_size=2, max_size=2, unique=True)))
    return balances.pair_key(low, high, draw(currency))


@st.composite
def writes(draw) -> dict:
    """One money write's change: net deltas, pair deltas, rounding set or removed."""
    nets = draw(st.dictionaries(st.builds(ledger_key, ids, currency), amount, max_size=5))
    pairs = draw(st.dictionaries(pair_keys(), amount, max_size=4))
    rounding = draw(st.dictionaries(
        st.builds(ledger_key, ids, currency),
        st.one_of(st.none(), st.fractions(max_denominator=7).filter(bool).map(str)),
        max_size=3))
    return {"nets": nets, "pairs": pairs, "rounding": rounding}


def fold(state: dict, write: dict) -> None:
    for family in ("nets", "pairs"):
        for key, delta in write[family].items():
            state[family][key] = state[family].get(key, 0) + delta
    for key, text in write["rounding"].items():
        if text:
            state["rounding"][key] = text
        else:
            state["rounding"].pop(key, None)


def nonzero(values: dict) -> dict:
    return {key: value for key, value in values.items() if value}


def read(group_id: str):
    return Balance.fetch_raw(group_id)


def apply(group_id: str, write: dict, raw=None) -> None:
    """One write through the service's path (add_to_balance in a Transaction)."""
    tx = Transaction()
    balances.add_to_balance(tx, group_id, write["nets"], pairs=write["pairs"],
                            rounding=write["rounding"],
                            row=read(group_id) if raw is None else raw)
    tx.commit()


def put_raw(item: dict) -> None:
    boto3.client("dynamodb", region_name="us-east-1").put_item(
        TableName=GroupItem.Meta.table_name, Item=item)


def legacy_item(group_id: str, state: dict) -> dict:
    """The row as the first layout stored it: an id in every attribute name."""
    item = {"GroupId": {"S": group_id}, "SK": {"S": BALANCE},
            "EntityType": {"S": "BALANCE"}, "BalanceRevision": {"N": "7"}}
    item.update({NET_PREFIX + key: {"N": str(v)} for key, v in state["nets"].items()})
    item.update({PAIR_PREFIX + key: {"N": str(v)} for key, v in state["pairs"].items()})
    item.update({ROUND_PREFIX + key: {"S": v} for key, v in state["rounding"].items()})
    return item


def decoded(raw) -> dict:
    row = balance_row.decode(raw)
    return {"nets": nonzero(row.nets), "pairs": nonzero(row.pairs), "rounding": row.rounding}


SLOW = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@given(st.text(min_size=1, max_size=40).filter(lambda s: "#" not in s and "\0" not in s))
def test_a_seat_gives_back_the_id_it_was_given(pid):
    assert balance_row.seat_id(balance_row.seat_bytes(pid)) == pid


@SLOW
@given(st.lists(writes(), min_size=1, max_size=6))
def test_the_row_decodes_to_the_exact_sums_of_its_writes(aws, history):
    group_id = str(uuid.uuid4())
    state = {"nets": {}, "pairs": {}, "rounding": {}}
    for write in history:
        apply(group_id, write)
        fold(state, write)
    raw = read(group_id)
    assert decoded(raw) == {"nets": nonzero(state["nets"]), "pairs": nonzero(state["pairs"]),
                            "rounding": state["rounding"]}
    # Each id is seated once, and no attribute name spells an id.
    seats = balance_row.seats_of(raw)
    assert len(seats) == len(set(seats))
    assert not any(pid in name for name in raw for pid in IDS)
    assert not balance_row.is_legacy(raw)


@SLOW
@given(st.lists(writes(), min_size=1, max_size=4), writes())
def test_a_first_layout_row_decodes_equal_and_its_next_write_moves_it(aws, history, nxt):
    group_id = str(uuid.uuid4())
    state = {"nets": {}, "pairs": {}, "rounding": {}}
    for write in history:
        fold(state, write)
    put_raw(legacy_item(group_id, state))
    expected = {"nets": nonzero(state["nets"]), "pairs": nonzero(state["pairs"]),
                "rounding": state["rounding"]}
    assert decoded(read(group_id)) == expected
    apply(group_id, nxt)
    fold(state, nxt)
    raw = read(group_id)
    assert decoded(raw) == {"nets": nonzero(state["nets"]), "pairs": nonzero(state["pairs"]),
                            "rounding": state["rounding"]}
    assert not balance_row.is_legacy(raw)  # at most MOVED_PER_WRITE here: all moved at once


def test_a_large_first_layout_row_moves_over_several_writes_and_stays_exact(aws):
    group_id = str(uuid.uuid4())
    people = [str(uuid.UUID(int=n + 1)) for n in range(12)]
    pairs = {balances.pair_key(a, b): (i + 1) * 10
             for i, (a, b) in enumerate((a, b) for a in people for b in people if a < b)}
    nets = {pid: 0 for pid in people}
    for key, owed in pairs.items():
        low, high = key.split("#")
        nets[low] -= owed
        nets[high] += owed
    state = {"nets": nets, "pairs": pairs, "rounding": {}}
    put_raw(legacy_item(group_id, state))
    assert len(pairs) + len(nets) > balance_row.MOVED_PER_WRITE
    bump = {"nets": {people[0]: 5, people[1]: -5},
            "pairs": {balances.pair_key(*sorted(people[:2])): 5}, "rounding": {}}
    writes_needed = 0
    while balance_row.is_legacy(read(group_id)):
        apply(group_id, bump)
        fold(state, bump)
        writes_needed += 1
        assert decoded(read(group_id))["nets"] == nonzero(state["nets"])
    assert writes_needed == 2
    assert decoded(read(group_id)) == {"nets": nonzero(state["nets"]),
                                       "pairs": nonzero(state["pairs"]), "rounding": {}}


def test_writes_encoded_against_a_stale_read_are_encoded_again_and_land_exactly(aws):
    """Two writers read the row, each seats someone new: the second's seat list no longer
    matches, so its update is encoded again from the row's image and resent."""
    group_id = str(uuid.uuid4())
    a, b, c = IDS[:3]
    apply(group_id, {"nets": {a: 10, b: -10}, "pairs": {}, "rounding": {}})
    stale = read(group_id)
    apply(group_id, {"nets": {a: 4, c: -4}, "pairs": {}, "rounding": {}}, raw=stale)
    apply(group_id, {"nets": {b: 7, IDS[3]: -7},
                     "pairs": {balances.pair_key(*sorted((b, IDS[3]))): 7},
                     "rounding": {IDS[3]: "1/3"}}, raw=stale)
    raw = read(group_id)
    assert decoded(raw) == {"nets": {a: 14, b: -3, c: -4, IDS[3]: -7},
                            "pairs": {balances.pair_key(*sorted((b, IDS[3]))): 7},
                            "rounding": {IDS[3]: "1/3"}}
    assert sorted(balance_row.seats_of(raw)) == sorted({a, b, c, IDS[3]})


def test_a_stale_read_of_a_first_layout_row_moves_it_once(aws):
    group_id = str(uuid.uuid4())
    a, b = IDS[:2]
    put_raw(legacy_item(group_id, {"nets": {a: 3, b: -3}, "pairs": {}, "rounding": {}}))
    stale = read(group_id)
    apply(group_id, {"nets": {a: 1, b: -1}, "pairs": {}, "rounding": {}}, raw=stale)
    apply(group_id, {"nets": {a: 1, b: -1}, "pairs": {}, "rounding": {}}, raw=stale)
    assert decoded(read(group_id))["nets"] == {a: 5, b: -5}


def test_a_fair_write_on_a_moved_revision_still_hears_its_own_error(aws):
    """A caller's revision condition (FAIR rounding) is judged before any re-encoding."""
    from app.ledger.rounding import RoundingMoved
    group_id = str(uuid.uuid4())
    apply(group_id, {"nets": {IDS[0]: 1, IDS[1]: -1}, "pairs": {}, "rounding": {}})
    tx = Transaction()
    balances.add_to_balance(tx, group_id, {IDS[2]: 1, IDS[0]: -1}, row=read(group_id),
                            revision=0, on_fail=RoundingMoved("moved"),
                            rounding={IDS[2]: str(Fraction(1, 3))})
    with pytest.raises(RoundingMoved):
        tx.commit()


def test_a_six_way_two_currency_row_stays_under_one_kilobyte(aws):
    """The bench's group: 6 participants, nets in two currencies, 10 owing pairs."""
    from bench.dynamo_meter import item_size
    group_id = str(uuid.uuid4())
    people = [str(uuid.uuid4()) for _ in range(6)]
    nets = {balances.ledger_key(pid, cur): (-1) ** n * 123456
            for n, pid in enumerate(people) for cur in (None, "USD")}
    pairs = {balances.pair_key(*sorted((people[i], people[j])), cur): 98765
             for i, j in ((0, 1), (0, 2), (0, 3), (0, 4), (0, 5)) for cur in (None, "USD")}
    apply(group_id, {"nets": nets, "pairs": pairs, "rounding": {}})
    users = {Balance.user_pair(pid, str(uuid.uuid4())) for pid in people}
    Balance(*Balance.key(group_id)).update(actions=[Balance.Users.add(users),
                                                    *Balance.copy_head("Trip to Lisbon", "EUR")])
    assert item_size(read(group_id)) < 1024


def test_a_writer_that_keeps_the_row_it_left_writes_again_without_a_read_or_a_resend(aws):
    """The seats a committed write appended are exact (appended under the condition that the
    list was the one read), so the writer's next write encodes against them: no GetItem, no
    failed attempt, even when that write seats someone else."""
    from tests.support import aws_calls
    group_id = str(uuid.uuid4())
    held = {BALANCE: read(group_id)}
    first = {"nets": {IDS[0]: 5, IDS[1]: -5}, "pairs": {}, "rounding": {}}
    second = {"nets": {IDS[0]: 2, IDS[2]: -2}, "pairs": {}, "rounding": {}}
    with aws_calls.recorded() as calls:
        for write in (first, second, first):
            tx = Transaction()
            balances.add_to_balance(tx, group_id, write["nets"], row=held[BALANCE], held=held)
            tx.commit()
    assert calls == ["TransactWriteItems"] * 3
    assert decoded(read(group_id))["nets"] == {IDS[0]: 12, IDS[1]: -10, IDS[2]: -2}
    assert balance_row.seats_of(held[BALANCE]) == balance_row.seats_of(read(group_id))


def test_a_held_row_another_writer_moved_on_still_lands_exactly(aws):
    group_id = str(uuid.uuid4())
    held = {BALANCE: read(group_id)}
    tx = Transaction()
    balances.add_to_balance(tx, group_id, {IDS[0]: 1, IDS[1]: -1}, row=held[BALANCE], held=held)
    tx.commit()
    apply(group_id, {"nets": {IDS[3]: 9, IDS[4]: -9}, "pairs": {}, "rounding": {}})
    tx = Transaction()
    balances.add_to_balance(tx, group_id, {IDS[0]: 1, IDS[5]: -1}, row=held[BALANCE], held=held)
    tx.commit()
    assert decoded(read(group_id))["nets"] == {IDS[0]: 2, IDS[1]: -1, IDS[3]: 9, IDS[4]: -9,
                                               IDS[5]: -1}
    assert balance_row.seats_of(held[BALANCE]) == balance_row.seats_of(read(group_id))


def test_an_old_row_moved_by_a_write_is_read_again_by_the_writers_next(aws):
    group_id = str(uuid.uuid4())
    put_raw(legacy_item(group_id, {"nets": {IDS[0]: 3, IDS[1]: -3}, "pairs": {}, "rounding": {}}))
    held = {BALANCE: read(group_id)}
    tx = Transaction()
    balances.add_to_balance(tx, group_id, {IDS[0]: 1, IDS[1]: -1}, row=held[BALANCE], held=held)
    tx.commit()
    assert BALANCE not in held  # the move's image is not known: the next write reads
    assert decoded(read(group_id))["nets"] == {IDS[0]: 4, IDS[1]: -4}
