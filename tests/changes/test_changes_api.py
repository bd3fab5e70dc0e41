"""The change feed, the activity feed, revisions on the home screen and conditional reads."""
from __future__ import annotations

from tests.changes.conftest import current_revision
from tests.ledger.helpers import equal_body


def test_a_new_group_logs_every_change_from_revision_one(group):
    # the head, the owner, two guests
    feed = group.get("/changes").get_json()
    assert feed["reset"] is False and feed["revision"] == 4
    assert [(c["revision"], c["kind"], c["op"]) for c in feed["changes"]] == [
        (1, "GROUP", "UPSERT"), (2, "PARTICIPANT", "UPSERT"), (3, "PARTICIPANT", "UPSERT"),
        (4, "PARTICIPANT", "UPSERT")]
    assert feed["changes"][0]["data"]["groupId"] == group.group_id
    assert feed["changes"][1]["data"]["participantId"] == group.me


def test_every_write_raises_the_revision_by_exactly_one(group):
    before = current_revision(group)
    expense = group.add_expense(3000, description="Pizza")
    assert current_revision(group) == before + 1
    group.patch(f"/expenses/{expense['expenseId']}", {"version": 1, "description": "Pasta"})
    comment = group.post(f"/expenses/{expense['expenseId']}/comments", {"body": "yum"})
    assert comment.status_code == 201
    group.delete(f"/expenses/{expense['expenseId']}")
    assert current_revision(group) == before + 4


def test_a_page_names_each_id_once_with_its_current_data(group):
    since = current_revision(group)
    expense = group.add_expense(3000, description="Pizza")
    group.patch(f"/expenses/{expense['expenseId']}", {"version": 1, "description": "Pasta"})
    feed = group.get("/changes", query_string={"since": since}).get_json()
    assert len(feed["changes"]) == 1
    change = feed["changes"][0]
    assert (change["kind"], change["id"], change["op"]) == ("EXPENSE", expense["expenseId"],
                                                            "UPSERT")
    assert change["data"]["description"] == "Pasta" and change["data"]["version"] == 2
    assert feed["nextSince"] == since + 2 and feed["hasMore"] is False


def test_a_deleted_resource_comes_back_as_delete_with_null_data(group):
    expense = group.add_expense(3000)
    since = current_revision(group)
    group.delete(f"/expenses/{expense['expenseId']}")
    feed = group.get("/changes", query_string={"since": since}).get_json()
    assert [(c["kind"], c["op"], c["data"]) for c in feed["changes"]] == [("EXPENSE", "DELETE",
                                                                          None)]


def test_pages_follow_next_since(group):
    for n in range(3):
        group.add_expense(100 + n)
    since, seen = 4, []
    while True:
        feed = group.get("/changes", query_string={"since": since, "limit": 2}).get_json()
        seen += [c["revision"] for c in feed["changes"]]
        since = feed["nextSince"]
        if not feed["hasMore"]:
            break
    assert seen == [5, 6, 7]


def test_since_ahead_of_the_log_is_a_reset(group):
    feed = group.get("/changes", query_string={"since": 99}).get_json()
    assert feed["reset"] is True and feed["changes"] == [] and feed["revision"] == 4


def test_activity_reads_as_sentences_with_per_field_diffs(group):
    expense = group.add_expense(3000, description="Pizza")
    group.patch(f"/expenses/{expense['expenseId']}",
                {"version": 1, "description": "Pasta", "date": "2026-11-29"})
    items = group.get("/activity").get_json()["items"]
    assert items[1]["summary"] == "ann added Pizza (€30.00)"
    edit = items[0]
    assert edit["summary"] == "ann edited Pasta (€30.00)"
    assert edit["actor"] == {"participantId": group.me, "displayName": "ann"}
    assert {d["field"]: (d["before"], d["after"]) for d in edit["diff"]} == {
        "description": ("Pizza", "Pasta"), "date": ("2026-11-28", "2026-11-29")}


def test_an_edit_of_the_money_lists_amount_and_splits(group):
    expense = group.add_expense(3000)
    body = equal_body(group.me, 4500, group.everyone)
    group.patch(f"/expenses/{expense['expenseId']}", {"version": 1, **body})
    fields = {d["field"] for d in group.get("/activity").get_json()["items"][0]["diff"]}
    assert {"amount", "payments", "items"} <= fields


def test_home_items_carry_thecurrent_revision(group):
    group.add_expense(3000)
    items = group.client.get("/users/me/groups", headers=group.headers).get_json()["items"]
    assert [item["revision"] for item in items] == [5]


def test_group_reads_send_a_weak_etag_of_the_revision_and_honour_it(group):
    paths = ["", "/balances", "/expenses", "/settlements", "/participants"]
    tags = {}
    for path in paths:
        reply = group.get(path)
        tag = reply.headers["ETag"]
        assert reply.status_code == 200 and tag.startswith('W/"'), path
        assert reply.headers["Cache-Control"] == "private, no-cache", path
        assert "Authorization" in reply.headers["Vary"], path
        tags[path] = tag
        again = group.client.get(group.base + path,
                                 headers={**group.headers, "If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"", path
        assert again.headers["ETag"] == tag, path
        assert again.headers["Cache-Control"] == "private, no-cache", path
    assert len(set(tags.values())) == len(paths)  # each read has its own tag
    group.add_expense(100)
    for path in paths:
        fresh = group.client.get(group.base + path,
                                 headers={**group.headers, "If-None-Match": tags[path]})
        assert fresh.status_code == 200 and fresh.headers["ETag"] != tags[path], path


def test_an_etag_depends_on_the_caller_and_the_query(group, sign_in):
    """Replies carry per-caller fields (myRole): another member's tag, or another query's,
    never earns a 304 on a copy that is not theirs."""
    other, _ = sign_in("bea@example.com", display_name="Bea")
    code = group.get("/invite").get_json()["code"]
    request = group.client.post(f"{group.base}/join-requests", json={"code": code, "mode": "NEW"},
                                headers=other).get_json()
    approved = group.post(f"/join-requests/{request['requestId']}/approve", {"role": "VIEWER"})
    assert approved.status_code == 200, approved.get_json()
    mine = group.get("").headers["ETag"]
    theirs = group.client.get(group.base, headers=other)
    assert theirs.status_code == 200 and theirs.headers["ETag"] != mine
    borrowed = group.client.get(group.base, headers={**other, "If-None-Match": mine})
    assert borrowed.status_code == 200 and borrowed.get_json()["myRole"] == "VIEWER"
    listed = group.get("/expenses", query_string={"limit": 5}).headers["ETag"]
    other_query = group.client.get(f"{group.base}/expenses", query_string={"limit": 6},
                                   headers={**group.headers, "If-None-Match": listed})
    assert other_query.status_code == 200
    same_query = group.client.get(f"{group.base}/expenses", query_string={"limit": 5},
                                  headers={**group.headers, "If-None-Match": listed})
    assert same_query.status_code == 304


def test_change_rows_expire_after_90_days_through_the_table_ttl(group):
    import time

    from app.local.template_tables import ttl_attributes
    from models.groups import Change

    assert ttl_attributes("test")["groups"] == "ExpiresAt"
    rows = list(Change.after(group.group_id, 0, consistent_read=True))
    assert rows and all(abs(int(row.ExpiresAt) - (time.time() + 90 * 86400)) < 600
                        for row in rows)


def test_one_expense_read_is_conditional_too(group):
    expense = group.add_expense(100)
    path = f"{group.base}/expenses/{expense['expenseId']}"
    tag = group.client.get(path, headers=group.headers).headers["ETag"]
    assert tag.startswith('W/"')
    reply = group.client.get(path, headers={**group.headers, "If-None-Match": tag})
    assert reply.status_code == 304


def test_removing_a_guest_reads_as_a_delete_and_a_sentence(group):
    since = current_revision(group)
    assert group.delete(f"/participants/{group.guests[1]}").status_code == 204
    feed = group.get("/changes", query_string={"since": since}).get_json()
    assert [(c["kind"], c["id"], c["op"], c["data"]) for c in feed["changes"]] == [
        ("PARTICIPANT", group.guests[1], "DELETE", None)]
    assert group.get("/activity").get_json()["items"][0]["summary"] == \
        "ann removed a former participant"


def test_a_group_older_than_the_log_resets_once_then_syncs_from_one(group):
    from models.groups import CHANGE_PREFIX, Group, GroupItem

    # As the group would be had it been created before the log: no Revision, no rows.
    Group(*Group.key(group.group_id)).update(actions=[Group.Revision.remove()])
    for row in GroupItem.query(group.group_id, GroupItem.SK.startswith(CHANGE_PREFIX)):
        row.delete()
    first = group.get("/changes").get_json()
    assert (first["reset"], first["revision"], first["changes"]) == (True, 1, [])
    assert group.get("/changes", query_string={"since": 1}).get_json() == {
        "revision": 1, "changes": [], "nextSince": 1, "hasMore": False, "reset": False}
    expense = group.add_expense(100)
    feed = group.get("/changes", query_string={"since": 1}).get_json()
    assert feed["reset"] is False and feed["revision"] == 2
    assert [(c["revision"], c["id"]) for c in feed["changes"]] == [(2, expense["expenseId"])]


def test_a_conversion_is_a_change_the_feeds_show_and_a_new_etag(group):
    body = {**equal_body(group.me, 900, group.everyone), "currency": "USD"}
    assert group.post("/expenses", body).status_code == 201
    tag = group.get("/balances").headers["ETag"]
    assert group.post("/conversions", {"currency": "USD", "exchangeRate": "0.92"}).status_code == 201

    conditional = {**group.headers, "If-None-Match": tag}
    assert group.client.get(group.base + "/balances", headers=conditional).status_code == 200
    (change,) = [c for c in group.get("/changes", query_string={"since": 5}).get_json()["changes"]]
    assert (change["kind"], change["op"], change["data"]["currency"]) == (
        "CONVERSION", "UPSERT", "USD")
    assert group.get("/activity").get_json()["items"][0]["summary"] == \
        "ann converted the USD balances into EUR at 0.92"


def test_the_creator_joining_reads_as_a_person_would_write_it(group):
    sentences = [e["summary"] for e in group.get("/activity").get_json()["items"]]
    assert sentences[-1].startswith("ann created the group")
    assert sentences[-2] == "ann joined the group"
    assert not any(s == "ann added ann" for s in sentences)


def test_a_deleted_recurring_template_leaves_no_description_in_activity(group):
    from tests.recurring.helpers import template_body

    body = {**template_body(group.me, 2500, group.everyone, start="2030-01-01"),
            "description": "Therapy sessions"}
    reply = group.post("/recurring", body)
    assert reply.status_code == 201, reply.get_json()
    template = reply.get_json()
    assert group.client.delete(f"{group.base}/recurring/{template['recurringId']}",
                               headers=group.headers).status_code == 204
    items = group.get("/activity").get_json()["items"]
    assert "Therapy" not in str(items)
    assert [item["summary"] for item in items[:2]] == [
        "ann deleted the recurring expense",
        "ann added the recurring expense (€25.00)"]


def test_an_edits_diff_is_stored_packed_so_a_six_way_amount_edit_logs_under_one_kb(
        client, sign_in):
    """The CHANGE row rides in the edit's TransactWrite (2 write units per started KB): its
    diff is deflated (models.groups.changes.PackedJSONAttribute), and the feed reads it back
    as it was; a row written before the packing (text ``Diff``) still reads."""
    from bench.dynamo_meter import item_size
    from models.groups import Change
    from tests.ledger.conftest import make_group_ctx

    group = make_group_ctx(client, sign_in, "packer@example.com", guests=5)
    expense = group.add_expense(600)
    body = equal_body(group.me, 606, group.everyone)
    assert group.patch(f"/expenses/{expense['expenseId']}",
                       {"version": 1, **body}).status_code == 200
    [row] = Change.newest_first(group.group_id, limit=1)
    raw = Change.raw_get(group.group_id, row.SK)
    assert "PackedDiff" in raw and "Diff" not in raw
    assert item_size(raw) < 1024
    diff = {d["field"]: d for d in group.get("/activity").get_json()["items"][0]["diff"]}
    assert diff["amount"]["before"] == 600 and diff["amount"]["after"] == 606
    assert len(diff["items"]["after"][0]["splits"]) == 6

    older = Change(group.group_id, Change.sort_key(int(row.Revision) + 1),
                   Revision=int(row.Revision) + 1, Kind="EXPENSE",
                   ResourceId=expense["expenseId"], ResourceKey=row.ResourceKey, Op="UPSERT",
                   Action="UPDATE", ActorParticipantId=group.me, At=row.At, ExpiresAt=1,
                   TextDiff=[{"field": "description", "before": "a", "after": "b"}])
    older.save()
    assert "Diff" in Change.raw_get(group.group_id, older.SK)
    [read] = Change.newest_first(group.group_id, limit=1)
    assert read.edits == [{"field": "description", "before": "a", "after": "b"}]
