"""POST /realtime/token: the token and where to use it."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import List, Mapping

from app.services.realtime import tokens


@dataclass(frozen=True)
class Issued:
    endpoint: str
    url: str
    host: str
    token: str
    expires_at: str
    channels: List[str]


def issue(user_id: str, env: Mapping[str, str] = os.environ) -> Issued:
    """REALTIME_ENDPOINT is the Event API's Dns.Realtime in AWS and local mode's server
    (``python -m app serve`` sets it, with REALTIME_SCHEME=ws); the header auth's host is
    the API's Dns.Http (AppSync checks it), the same server locally."""
    token, grant = tokens.mint(user_id)
    endpoint = env.get("REALTIME_ENDPOINT") or "localhost"
    scheme = env.get("REALTIME_SCHEME") or "wss"
    expires = datetime.fromtimestamp(grant.expires_at, timezone.utc)
    return Issued(endpoint, f"{scheme}://{endpoint}/event/realtime",
                  env.get("REALTIME_HTTP_ENDPOINT") or endpoint, token,
                  expires.strftime("%Y-%m-%dT%H:%M:%S.000Z"), grant.channels)
