"""Daily and weekly digests, sent by the maintenance schedule (docs/email.md "Digests").

Periods are UTC: a daily digest covers the previous UTC day, a weekly one the previous ISO
week (Monday 00:00 to Monday 00:00 UTC). Each run sends the periods that have ended and are
not yet done; a period is worked through once, subscriber page by subscriber page, with where
it stopped saved after each page (a SweepCursor row), so a run cut short by its deadline or a
crash is resumed by the next one.

Per subscriber and period, in this order:
- the subscriber rows (``DIGEST#<period>#<n>``, written with the preference: no table scan)
  and their profiles (one BatchGetItem per page of 100): an account gone or being deleted
  loses its subscriber row here; an unverified address is skipped;
- a marker row (``DIGEST#<period key>`` in the user's partition) created under
  attribute_not_exists BEFORE anything is read or sent: a retried, resumed or doubled run
  finds it and neither reads nor sends again (at most once: a crash between the marker and
  the send loses that one digest, a failed send removes the marker so the next run tries);
- ONE Query of the user's history rows created in the period (their NOTIF rows: what the
  notification fan-out wrote for them, already in their language). None: nothing changed,
  nothing sent;
- the user's live groups and their balance rows (shared_groups: one index Query and one
  BatchGetItem), which also decide what may be shown: a history row of a group the user has
  left or been removed from is left out, so a digest never carries another group's data;
- what they owe and are owed, by group and by person (my_people over those same groups).

Sends go out one by one within the run's deadline (the Lambda context's remaining time less
a margin, or DEFAULT_BUDGET_S): no send starts after it, and the rest is the next run's."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Dict, List, Optional

from app.core.clock import now_iso
from app.core.conditional import put_if
from app.ledger import balances
from app.logs import logger
from app.notifications import digest_mail, mail
from app.notifications.preferences import PERIODS
from app.people.people_balances import my_people
from app.people.shared_groups import SharedGroup, shared_groups
from models.notifications import (DigestSent, DigestSubscriber, Notification,
                                  NotificationItem, SweepCursor)
from models.users import Profile

PAGE_SIZE = 100
DEFAULT_BUDGET_S = 240.0  # without a caller's deadline (tests, the CLI)
KEEP_MARKERS_DAYS = 15  # past the end of a period: longer than any retry of its run
CURSOR = "digests"


@dataclass(frozen=True)
class Period:
    kind: str  # DAILY | WEEKLY
    start: datetime
    end: datetime  # exclusive

    @property
    def key(self) -> str:
        return DigestSent.period_key(self.kind, self.start.date())

    def iso(self, moment: datetime) -> str:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def last_period(kind: str, now: datetime) -> Period:
    """The latest complete period at ``now`` (UTC): yesterday, or last ISO week."""
    today = datetime.combine(now.astimezone(timezone.utc).date(), datetime.min.time(),
                             tzinfo=timezone.utc)
    if kind == "DAILY":
        return Period(kind, today - timedelta(days=1), today)
    monday = today - timedelta(days=today.weekday())
    return Period(kind, monday - timedelta(days=7), monday)


def _history(user_id: str, period: Period) -> List[Notification]:
    """The user's history rows created in the period: one Query (one page at ~10 rows a
    day; a Query's further pages only past 1 MB)."""
    return list(Notification.created_between(user_id, period.iso(period.start),
                                             period.iso(period.end)))


def _group_nets(group: SharedGroup) -> List[tuple]:
    main, other = balances.split_nets(balances.served_nets(group.balance_raw)[0])
    nets = [(group.currency, main.get(group.participant_id, 0))]
    return nets + [(currency, other[currency].get(group.participant_id, 0))
                   for currency in sorted(other) if other[currency].get(group.participant_id)]


def assemble(user_id: str, period: Period) -> Optional[digest_mail.Digest]:
    """The user's digest of ``period``, or None when nothing changed in their groups."""
    rows = _history(user_id, period)
    if not rows:
        return None
    groups = shared_groups(user_id)
    current: Dict[str, SharedGroup] = {group.group_id: group for group in groups}
    by_group: Dict[str, list] = {}
    for row in rows:  # oldest first; only groups the reader is in now
        if row.GroupId in current:
            by_group.setdefault(row.GroupId, []).append((row.Title, row.Body))
    if not by_group:
        return None
    ordered = sorted(groups, key=lambda g: (g.name.casefold(), g.group_id))
    people = my_people(user_id, groups)
    last_day = (period.end - timedelta(days=1)).date().isoformat()
    return digest_mail.Digest(
        period.kind, period.start.date().isoformat(), last_day,
        changes=[(g.name, by_group[g.group_id]) for g in ordered if g.group_id in by_group],
        by_group=[(g.name, _group_nets(g)) for g in ordered],
        by_person=[(p["displayName"], [(n["currency"], n["net"]) for n in p["nets"]])
                   for p in people if any(n["net"] for n in p["nets"])])


class _Run:
    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.counts = {"digestsSent": 0, "digestsUnchanged": 0, "digestsAlreadySent": 0,
                       "digestsFailed": 0, "digestsSkipped": 0}
        self.more = False

    def out_of_time(self) -> bool:
        if time.monotonic() >= self.deadline:
            self.more = True
        return self.more

    def count(self, name: str) -> None:
        self.counts[name] += 1


def _claim(user_id: str, period: Period) -> bool:
    expires = int((period.end + timedelta(days=KEEP_MARKERS_DAYS)).timestamp())
    marker = DigestSent(*DigestSent.key(user_id, period.key), Period=period.key,
                        CreatedAt=now_iso(), ExpiresAt=expires)
    return put_if(marker, DigestSent.PK.does_not_exist())


def _one(run: _Run, profile: Profile, period: Period) -> None:
    user_id = profile.UserId
    if not (profile.Email and profile.EmailVerified):
        run.count("digestsSkipped")
        return
    if not _claim(user_id, period):
        run.count("digestsAlreadySent")
        return
    try:
        digest = assemble(user_id, period)
        if digest is None:
            run.count("digestsUnchanged")
            return
        message = digest_mail.compose_digest(to=profile.Email, user_id=user_id,
                                             locale=profile.Locale, digest=digest)
        sent = mail.send(message)
    except Exception:
        _release(user_id, period)
        raise
    if sent:
        run.count("digestsSent")
    else:
        _release(user_id, period)
        run.count("digestsFailed")


def _release(user_id: str, period: Period) -> None:
    """Nothing went out: drop the marker so the next run tries again."""
    DigestSent(*DigestSent.key(user_id, period.key)).delete()


def _page(run: _Run, subscribers: List[DigestSubscriber], period: Period) -> bool:
    """Send one page's digests; False when the deadline stopped it part way."""
    profiles = {p.UserId: p for p in Profile.batch_get(
        [Profile.key(s.UserId) for s in subscribers])}
    for subscriber in subscribers:
        if run.out_of_time():
            return False
        profile = profiles.get(subscriber.UserId)
        if profile is None or profile.deleting:  # the account is gone: so is its subscription
            subscriber.delete()
            continue
        try:
            _one(run, profile, period)
        except Exception:  # noqa: BLE001 - one reader's failure must not stop the others
            run.count("digestsFailed")
            logger.exception("digest.failed", extra={"user_id": subscriber.UserId})
    return True


def _cursor_name(period: Period) -> str:
    return f"{CURSOR}#{period.key}"


def _load(period: Period) -> dict:
    row = SweepCursor.from_raw(NotificationItem.raw_get(*SweepCursor.key(_cursor_name(period))))
    return json.loads(row.Position) if row is not None and row.Position else {"shard": 0}


def _save(period: Period, position: dict) -> None:
    expires = int((period.end + timedelta(days=KEEP_MARKERS_DAYS)).timestamp())
    SweepCursor(*SweepCursor.key(_cursor_name(period)),
                Position=json.dumps(position, sort_keys=True), ExpiresAt=expires).save()


def _send_period(run: _Run, period: Period) -> None:
    """Work through ``period``'s subscribers from where the last run stopped."""
    position = _load(period)
    shards = DigestSubscriber.shards(period.kind)
    while not position.get("done"):
        shard, start = position["shard"], position.get("start")
        rows = DigestSubscriber.query(shards[shard], limit=PAGE_SIZE, last_evaluated_key=start)
        page = list(rows)
        if not _page(run, page, period):
            return  # this page again next run: its sent digests' markers skip them
        after = rows.last_evaluated_key
        if after:
            position = {"shard": shard, "start": after}
        elif shard + 1 < len(shards):
            position = {"shard": shard + 1}
        else:
            position = {"done": True}
        if page or position.get("done"):  # an empty shard moves on without a write
            _save(period, position)


def send_digests(*, now: Optional[str] = None, deadline: Optional[float] = None) -> dict:
    """One run: the last complete day's and week's digests, as far as ``deadline`` (a
    ``time.monotonic()`` instant) allows; the rest is the next run's (``moreDigests``)."""
    if not mail.enabled():
        return {"digestsSent": 0, "moreDigests": False}
    moment = (datetime.fromisoformat(now.replace("Z", "+00:00")) if now
              else datetime.now(timezone.utc))
    run = _Run(deadline if deadline is not None else time.monotonic() + DEFAULT_BUDGET_S)
    for kind in PERIODS:
        if run.out_of_time():
            break
        _send_period(run, last_period(kind, moment))
    logger.info("digests.run", extra={**run.counts, "more": run.more})
    return {**run.counts, "moreDigests": run.more}

