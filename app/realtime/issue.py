"""POST /realtime/token: the token and where to use it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import List, Optional

from app import config
from app.config import Settings
from app.realtime import tokens


@dataclass(frozen=True)
class Issued:
    endpoint: str
    url: str
    host: str
    token: str
    expires_at: str
    channels: List[str]


def issue(user_id: str, settings: Optional[Settings] = None) -> Issued:
    """The realtime endpoint is the Event API's Dns.Realtime in AWS (REALTIME_ENDPOINT) and
    local mode's server (``python -m app serve`` installs it, with the ws scheme); the header
    auth's host is the API's Dns.Http (AppSync checks it), the same server locally."""
    settings = settings or config.current()
    token, grant = tokens.mint(user_id)
    endpoint = settings.realtime_endpoint or "localhost"
    expires = datetime.fromtimestamp(grant.expires_at, timezone.utc)
    return Issued(endpoint, f"{settings.realtime_scheme}://{endpoint}/event/realtime",
                  settings.realtime_http_endpoint or endpoint, token,
                  expires.strftime("%Y-%m-%dT%H:%M:%S.000Z"), grant.channels)
