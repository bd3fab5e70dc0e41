"""Comments: one thread Query, author rights, owner deletes, @handle mentions, outbox rows."""
from __future__ import annotations

from models.groups import Comment
from models.notifications import Event
from models.people import HandleClaim
from tests.ledger.helpers import join_directly


def _thread(ctx, expense):
    return f"/expenses/{expense['expenseId']}/comments"


def _event(event_id: str):
    try:
        return Event.get(*Event.key(event_id))
    except Event.DoesNotExist:
        return None


def test_expense_read_returns_head_then_comments_in_order(group):
    expense = group.add_expense()
    for text in ("one", "two", "three"):
        assert group.post(_thread(group, expense), {"body": text}).status_code == 201
    detail = group.get(f"/expenses/{expense['expenseId']}").get_json()
    assert [c["body"] for c in detail["comments"]] == ["one", "two", "three"]
    assert detail["commentsNextCursor"] is None
    listed = group.get(_thread(group, expense)).get_json()
    assert [c["body"] for c in listed["items"]] == ["one", "two", "three"]


def test_comment_added_event_is_written_with_the_comment(group):
    expense = group.add_expense()
    comment = group.post(_thread(group, expense), {"body": "hi"}).get_json()
    event = _event(f"COMMENT_ADDED#{group.group_id}#{comment['commentId']}")
    assert event is not None and event.ActorUserId == group.user_id


def test_long_thread_continues_from_the_expense_read_into_the_comment_list(group):
    from tests.ledger.test_expense_delete import seed_comments
    expense = group.add_expense()
    seed_comments(group.group_id, expense["expenseId"], 130, author=group.user_id)
    detail = group.get(f"/expenses/{expense['expenseId']}").get_json()
    assert len(detail["comments"]) == 100
    rest = group.get(f"{_thread(group, expense)}?cursor={detail['commentsNextCursor']}&limit=100")
    assert rest.status_code == 200
    bodies = [c["body"] for c in detail["comments"] + rest.get_json()["items"]]
    assert bodies == [f"comment {i:05d}" for i in range(130)]


def test_comments_on_a_missing_expense_are_404(group):
    missing = "00000000-0000-4000-8000-000000000000"
    assert group.post(f"/expenses/{missing}/comments", {"body": "x"}).status_code == 404
    assert group.get(f"/expenses/{missing}/comments").status_code == 404
    assert not list(Comment.query(group.group_id))


def test_viewer_may_comment_and_only_the_author_may_edit(group, client, sign_in):
    headers, viewer = sign_in("viewer@example.com")
    join_directly(group.group_id, viewer, "VIEWER")
    expense = group.add_expense()
    path = f"{group.base}{_thread(group, expense)}"
    mine = client.post(path, json={"body": "viewer says"}, headers=headers)
    assert mine.status_code == 201
    comment_id = mine.get_json()["commentId"]
    edited = client.patch(f"{path}/{comment_id}", json={"body": "edited"}, headers=headers)
    assert edited.status_code == 200
    assert edited.get_json()["body"] == "edited" and edited.get_json()["editedAt"]
    assert group.patch(f"{_thread(group, expense)}/{comment_id}",
                       {"body": "owner rewrite"}).status_code == 403


def test_author_or_owner_deletes_but_another_member_cannot(group, client, sign_in):
    headers, member = sign_in("member@example.com")
    join_directly(group.group_id, member, "MEMBER")
    expense = group.add_expense()
    path = f"{group.base}{_thread(group, expense)}"
    by_owner = group.post(_thread(group, expense), {"body": "owner's"}).get_json()["commentId"]
    by_member = client.post(path, json={"body": "member's"}, headers=headers).get_json()
    assert client.delete(f"{path}/{by_owner}", headers=headers).status_code == 403
    assert client.delete(f"{path}/{by_member['commentId']}", headers=headers).status_code == 204
    other = client.post(path, json={"body": "again"}, headers=headers).get_json()["commentId"]
    assert group.delete(f"{_thread(group, expense)}/{other}").status_code == 204
    assert group.delete(f"{_thread(group, expense)}/{other}").status_code == 404
    assert [c["body"] for c in group.get(_thread(group, expense)).get_json()["items"]] == [
        "owner's"]


def test_mentions_notify_only_users_of_the_group_once_each(group, sign_in):
    _, member = sign_in("bob@example.com")
    _, outsider = sign_in("carol@example.com")
    join_directly(group.group_id, member, "MEMBER")
    HandleClaim(*HandleClaim.key("bob"), UserId=member).save()
    HandleClaim(*HandleClaim.key("carol"), UserId=outsider).save()
    HandleClaim(*HandleClaim.key("owner"), UserId=group.user_id).save()
    expense = group.add_expense()
    reply = group.post(_thread(group, expense),
                       {"body": "@Bob @carol @owner @nobody mail@bob.com"})
    comment = reply.get_json()
    assert comment["mentions"] == [member]
    cid = comment["commentId"]
    event = _event(f"MENTION#{group.group_id}#{cid}#{member}")
    assert event is not None and event.Recipients == {member}
    assert _event(f"MENTION#{group.group_id}#{cid}#{outsider}") is None
    edited = group.patch(f"{_thread(group, expense)}/{cid}", {"body": "still @bob"})
    assert edited.status_code == 200 and edited.get_json()["mentions"] == [member]


def test_comment_bodies_are_validated(group):
    expense = group.add_expense()
    assert group.post(_thread(group, expense), {"body": ""}).status_code == 400
    assert group.post(_thread(group, expense), {"body": "x" * 2001}).status_code == 400
    assert group.post(_thread(group, expense), {"body": "   "}).status_code == 400
