"""POST /realtime/token: the token and where to use it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import List, Optional

from app import config
from app.config import Settings
from app.auth.principal import LinkSession
from app.core.access import authorize_link
from app.realtime import tokens
from app.realtime.channels import group_channel


@dataclass(frozen=True)
class Issued:
    endpoint: str
    url: str
    host: str
    token: str
    expires_at: str
    channels: List[str]


def issue(user_id: str, settings: Optional[Settings] = None, *,
          link: Optional[LinkSession] = None) -> Issued:
    """The realtime endpoint is the Event API's Dns.Realtime in AWS (REALTIME_ENDPOINT) and
    local mode's server (``python -m app serve`` installs it, with the ws scheme); the header
    auth's host is the API's Dns.Http (AppSync checks it), the same server locally.

    A share-link session (``link``) gets its own group's channel only, and no longer than
    the session lasts; its link is checked now (a revoked one is 401 here, as on any route),
    and again at every connect and subscribe (app.realtime.admission)."""
    settings = settings or config.current()
    if link is None:
        token, grant = tokens.mint(user_id)
    else:
        authorize_link(link, user_id, link.group_id)
        token, grant = tokens.mint(user_id, channels=[group_channel(link.group_id)],
                                   ends_by=link.expires_at)
    endpoint = settings.realtime_endpoint or "localhost"
    expires = datetime.fromtimestamp(grant.expires_at, timezone.utc)
    return Issued(endpoint, f"{settings.realtime_scheme}://{endpoint}/event/realtime",
                  settings.realtime_http_endpoint or endpoint, token,
                  expires.strftime("%Y-%m-%dT%H:%M:%S.000Z"), grant.channels)
