"""The trash (api.md "Archive and trash") through the Flask test client on moto: a delete
moves an expense or settlement there for 30 days with its balance effect removed, a restore
puts it back (greater version, effect re-applied, comments with it), expiry, PARTICIPANT_GONE,
the purge, and group deletion erasing it."""
from __future__ import annotations

from app.core.clock import epoch
from app.ledger import trash
from app.limits import TRASH_KEEP_SECONDS
from app.ledger.orphan_comments import sweep_orphan_comments
from models.groups import Comment, GroupItem, Trashed
from tests.ledger.helpers import assert_balance_matches_rows, stored_nets


def _later(monkeypatch, seconds: int) -> None:
    """Move the trash's clock ``seconds`` ahead (its reads and the purge)."""
    now = epoch()
    monkeypatch.setattr(trash, "epoch", lambda: now + seconds)


def test_a_deleted_expense_is_listed_in_the_trash_and_leaves_the_balance(group):
    expense = group.add_expense(900, description="Pizza")
    before = stored_nets(group.group_id)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert stored_nets(group.group_id) == {}
    assert group.get(f"/expenses/{expense['expenseId']}").status_code == 404
    items = group.get("/trash").get_json()["items"]
    assert len(items) == 1
    item = items[0]
    assert (item["kind"], item["id"], item["description"], item["amount"], item["deletedBy"]) == \
        ("EXPENSE", expense["expenseId"], "Pizza", 900, group.me)
    assert item["expiresAt"] > item["deletedAt"]
    row = Trashed.get(group.group_id, Trashed.sort_key(expense["expenseId"]))
    assert int(row.ExpiresAt) - epoch() in range(TRASH_KEEP_SECONDS - 60, TRASH_KEEP_SECONDS + 1)
    assert before  # it had moved money
    assert_balance_matches_rows(group.group_id)


def test_restore_brings_the_expense_back_with_a_greater_version_and_its_comments(group):
    expense = group.add_expense(900)
    eid = expense["expenseId"]
    assert group.post(f"/expenses/{eid}/comments", {"body": "mine was the big one"}).status_code == 201
    nets = stored_nets(group.group_id)
    group.delete(f"/expenses/{eid}")
    assert group.get(f"/expenses/{eid}/comments").status_code == 404
    reply = group.post(f"/trash/{eid}/restore", {})
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert body["kind"] == "EXPENSE" and "settlement" not in body
    assert body["expense"]["expenseId"] == eid and body["expense"]["version"] > expense["version"]
    assert stored_nets(group.group_id) == nets
    detail = group.get(f"/expenses/{eid}").get_json()
    assert [c["body"] for c in detail["comments"]] == ["mine was the big one"]
    assert group.get("/trash").get_json()["items"] == []
    assert group.post(f"/trash/{eid}/restore", {}).status_code == 404  # not in the trash now
    assert eid in [e["expenseId"] for e in group.get("/expenses").get_json()["items"]]
    assert_balance_matches_rows(group.group_id)


def test_a_settlement_goes_to_the_trash_and_comes_back(group):
    made = group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                       "amount": 500, "note": "cash"}).get_json()
    nets = stored_nets(group.group_id)
    assert group.delete(f"/settlements/{made['settlementId']}").status_code == 204
    assert stored_nets(group.group_id) == {}
    item = group.get("/trash").get_json()["items"][0]
    assert (item["kind"], item["id"], item["amount"], item["description"]) == \
        ("SETTLEMENT", made["settlementId"], 500, "cash")
    reply = group.post(f"/trash/{made['settlementId']}/restore", {})
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["settlement"]["version"] == made["version"] + 1
    assert stored_nets(group.group_id) == nets
    assert group.get(f"/settlements/{made['settlementId']}").status_code == 200
    assert_balance_matches_rows(group.group_id)


def test_the_trash_lists_newest_deletion_first_in_pages(group):
    ids = [group.add_expense(100 + n)["expenseId"] for n in range(3)]
    for eid in ids:
        group.delete(f"/expenses/{eid}")
    first = group.get("/trash?limit=2").get_json()
    assert [i["id"] for i in first["items"]] == [ids[2], ids[1]]
    rest = group.get(f"/trash?limit=2&cursor={first['nextCursor']}").get_json()
    assert [i["id"] for i in rest["items"]] == [ids[0]] and rest["nextCursor"] is None


def test_changes_show_a_delete_then_a_put_and_activity_says_both(group):
    eid = group.add_expense(900, description="Taxi")["expenseId"]
    since = group.get("/changes?since=0").get_json()["revision"]
    group.delete(f"/expenses/{eid}")
    deleted = group.get(f"/changes?since={since}").get_json()
    assert [(c["id"], c["op"], c["data"]) for c in deleted["changes"]] == [(eid, "DELETE", None)]
    group.post(f"/trash/{eid}/restore", {})
    put = group.get(f"/changes?since={deleted['revision']}").get_json()["changes"]
    assert [(c["id"], c["op"]) for c in put] == [(eid, "UPSERT")]
    assert put[0]["data"]["expenseId"] == eid and put[0]["data"]["version"] == 2
    summaries = [a["summary"] for a in group.get("/activity").get_json()["items"]]
    assert summaries[0].split()[1] == "restored" and summaries[1].split()[1] == "deleted"


def test_a_restore_naming_a_removed_participant_is_participant_gone(group):
    guest = group.guests[1]
    eid = group.add_expense(900, among=[group.me, guest])["expenseId"]
    group.delete(f"/expenses/{eid}")
    # Trashed rows are no references: the guest may go.
    assert group.delete(f"/participants/{guest}").status_code == 204
    reply = group.post(f"/trash/{eid}/restore", {})
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "PARTICIPANT_GONE"
    assert reply.get_json()["error"]["details"]["participantId"] == guest
    assert len(group.get("/trash").get_json()["items"]) == 1  # still there, unchanged
    assert_balance_matches_rows(group.group_id)


def test_after_thirty_days_it_is_gone_and_the_purge_takes_its_comments(group, monkeypatch):
    eid = group.add_expense(900)["expenseId"]
    group.post(f"/expenses/{eid}/comments", {"body": "hello"})
    group.delete(f"/expenses/{eid}")
    _later(monkeypatch, TRASH_KEEP_SECONDS - 60)
    assert len(group.get("/trash").get_json()["items"]) == 1
    _later(monkeypatch, TRASH_KEEP_SECONDS + 1)
    assert group.get("/trash").get_json()["items"] == []
    assert group.post(f"/trash/{eid}/restore", {}).status_code == 404
    assert sweep_orphan_comments()["orphanCommentsDeleted"] == 0  # its row still stands
    assert trash.purge_expired()["trashPurged"] == 1
    assert GroupItem.raw_get(group.group_id, Trashed.sort_key(eid)) is None
    assert sweep_orphan_comments()["orphanCommentsDeleted"] == 1
    assert list(Comment.query(group.group_id)) == []


def test_the_purge_leaves_a_row_that_has_not_expired(group):
    eid = group.add_expense(900)["expenseId"]
    group.delete(f"/expenses/{eid}")
    assert trash.purge_expired()["trashPurged"] == 0
    assert group.post(f"/trash/{eid}/restore", {}).status_code == 200


def test_a_viewer_lists_the_trash_but_cannot_restore(group, client, sign_in):
    from tests.ledger.helpers import join_directly
    headers, user_id = sign_in("vera@example.com")
    join_directly(group.group_id, user_id, "VIEWER", "Vera")
    eid = group.add_expense(900)["expenseId"]
    group.delete(f"/expenses/{eid}")
    assert client.get(f"{group.base}/trash", headers=headers).status_code == 200
    assert client.post(f"{group.base}/trash/{eid}/restore", json={},
                       headers=headers).status_code == 403


def test_group_deletion_erases_the_trash_for_good(group):
    eid = group.add_expense(900)["expenseId"]
    group.post(f"/expenses/{eid}/comments", {"body": "gone"})
    group.delete(f"/expenses/{eid}")
    assert group.client.delete(group.base, headers=group.headers).status_code == 204
    assert list(GroupItem.query(group.group_id)) == []
