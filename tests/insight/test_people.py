"""GET /users/me/people: per account and currency, the transfers between us in each group's
settle-up plan, summed; guests are not people; all-zero people last; payTo where I owe;
reads batched balance rows, never a roster."""
from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from moto import mock_aws

import models
from app.core.access import authorize
from app.groups.groups import create_group
from app.groups.participants import add_guest
from app.ledger import balances, expenses, settlements
from app.people.people_balances import my_people
from app.money.settlement_input import SettlementInput
from tests.conftest import STAGE
from tests.ledger.helpers import equal_body, join_directly, make_user
from tests.support import aws_calls
from tests.support.tables import create_all_tables
from tests.support.expense_requests import as_create


def people_of(client, headers) -> dict:
    reply = client.get("/users/me/people", headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return {p["displayName"]: p for p in reply.get_json()["items"]}


def test_who_owes_whom_across_groups_with_pay_links(group, other_group, client, sign_in):
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    assert client.put("/users/me/payment-methods", headers=group.headers, json={
        "methods": [{"type": "PAYPAL", "handle": "ownerpays"}]}).status_code == 200
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(1000, payer=group.me, among=[group.me, bo_pid])  # Bo owes 5.00
    # a second group of Bo's with the stranger, in which Bo is owed 3.00
    bo_pid2 = join_directly(other_group.group_id, bo, "MEMBER", "Bo")
    other_group.add_expense(600, payer=bo_pid2, among=[other_group.me, bo_pid2])

    mine = people_of(client, group.headers)
    assert list(mine) == ["Bo"]  # guests are not people
    assert mine["Bo"]["nets"] == [{"currency": "EUR", "net": 500, "payTo": []}]
    assert [(g["groupId"], g["net"]) for g in mine["Bo"]["groups"]] == [(group.group_id, 500)]

    bos = people_of(client, bo_h)
    owner, stranger = bos["owner"], bos["stranger"]
    assert owner["nets"][0]["net"] == -500
    assert owner["nets"][0]["payTo"] == [
        {"type": "PAYPAL", "url": "https://paypal.me/ownerpays/5.00EUR"}]
    assert owner["groups"][0]["payTo"][0]["url"].startswith("https://paypal.me/ownerpays/5.00")
    assert stranger["nets"][0]["net"] == 300 and stranger["nets"][0]["payTo"] == []


def test_people_with_nothing_owed_come_last(group, client, sign_in):
    _, ann = sign_in("ann@example.com", display_name="Ann")
    _, zed = sign_in("zed@example.com", display_name="Zed")
    join_directly(group.group_id, ann, "MEMBER", "Ann")
    zed_pid = join_directly(group.group_id, zed, "MEMBER", "Zed")
    group.add_expense(1000, payer=group.me, among=[group.me, zed_pid])
    assert [(name, p["nets"][0]["net"]) for name, p in people_of(client, group.headers).items()
            ] == [("Zed", 500), ("Ann", 0)]


def test_kept_currency_sections_are_their_own_nets(group, client, sign_in):
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    reply = group.post("/expenses", {"description": "Taxi", "amount": 600, "currency": "USD",
                                     "splitMode": "EQUAL",
                                     "payments": [{"participantId": group.me, "amount": 600}],
                                     "splits": [{"participantId": group.me},
                                                {"participantId": bo_pid}]})
    assert reply.status_code == 201, reply.get_json()
    bo_view = people_of(client, bo_h)["owner"]
    assert [(n["currency"], n["net"]) for n in bo_view["nets"]] == [("EUR", 0), ("USD", -300)]
    assert [(g["currency"], g["net"]) for g in bo_view["groups"]] == [("EUR", 0), ("USD", -300)]


def test_reads_no_roster_and_batches_the_balance_rows(group, client, sign_in):
    _, bo = sign_in("bo@example.com", display_name="Bo")
    join_directly(group.group_id, bo, "MEMBER", "Bo")
    client.get("/users/me/people", headers=group.headers)  # warm-up
    with aws_calls.recorded() as made:
        assert client.get("/users/me/people", headers=group.headers).status_code == 200
    # memberships; the balance rows with the caller's profile (the account check: no
    # GetItem of its own; no head: the row carries its copy); the people's profiles.
    # Never a roster Query.
    assert made == ["Query", "BatchGetItem", "BatchGetItem"], made


def test_an_account_being_deleted_is_refused_by_the_batched_reads(group, client, sign_in):
    """The liveness check rides on the route's own BatchGetItem: a deleting account (only
    the mark written) is refused, with groups and with none (a batch of the profile alone)."""
    from app.account import deletion
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    lone_h, lone = sign_in("lone@example.com", display_name="Lone")
    join_directly(group.group_id, bo, "MEMBER", "Bo")
    for headers, user_id in ((bo_h, bo), (lone_h, lone)):
        for path in ("/users/me/people", "/users/me/expenses"):
            assert client.get(path, headers=headers).status_code == 200
        try:
            deletion.delete_account(user_id, after_step=_stop_after_mark)
        except RuntimeError:
            pass
        for path in ("/users/me/people", "/users/me/expenses"):
            reply = client.get(path, headers=headers)
            assert reply.status_code == 401, (path, reply.get_json())


def _stop_after_mark(name):
    if name == "mark":
        raise RuntimeError("stopped after the mark")


# --- property: people nets = the plans' transfers between each pair ----------------------

ACCOUNTS = 3
group_specs = st.lists(st.tuples(
    st.lists(st.integers(0, ACCOUNTS - 1), min_size=1, max_size=ACCOUNTS, unique=True),
    st.integers(0, 2),  # guests
    st.lists(st.tuples(st.integers(1, 5000), st.integers(0, 9),
                       st.lists(st.integers(0, 9), min_size=1, max_size=4, unique=True),
                       st.booleans()), max_size=6),
    st.booleans()), min_size=1, max_size=3)


def _build(spec, users):
    """Groups owned by their first account, with accounts, guests, expenses and a settlement."""
    built = []
    for members, guests, rows, settle in spec:
        owner = users[members[0]]
        access = authorize(owner, create_group(owner, name="G", currency="EUR").group_id)
        pids = [access.participant_id]
        pids += [join_directly(access.group_id, users[m], "MEMBER") for m in members[1:]]
        pids += [add_guest(access, display_name=f"Guest {i}").ParticipantId
                 for i in range(guests)]
        for amount, payer, among, kept in rows:
            body = equal_body(pids[payer % len(pids)], amount,
                              sorted({pids[i % len(pids)] for i in among}))
            if kept:
                body["currency"] = "USD"
            expenses.create_expense(access, as_create(body))
        if settle and len(pids) > 1:
            settlements.create_settlement(access, SettlementInput.of(payer_id=pids[1], payee_id=pids[0], amount=77))
        built.append(access)
    return built


def _expected(built, users):
    """{(me, them): {currency: net}} from each group's balances (the balances route's own
    service, with its roster) by summing the plans' transfers between the two."""
    want = defaultdict(lambda: defaultdict(int))
    for access in built:
        result = balances.group_balances(access)
        account = result.user_ids
        sections = [(result.currency, result.transfers)]
        sections += [(s.currency, s.transfers) for s in result.other_currencies]
        for currency, transfers in sections:
            for t in transfers:
                payer, payee = account.get(t.from_id), account.get(t.to_id)
                if payer and payee:
                    want[(payee, payer)][currency] += t.amount
                    want[(payer, payee)][currency] -= t.amount
    return want


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.generate))
@given(spec=group_specs)
def test_people_nets_equal_the_plans_transfers_between_each_pair(spec):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        users = [make_user(f"u{i}@example.com", f"U{i}") for i in range(ACCOUNTS)]
        built = _build(spec, users)
        want = _expected(built, users)
        shared = defaultdict(set)
        for members, *_ in spec:
            for a in members:
                shared[users[a]] |= {users[b] for b in members if b != a}
        for me in users:
            got = {p["userId"]: p for p in my_people(me)}
            assert set(got) == shared[me]  # every account I share a group with, no guest
            for them, person in got.items():
                nets = {n["currency"]: n["net"] for n in person["nets"]}
                expected = {c: v for c, v in want[(me, them)].items() if v}
                assert {c: v for c, v in nets.items() if v} == expected
                assert sum(g["net"] for g in person["groups"] if g["currency"] == "EUR") \
                    == nets.get("EUR", 0)
                theirs = {n["currency"]: n["net"] for n in
                          {p["userId"]: p for p in my_people(them)}[me]["nets"]}
                assert {c: -v for c, v in nets.items() if v} == \
                    {c: v for c, v in theirs.items() if v}
            zero = [all(n["net"] == 0 for n in p["nets"]) for p in my_people(me)]
            assert zero == sorted(zero)  # all-zero people last


def test_a_pat_reaches_people_and_my_expenses_with_groups_read_only(group, client):
    def pat(*scopes):
        reply = client.post("/developer/tokens", headers=group.headers,
                            json={"name": "script", "scopes": list(scopes)})
        assert reply.status_code == 201, reply.get_json()
        return {"Authorization": f"Bearer {reply.get_json()['token']}"}

    reader, writer = pat("groups:read"), pat("expenses:write")
    for path in ("/users/me/people", "/users/me/expenses"):
        assert client.get(path, headers=reader).status_code == 200, path
        assert client.get(path, headers=writer).status_code == 403, path


def test_people_follow_each_groups_default_view(group, client, sign_in):
    """me paid for me and a guest, the guest paid for the guest and Bo: the plan sends Bo to
    me; the pairwise debts (simplifyDebts off) have Bo owe the guest, and me nobody."""
    _, bo = sign_in("bo@example.com", display_name="Bo")
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    guest = group.guests[0]
    group.add_expense(900, payer=group.me, among=[group.me, guest])
    group.add_expense(900, payer=guest, among=[guest, bo_pid])
    assert people_of(client, group.headers)["Bo"]["nets"][0]["net"] == 450
    assert client.patch(group.base, json={"simplifyDebts": False},
                        headers=group.headers).status_code == 200
    assert people_of(client, group.headers)["Bo"]["nets"][0]["net"] == 0
