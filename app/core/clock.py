"""Time and id sources, in the formats the schema requires."""
from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def now_iso() -> str:
    """ISO 8601 UTC with millisecond precision and a literal Z, so lexical order is time order."""
    return _iso(datetime.now(timezone.utc))


def iso_in(seconds: float) -> str:
    """The same format, ``seconds`` from now."""
    return _iso(datetime.now(timezone.utc) + timedelta(seconds=seconds))


def today() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


def epoch() -> int:
    return int(time.time())


def new_id() -> str:
    """A lowercase UUID v4."""
    return str(uuid.uuid4())
