"""BALANCE#v1's copy of the head (Name, Currency, and Status once DELETING), what the
cross-group reads (/users/me/people, /users/me/expenses) read instead of heads, moves with
the head in the same TransactWrite: create, rename, currency change, tombstone (before any
sweep). A row older than the copy still lists its group, through its head."""
from __future__ import annotations

import pytest

from app.errors import Conflict
from app.core.access import authorize
from app.groups import delete
from app.groups.groups import update_group
from models.groups import Balance, Group
from tests.support import aws_calls
from tests.support.projection import settle


def copy_of(gid: str):
    return Balance.head_copy_of(Balance.fetch_raw(gid))


def head_of(gid: str):
    head = Group.get(*Group.key(gid), consistent_read=True)
    return head.Name, head.Currency, head.Status if head.Status == delete.DELETING else None


def people_groups(client, headers) -> list:
    reply = client.get("/users/me/people", headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return [(g["name"], g["currency"]) for p in reply.get_json()["items"] for g in p["groups"]]


def my_expense_groups(client, headers) -> list:
    reply = client.get("/users/me/expenses", headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return [item["groupName"] for item in reply.get_json()["items"]]


def taxi(client, owner, ann) -> None:
    """An expense between the owner and Ann (money recorded: the currency is locked)."""
    reply = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers, json={
        "description": "Taxi", "amount": 1000, "splitMode": "EQUAL",
        "payments": [{"participantId": owner.pid, "amount": 1000}],
        "splits": [{"participantId": owner.pid}, {"participantId": ann.pid}]})
    assert reply.status_code == 201, reply.get_json()


def test_create_rename_and_currency_change_move_the_copy(client, owner, join):
    ann = join("ann@example.com", display_name="Ann")
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Trip", "EUR", None)
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers,
                         json={"name": "Lisbon", "currency": "USD"})
    assert reply.status_code == 200, reply.get_json()
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Lisbon", "USD", None)
    assert people_groups(client, ann.headers) == [("Lisbon", "USD")]
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers, json={"name": "Porto"})
    assert reply.status_code == 200, reply.get_json()
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Porto", "USD", None)
    assert people_groups(client, ann.headers) == [("Porto", "USD")]


def test_a_refused_currency_change_leaves_head_and_copy_alike(client, owner, join):
    ann = join("ann@example.com", display_name="Ann")
    taxi(client, owner, ann)
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers,
                         json={"name": "Lisbon", "currency": "USD"})
    assert reply.status_code == 409, reply.get_json()
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Trip", "EUR", None)
    settle()  # the listing reads the projection the groups stream keeps
    assert my_expense_groups(client, ann.headers) == ["Trip"]


def test_the_tombstone_hides_the_group_from_the_cross_group_reads_at_once(client, owner, join):
    ann = join("ann@example.com", display_name="Ann")
    taxi(client, owner, ann)
    settle()
    assert people_groups(client, ann.headers) == [("Trip", "EUR")]
    assert my_expense_groups(client, ann.headers) == ["Trip"]
    delete.tombstone(owner.gid)  # no sweep yet: every row but the head's status is there
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Trip", "EUR", "DELETING")
    assert people_groups(client, ann.headers) == []
    assert my_expense_groups(client, ann.headers) == []


def test_a_row_older_than_the_copy_is_read_through_its_head(client, owner, join):
    ann = join("ann@example.com", display_name="Ann")
    Balance(*Balance.key(owner.gid)).update(actions=[Balance.Name.remove(),
                                                     Balance.Currency.remove()])
    assert copy_of(owner.gid) is None
    with aws_calls.recorded() as made:
        assert people_groups(client, ann.headers) == [("Trip", "EUR")]
    # memberships; balance rows with Ann's profile; the heads without a copy; the people
    assert made.count("Query") == 1 and made.count("BatchGetItem") == 3, made
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers, json={"name": "Faro"})
    assert reply.status_code == 200, reply.get_json()
    assert copy_of(owner.gid) == ("Faro", "EUR", None)  # a rename writes the whole copy


def test_a_write_that_read_a_stale_head_never_leaves_the_copy_behind(client, owner):
    """A rename that read the head before a currency change landed (and the other way
    round) would copy the old value of the field it leaves: it is refused (409, retry)."""
    stale = authorize(owner.user_id, owner.gid, "OWNER")  # reads EUR / "Trip"
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers, json={"currency": "USD"})
    assert reply.status_code == 200, reply.get_json()
    with pytest.raises(Conflict):
        update_group(stale, name="Stale")
    stale = authorize(owner.user_id, owner.gid, "OWNER")  # reads USD / "Trip"
    reply = client.patch(f"/groups/{owner.gid}", headers=owner.headers, json={"name": "Faro"})
    assert reply.status_code == 200, reply.get_json()
    with pytest.raises(Conflict):
        update_group(stale, currency="GBP")
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Faro", "USD", None)
    update_group(authorize(owner.user_id, owner.gid, "OWNER"), name="Lagos")  # re-read: fine
    assert copy_of(owner.gid) == head_of(owner.gid) == ("Lagos", "USD", None)
