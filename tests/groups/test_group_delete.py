"""DELETE /groups/{groupId}: tombstone, resumable sweep, head last."""
from __future__ import annotations

import pytest

from models import base as model_base
from models import pynamodb_adapter
from app.groups import delete as group_delete
from models.groups import Comment, Group, GroupItem, Participant
from tests.support.lambda_context import lambda_context


def rows_of(gid: str) -> list:
    return [row.SK for row in GroupItem.query(gid, consistent_read=True)]


def add_filler_rows(gid: str, count: int) -> None:
    for i in range(count):
        Comment(gid, Comment.sort_key("e" * 8, f"2026-01-01T00:00:{i:02d}.000Z", f"c{i}"),
                CommentId=f"c{i}", AuthorUserId="u", Body="hi").save()


def test_owner_deletes_group_and_every_row_goes(client, owner, join, add_guest):
    member = join("mia@example.com")
    add_guest()
    reply = client.delete(f"/groups/{owner.gid}", headers=owner.headers)
    assert reply.status_code == 204
    assert rows_of(owner.gid) == []
    for headers in (owner.headers, member.headers):
        assert client.get(f"/groups/{owner.gid}", headers=headers).status_code == 404
        assert client.get("/users/me/groups", headers=headers).get_json()["items"] == []


def test_member_may_not_delete_group(client, owner, join):
    member = join("mia@example.com")
    assert client.delete(f"/groups/{owner.gid}", headers=member.headers).status_code == 403
    assert client.get(f"/groups/{owner.gid}", headers=owner.headers).status_code == 200


def test_non_member_deleting_group_gets_not_found(client, owner, sign_in):
    headers, _ = sign_in("stranger@example.com")
    assert client.delete(f"/groups/{owner.gid}", headers=headers).status_code == 404


def test_deleting_twice_is_not_found(client, owner):
    assert client.delete(f"/groups/{owner.gid}", headers=owner.headers).status_code == 204
    assert client.delete(f"/groups/{owner.gid}", headers=owner.headers).status_code == 404


def test_interrupted_sweep_leaves_group_gone_and_a_rerun_finishes(client, owner, join):
    member = join("mia@example.com")
    add_filler_rows(owner.gid, 30)
    group_delete.tombstone(owner.gid)

    def crash(pages):
        if pages == 2:
            raise RuntimeError("Lambda killed mid-sweep")

    with pytest.raises(RuntimeError):
        group_delete.sweep(owner.gid, page_size=7, after_page=crash)
    left = rows_of(owner.gid)
    assert "META" in left and len(left) > 5  # partly swept, head still there
    for headers in (owner.headers, member.headers):
        assert client.get(f"/groups/{owner.gid}", headers=headers).status_code == 404
        assert client.get(f"/groups/{owner.gid}/participants", headers=headers).status_code == 404
        assert client.get("/users/me/groups", headers=headers).get_json()["items"] == []

    assert group_delete.sweep(owner.gid, page_size=7) is True
    assert rows_of(owner.gid) == []
    assert group_delete.sweep(owner.gid) is True  # idempotent once finished


def test_sweep_stops_at_page_budget_and_resumes(owner):
    add_filler_rows(owner.gid, 20)
    group_delete.tombstone(owner.gid)
    assert group_delete.sweep(owner.gid, page_size=5, max_pages=1) is False
    assert "META" in rows_of(owner.gid)
    assert group_delete.sweep(owner.gid, page_size=5) is True
    assert rows_of(owner.gid) == []


def test_delete_over_request_budget_answers_accepted(client, owner, monkeypatch):
    add_filler_rows(owner.gid, 12)
    monkeypatch.setattr(group_delete, "REQUEST_PAGE_BUDGET", 1)
    monkeypatch.setattr(group_delete, "QUERY_PAGE_SIZE", 4)
    reply = client.delete(f"/groups/{owner.gid}", headers=owner.headers)
    assert reply.status_code == 202
    assert client.get(f"/groups/{owner.gid}", headers=owner.headers).status_code == 404
    assert group_delete.sweep(owner.gid) is True
    assert rows_of(owner.gid) == []


def test_unprocessed_batch_items_are_retried(owner, monkeypatch):
    add_filler_rows(owner.gid, 3)
    group_delete.tombstone(owner.gid)
    connection = pynamodb_adapter.table_connection(GroupItem)
    real = connection.batch_write_item
    calls = []

    def flaky(delete_items):
        calls.append(len(delete_items))
        if len(calls) == 1:  # DynamoDB accepts only the first item this time
            real(delete_items=delete_items[:1])
            return {"UnprocessedItems": {GroupItem.Meta.table_name: [
                {"DeleteRequest": {"Key": key}} for key in delete_items[1:]]}}
        return real(delete_items=delete_items)

    monkeypatch.setattr(connection, "batch_write_item", flaky)
    monkeypatch.setattr(model_base.time, "sleep", lambda seconds: None)
    assert group_delete.sweep(owner.gid) is True
    assert calls[:2] == [calls[0], calls[0] - 1]
    assert rows_of(owner.gid) == []


def test_sweep_refuses_a_live_group(owner):
    with pytest.raises(ValueError):
        group_delete.sweep(owner.gid)
    assert Participant.get(owner.gid, Participant.sort_key(owner.pid))


def test_tombstone_of_missing_group_is_not_found(aws):
    from app.errors import NotFound
    with pytest.raises(NotFound):
        group_delete.tombstone("00000000-0000-4000-8000-000000000000")
    with pytest.raises(Group.DoesNotExist):
        Group.get(*Group.key("00000000-0000-4000-8000-000000000000"))


def test_maintenance_resumes_an_unfinished_delete_once_it_is_due(client, owner, monkeypatch):
    import json
    from pathlib import Path

    from app.handlers import maintenance

    add_filler_rows(owner.gid, 12)
    monkeypatch.setattr(group_delete, "REQUEST_PAGE_BUDGET", 1)
    monkeypatch.setattr(group_delete, "QUERY_PAGE_SIZE", 4)
    assert client.delete(f"/groups/{owner.gid}", headers=owner.headers).status_code == 202
    event = json.loads((Path(__file__).parents[2] / "events/schedule_maintenance.json").read_text())
    # Not due yet: the request's own sweep gets a head start.
    assert maintenance.lambda_handler(event, lambda_context())["resumedGroupDeletes"] == 0
    assert "META" in rows_of(owner.gid)
    monkeypatch.setattr(group_delete, "now_iso", lambda: "2999-01-01T00:00:00.000Z")
    result = maintenance.lambda_handler(event, lambda_context())  # the other sweeps report beside it
    assert (result["resumedGroupDeletes"], result["unfinishedGroupDeletes"]) == (1, 0)
    assert rows_of(owner.gid) == []


def test_live_groups_are_never_listed_as_pending_deletes(owner):
    assert list(Group.pending_deletes("2999-01-01T00:00:00.000Z")) == []


def test_a_maintenance_run_resumes_a_bounded_number_of_deletes_and_pages(owner, monkeypatch):
    """Per run: at most RESUME_LIMIT groups and RESUME_PAGES pages each; an unfinished one
    goes to the back of the due index, and later runs finish it."""
    add_filler_rows(owner.gid, 12)
    group_delete.tombstone(owner.gid)
    monkeypatch.setattr(group_delete, "QUERY_PAGE_SIZE", 4)
    monkeypatch.setattr(group_delete, "RESUME_PAGES", 1)
    monkeypatch.setattr(group_delete, "RESUME_LIMIT", 1)
    monkeypatch.setattr(group_delete, "now_iso", lambda: "2999-01-01T00:00:00.000Z")
    before = Group.get(*Group.key(owner.gid)).NextRunAt

    assert group_delete.resume_pending_deletes() == {"resumedGroupDeletes": 0,
                                                     "unfinishedGroupDeletes": 1}
    assert "META" in rows_of(owner.gid) and len(rows_of(owner.gid)) > 4
    assert Group.get(*Group.key(owner.gid)).NextRunAt > before  # to the back of the queue
    runs = 1
    while rows_of(owner.gid):
        group_delete.resume_pending_deletes()
        runs += 1
        assert runs < 20
    assert runs > 2
