"""Friends: request, accept, decline/cancel/remove, both sides written in one transaction.

Each side is a ``FRIEND#<other>`` row in its owner's partition: OUTGOING for the requester,
INCOMING for the addressee, ACCEPTED on both once accepted. Every write conditions both
rows on the status it read, so a request racing a request, or an accept racing a cancel,
ends in one consistent pair."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app.errors import concurrent_update, not_found
from app.people.errors import already_friends, friend_request_pending, not_yourself
from app.core import outbox, paging
from app.core.clock import now_iso
from app.core.transactions import Transaction
from models.people import Friendship, PeopleItem
from models.users import Profile

OUTGOING, INCOMING, ACCEPTED = "OUTGOING", "INCOMING", "ACCEPTED"


def _pair(user_id: str, other_id: str) -> tuple:
    """(mine, theirs) from one consistent BatchGetItem; either may be None."""
    mine_key, theirs_key = Friendship.key(user_id, other_id), Friendship.key(other_id, user_id)
    rows = {(r.PK, r.SK): r for r in PeopleItem.batch_get([mine_key, theirs_key],
                                                           consistent_read=True)}
    return rows.get(mine_key), rows.get(theirs_key)


def _require_user(user_id: str) -> Profile:
    try:
        return Profile.get(*Profile.key(user_id))
    except (Profile.DoesNotExist, ValueError):
        raise not_found("User") from None


def _status_is(status: Optional[str]):
    if status is None:
        return Friendship.PK.does_not_exist()
    return Friendship.Status == status


def are_friends(user_id: str, other_id: str) -> bool:
    try:
        row = Friendship.get(*Friendship.key(user_id, other_id), consistent_read=True)
    except Friendship.DoesNotExist:
        return False
    return row.Status == ACCEPTED


def request_friend(user_id: str, other_id: str) -> Friendship:
    """Ask ``other_id`` to be friends. A pending request either way is 409 (an incoming one
    is accepted instead, since both now want it); oneself is 400."""
    if other_id == user_id:
        raise not_yourself()
    _require_user(other_id)
    mine, theirs = _pair(user_id, other_id)
    if mine is not None and mine.Status == INCOMING:
        return accept_friend(user_id, other_id)
    if mine is not None and mine.Status == ACCEPTED:
        raise already_friends()
    if mine is not None or theirs is not None:
        raise friend_request_pending()
    now = now_iso()
    mine = Friendship(*Friendship.key(user_id, other_id), FriendUserId=other_id,
                      Status=OUTGOING, CreatedAt=now, UpdatedAt=now)
    tx = Transaction().require_live_account(user_id)
    tx.require_live_account(other_id, on_fail=not_found("User"))
    tx.put(mine, condition=Friendship.PK.does_not_exist(), on_fail=friend_request_pending())
    tx.put(Friendship(*Friendship.key(other_id, user_id), FriendUserId=user_id,
                      Status=INCOMING, CreatedAt=now, UpdatedAt=now),
           condition=Friendship.PK.does_not_exist(), on_fail=friend_request_pending())
    outbox.add_event(tx, "FRIEND_REQUEST", scope_id=user_id, resource_id=other_id,
                     revision=now, actor_user_id=user_id, recipients={other_id},
                     payload={"fromUserId": user_id})
    tx.commit()
    return mine


def accept_friend(user_id: str, other_id: str) -> Friendship:
    """Accept an incoming request; anything else there is 404 (or 409 if already friends)."""
    mine, _ = _pair(user_id, other_id)
    if mine is None or mine.Status == OUTGOING:
        raise not_found("Friend request")
    if mine.Status == ACCEPTED:
        raise already_friends()
    now = now_iso()
    tx = Transaction().require_live_account(user_id)
    tx.require_live_account(other_id, on_fail=not_found("Friend request"))
    tx.update(Friendship(*Friendship.key(user_id, other_id)),
              [Friendship.Status.set(ACCEPTED), Friendship.UpdatedAt.set(now)],
              condition=_status_is(INCOMING), on_fail=not_found("Friend request"))
    tx.update(Friendship(*Friendship.key(other_id, user_id)),
              [Friendship.Status.set(ACCEPTED), Friendship.UpdatedAt.set(now)],
              condition=_status_is(OUTGOING), on_fail=not_found("Friend request"))
    outbox.add_event(tx, "FRIEND_ACCEPTED", scope_id=user_id, resource_id=other_id,
                     revision=now, actor_user_id=user_id, recipients={other_id},
                     payload={"byUserId": user_id})
    tx.commit()
    mine.Status, mine.UpdatedAt = ACCEPTED, now
    return mine


def remove_friend(user_id: str, other_id: str) -> None:
    """Decline, cancel or unfriend: both rows go, conditioned on the statuses read."""
    mine, theirs = _pair(user_id, other_id)
    if mine is None:
        raise not_found("Friend")
    tx = Transaction()
    tx.delete(Friendship(*Friendship.key(user_id, other_id)),
              condition=_status_is(mine.Status), on_fail=concurrent_update())
    tx.delete(Friendship(*Friendship.key(other_id, user_id)),
              condition=_status_is(theirs.Status if theirs else None),
              on_fail=concurrent_update())
    tx.commit()


def list_friends(user_id: str, *, limit: Optional[int], cursor: Optional[str],
                 scope: str) -> paging.Page:
    """Friends and pending requests both ways, with the other side's current name and handle."""
    rows = Friendship.of(user_id, limit=paging.clamp_limit(limit),
                         last_evaluated_key=paging.decode(cursor, scope))
    page = paging.page_of(rows, scope)
    ids = [row.friend_id for row in page.items]
    profiles = ({p.UserId: p for p in Profile.batch_get([Profile.key(uid) for uid in ids])}
                if ids else {})
    page.items = [Listed(row, profiles.get(row.friend_id)) for row in page.items]
    return page


@dataclass(frozen=True)
class Listed:
    """A friendship row with the other side's profile as it is now (None if gone).

    Attribute reads fall through to the row, which the friend reply schema dumps."""

    row: Friendship
    profile: Optional[Profile]

    @property
    def display_name(self) -> Optional[str]:
        return self.profile.DisplayName if self.profile else None

    @property
    def handle(self) -> Optional[str]:
        return self.profile.Handle if self.profile else None

    def __getattr__(self, name: str):
        return getattr(self.row, name)
