"""Money and comment writes hold the caller's guard row, not a PROFILE check (issue 33
lever 1; app.core.live): a write that passed its checks after the deletion's mark
may land, as group history, and the deletion's re-sweep must still take its typed text
out of the change log. The race is put at its worst place: after the groups step's first
scrub of the user's changes and just before the conversion to a guest (the real conversion
then runs). Once converted, a write with the access read before is refused."""
from __future__ import annotations

import json

import pytest

from app.errors import DomainError
from app.account import deletion
from app.core.access import authorize
from app.groups import departure
from app.ledger import comments, expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Change, Participant
from tests.account.conftest import _expense
from tests.support.expense_requests import as_create

SECRET = "Raced-in clinic bill (private)"
NOTE = "raced-in note for the pharmacy"


def _logged_text(group_id: str) -> str:
    rows = Change.query(group_id, Change.SK.startswith("CHANGE#"), consistent_read=True)
    return json.dumps([[row.Subject, row.edits] for row in rows])


def test_a_money_write_racing_the_conversion_is_scrubbed_and_a_later_one_refused(
        make_world, monkeypatch):
    world = make_world("race")
    access = authorize(world.dora, world.shared, "MEMBER")  # a request authorized in time
    olive = authorize(world.olive, world.shared, "MEMBER").participant_id
    real_to_guest, raced = departure._to_guest, []

    def racing_to_guest(head, me, user_id):
        if head.GroupId == world.shared:
            expense = expenses.create_expense(
                access, as_create(_expense(world.dora_pid, 700, [world.dora_pid, olive], SECRET)))
            comments.add_comment(access, expense.ExpenseId, "raced comment")
            settlements.create_settlement(access, SettlementInput.of(payer_id=olive, payee_id=world.dora_pid,
                                          amount=100, note=NOTE))
            raced.append(expense.ExpenseId)
        real_to_guest(head, me, user_id)

    monkeypatch.setattr(departure, "_to_guest", racing_to_guest)
    assert deletion.delete_account(world.dora).done
    assert raced, "the race was not run"
    # The writes landed (they are the group's history) and the re-sweep scrubbed their text.
    text = _logged_text(world.shared)
    assert SECRET not in text and NOTE not in text
    dora = Participant.get(world.shared, Participant.sort_key(world.dora_pid))
    assert dora.Type == "GUEST" and dora.UserId is None
    # After the conversion nothing of the account lands, whatever it read before.
    with pytest.raises(DomainError) as refused:
        expenses.create_expense(access, as_create(_expense(world.dora_pid, 100, [world.dora_pid])))
    assert refused.value.status == 404


def test_the_joined_liveness_read_refuses_a_marked_account_on_group_routes(
        client, make_world):
    """On /groups/{groupId} routes the liveness read is the group authorization's
    BatchGetItem (app.core.live.is_live_in_group): a profile marked DELETING is
    401 there at once, on reads and writes, before any group row is used."""
    from models.users import DELETING, Profile

    world = make_world("joined")
    base = f"/groups/{world.shared}"
    assert client.get(f"{base}/balances", headers=world.dora_h).status_code == 200
    Profile(*Profile.key(world.dora)).update(actions=[Profile.Status.set(DELETING)])
    for method, path, body in (("GET", f"{base}/balances", None),
                               ("GET", f"{base}/expenses", None),
                               ("POST", f"{base}/expenses",
                                _expense(world.dora_pid, 100, [world.dora_pid]))):
        reply = client.open(path, method=method, json=body, headers=world.dora_h)
        assert reply.status_code == 401, (method, path, reply.get_json())
