"""Expense comments: list, add (with @handle mentions), edit by the author, delete.

A comment row hangs off its expense through the sort key only
(``EXPENSE#<eid>#1#COMMENT#<createdAt>#<cid>``). Adding one also bumps a counter on the
expense head in the same transaction, so a concurrent expense delete (which conditions on
that counter) can never leave the new comment orphaned."""
from __future__ import annotations

import re
from typing import Iterable, Optional


from app.limits import MAX_COMMENT_BODY
from app.errors import Forbidden, Invalid, not_found
from app.core import changelog, outbox, paging
from app.core.access import Access, require_role
from app.core.clock import new_id, now_iso
from app.ledger import guards as money_guards
from app.ledger.expenses import thread_page
from app.core.transactions import Transaction
from models.groups import (COMMENT_SEGMENT, EXPENSE_PREFIX, USERMEMBER_PREFIX, Comment, Expense,
                           GroupItem, UserMember)
from models.people import HandleClaim

# Each mention is one outbox row in the comment's transaction (at most 100 items).
MAX_MENTIONS = 20
_HANDLE = re.compile(r"(?<![\w@])@([a-z0-9_]{3,30})(?![\w])", re.IGNORECASE)


def _checked_body(body: str) -> str:
    if not isinstance(body, str) or not body.strip() or len(body) > MAX_COMMENT_BODY:
        raise Invalid(f"body must be 1-{MAX_COMMENT_BODY} characters.",
                      details={"body": [f"Must be 1-{MAX_COMMENT_BODY} characters, not blank."]})
    return body


def mentioned_users(group_id: str, body: str, *, actor_user_id: str) -> set:
    """User ids of ``@handle`` mentions in ``body`` who are USER participants of the group."""
    handles = []
    for match in _HANDLE.finditer(body):
        handle = match.group(1).lower()
        if handle not in handles:
            handles.append(handle)
    handles = handles[:MAX_MENTIONS]
    if not handles:
        return set()
    claimed = {claim.UserId for claim in HandleClaim.batch_get(
        [HandleClaim.key(handle) for handle in handles])}
    claimed.discard(actor_user_id)
    if not claimed:
        return set()
    # The USERMEMBER guard row exists exactly for the group's USER participants.
    guards = GroupItem.batch_get([(group_id, UserMember.sort_key(uid)) for uid in claimed],
                                 consistent_read=True)
    return {row.SK[len(USERMEMBER_PREFIX):] for row in guards if isinstance(row, UserMember)}


def _add_mention_events(tx: Transaction, access: Access, comment_id: str, expense_id: str,
                        user_ids: Iterable[str]) -> None:
    for user_id in sorted(user_ids):
        outbox.add_event(tx, "MENTION", scope_id=access.group_id, resource_id=comment_id,
                         revision=user_id, actor_user_id=access.user_id,
                         group_id=access.group_id, recipients={user_id},
                         payload={"expenseId": expense_id})


def add_comment(access: Access, expense_id: str, body: str) -> Comment:
    """Add a comment; COMMENT_ADDED and one MENTION per mentioned member ride along."""
    body = _checked_body(body)
    comment_id, now = new_id(), now_iso()
    mentions = mentioned_users(access.group_id, body, actor_user_id=access.user_id)
    comment = Comment(access.group_id, Comment.sort_key(expense_id, now, comment_id),
                      CommentId=comment_id, AuthorUserId=access.user_id,
                      AuthorParticipantId=access.participant_id, Body=body,
                      Mentions=mentions or None, CreatedAt=now)
    tx = Transaction()
    # still a participant when the comment lands: the roster read after the head, and the
    # head's roster version in the change log's update (account deletion moves it too)
    money_guards.check_commenter(tx, access)
    tx.update(Expense(access.group_id, Expense.sort_key(expense_id)),
              [Expense.CommentSeq.add(1)], condition=Expense.SK.exists(),
              on_fail=not_found("Expense"))
    tx.put(comment, condition=Comment.SK.does_not_exist())
    outbox.add_event(tx, "COMMENT_ADDED", scope_id=access.group_id, resource_id=comment_id,
                     actor_user_id=access.user_id, group_id=access.group_id,
                     payload={"expenseId": expense_id})
    _add_mention_events(tx, access, comment_id, expense_id, mentions)
    changelog.record(tx, access.group, comment, changelog.CREATE, actor=access.participant_id)
    money_guards.commit_comment(tx, access.group)
    return comment


def comments_prefix(expense_id: str) -> str:
    return f"{EXPENSE_PREFIX}{expense_id}{COMMENT_SEGMENT}"


def find_comment(group_id: str, expense_id: str, comment_id: str) -> Comment:
    """A comment of this expense by id (its createdAt is unknown), or NotFound.

    A filtered Query over the thread, paging past pages the filter leaves empty."""
    rows = Comment.query(group_id, Comment.SK.startswith(comments_prefix(expense_id)),
                         filter_condition=Comment.CommentId == comment_id,
                         consistent_read=True)
    for row in rows:
        return row
    raise not_found("Comment")


def list_comments(access: Access, expense_id: str, *, limit: Optional[int],
                  cursor: Optional[str], scope: str) -> dict:
    """Oldest first; the first page also proves the expense exists (its head leads the thread)."""
    start = paging.decode(cursor, scope)
    size = paging.clamp_limit(limit)
    rows = thread_page(access.group_id, expense_id, limit=size if start else size + 1,
                       start_key=start)
    items, saw_head = [], False
    for row in rows:
        if isinstance(row, Expense):
            saw_head = True
        elif isinstance(row, Comment):
            items.append(row)
    if start is None and not saw_head:
        raise not_found("Expense")
    return paging.Page(items, paging.encode(rows.last_evaluated_key, scope)).as_dict()


def edit_comment(access: Access, expense_id: str, comment_id: str, body: str) -> Comment:
    """The author rewrites a comment; users mentioned for the first time get MENTION events.

    Mentions keeps every user ever notified (MENTION event ids are per comment and user,
    created once), so an edit never notifies anyone twice."""
    body = _checked_body(body)
    comment = find_comment(access.group_id, expense_id, comment_id)
    if comment.AuthorUserId != access.user_id:
        raise Forbidden("Only the author may edit a comment.")
    known = set(comment.Mentions or ())
    new = mentioned_users(access.group_id, body, actor_user_id=access.user_id) - known
    actions = [Comment.Body.set(body), Comment.EditedAt.set(now_iso())]
    if new:
        actions.append(Comment.Mentions.set(known | new))
    tx = Transaction()
    require_role(tx, access, "VIEWER")
    tx.update(comment, actions,
              condition=Comment.SK.exists() & (Comment.AuthorUserId == access.user_id),
              on_fail=not_found("Comment"))
    _add_mention_events(tx, access, comment_id, expense_id, new)
    changelog.record(tx, access.group, comment, actor=access.participant_id)
    tx.commit()
    return find_comment(access.group_id, expense_id, comment_id)


def delete_comment(access: Access, expense_id: str, comment_id: str) -> None:
    """The author, or an OWNER, deletes a comment."""
    comment = find_comment(access.group_id, expense_id, comment_id)
    if comment.AuthorUserId != access.user_id and not access.at_least("OWNER"):
        raise Forbidden("Only the author or an owner may delete a comment.")
    tx = Transaction()
    # An owner deleting someone else's comment must still be an owner at commit.
    require_role(tx, access, "VIEWER" if comment.AuthorUserId == access.user_id else "OWNER")
    tx.delete(comment, condition=Comment.SK.exists(), on_fail=not_found("Comment"))
    changelog.record(tx, access.group, comment, changelog.DELETE, actor=access.participant_id)
    tx.commit()
