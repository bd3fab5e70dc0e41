"""When a template's occurrences fall: RFC 5545 rules (python-dateutil) over calendar dates.

Occurrences are calendar dates in the template's IANA time zone, run at local midnight of
that date. Month ends are expressed in the rule itself rather than hand-written arithmetic:
an anchor day d in 29..31 is ``BYMONTHDAY=d,-1;BYSETPOS=1`` (the d-th day, or the last day
of a month too short for it), so every month is computed from the anchor and a short month
never drags the later ones back.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import TYPE_CHECKING, Iterator, Optional

from app.errors import Invalid

if TYPE_CHECKING:
    from dateutil import rrule

FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")  # each names its dateutil.rrule constant
MAX_INTERVAL = 1000
MAX_COUNT = 10000
# The window a new startDate must fall in, counted from today in the template's zone. A
# start in the past is recorded back to it on the first ticks (catch-up), so the window
# bounds that work: one year back covers "this started at my last rent day a year ago"
# (366 days: a year that holds a 29 February); ten years ahead is far beyond any plan and
# keeps every run instant well inside datetime's year range (0001-9999).
START_PAST_DAYS = 366
START_AHEAD_DAYS = 3660


@dataclass(frozen=True)
class Schedule:
    """A template's recurrence: ``frequency`` every ``interval`` from ``start``."""

    frequency: str
    interval: int
    start: date
    end: Optional[date] = None
    count: Optional[int] = None
    time_zone: str = "UTC"

    def rule(self) -> "rrule.rrule":
        # Imported on use, as is zoneinfo below: the API's cold start parses no schedule.
        from dateutil import rrule

        day = self.start.day
        extra = {}
        if self.frequency == "MONTHLY" and day > 28:
            extra = {"bymonthday": (day, -1), "bysetpos": 1}
        elif self.frequency == "YEARLY" and (self.start.month, day) == (2, 29):
            extra = {"bymonth": 2, "bymonthday": (29, -1), "bysetpos": 1}
        until = datetime.combine(self.end, time()) if self.end else None
        frequency = {"DAILY": rrule.DAILY, "WEEKLY": rrule.WEEKLY, "MONTHLY": rrule.MONTHLY,
                     "YEARLY": rrule.YEARLY}[self.frequency]
        return rrule.rrule(frequency, dtstart=datetime.combine(self.start, time()),
                           interval=self.interval, until=until, count=self.count, **extra)

    def first(self) -> Optional[date]:
        return self.on_or_after(self.start)

    def after(self, slot: date) -> Optional[date]:
        """The next occurrence strictly after ``slot`` (None: the schedule has ended)."""
        found = self.rule().after(datetime.combine(slot, time()), inc=False)
        return found.date() if found else None

    def on_or_after(self, day: date) -> Optional[date]:
        found = self.rule().after(datetime.combine(day, time()), inc=True)
        return found.date() if found else None

    def dates(self) -> Iterator[date]:
        return (moment.date() for moment in self.rule())

    def run_at(self, slot: date) -> str:
        """UTC instant of local midnight of ``slot`` in the template's zone (ISO, ms, Z).

        A midnight skipped by a DST jump resolves to the first instant after the gap."""
        local = datetime.combine(slot, time(), tzinfo=_zone(self.time_zone))
        return iso(local.astimezone(timezone.utc))

    def local_today(self, now: datetime) -> date:
        return now.astimezone(_zone(self.time_zone)).date()


def iso(moment: datetime) -> str:
    """The schema's timestamp format: UTC, millisecond precision, literal Z.

    isoformat always writes four year digits (strftime's %Y does not below 1000 on glibc),
    so lexical order stays time order in the due index."""
    utc = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return utc.isoformat(timespec="milliseconds") + "Z"


def window_now() -> datetime:
    """The instant the startDate window is counted from (a seam the tests pin)."""
    return datetime.now(timezone.utc)


def check_start_window(start_date: str, time_zone: str) -> None:
    """A new startDate lies within START_PAST_DAYS before and START_AHEAD_DAYS after today."""
    today = window_now().astimezone(_zone(check_time_zone(time_zone))).date()
    earliest = today - timedelta(days=START_PAST_DAYS)
    latest = today + timedelta(days=START_AHEAD_DAYS)
    if not earliest <= date.fromisoformat(start_date) <= latest:
        message = (f"startDate must be from {earliest.isoformat()} to {latest.isoformat()}: "
                   f"at most {START_PAST_DAYS} days back (missed occurrences are recorded "
                   f"on the next ticks) and {START_AHEAD_DAYS} days ahead.")
        raise Invalid(message, details={"startDate": [message]})


def parse_instant(value: str) -> datetime:
    """An ISO 8601 instant (``Z`` or offset; naive means UTC)."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _zone(name: str):
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def check_time_zone(name: str) -> str:
    from zoneinfo import ZoneInfoNotFoundError

    try:
        _zone(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid("timeZone must be an IANA time zone such as Europe/Paris.",
                      details={"timeZone": ["Unknown time zone."]}) from None
    return name


def build(*, frequency: str, interval: int, start_date: str, end_date: Optional[str] = None,
          count: Optional[int] = None, time_zone: str = "UTC") -> Schedule:
    """A validated Schedule; a schedule with no occurrence at all is Invalid."""
    if frequency not in FREQUENCIES:
        raise Invalid("frequency must be DAILY, WEEKLY, MONTHLY or YEARLY.",
                      details={"frequency": ["Unknown frequency."]})
    if end_date and count:
        raise Invalid("Send endDate or count, not both.",
                      details={"count": ["Not allowed together with endDate."]})
    start = date.fromisoformat(start_date)
    end = date.fromisoformat(end_date) if end_date else None
    if end and end < start:
        raise Invalid("endDate must not be before startDate.",
                      details={"endDate": ["Must not be before startDate."]})
    schedule = Schedule(frequency, int(interval), start, end, count, check_time_zone(time_zone))
    if schedule.first() is None:
        raise Invalid("This schedule has no occurrence.", details={"endDate": ["No occurrence."]})
    return schedule
