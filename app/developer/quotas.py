"""The rate-limit and developer-budget numbers, from the settings.

Apart from the limiter (app.developer.limits), which needs the rate-limits and
developer-tokens tables: the API reads these numbers at start-up and loads the limiter with the
first request that spends from a window."""
from __future__ import annotations

from typing import NamedTuple

from app.config import Settings

WINDOW_SECONDS = 60


class Limits(NamedTuple):
    # Signed-in app users are limited by the API stage's throttle; a per-user window costs a
    # DynamoDB write on every request (more than most reads it would guard), so it is off
    # unless RATE_LIMIT_APP_PER_MINUTE sets one. Tokens and anonymous callers always are.
    app_per_minute: int = 0
    pat_per_minute: int = 120
    ip_per_minute: int = 120
    oauth_per_minute: int = 120  # per OAuth client (registration, code exchange) or grant
    # Share links (docs/share-links.md): opens, sessions and claims per link and per address.
    link_per_minute: int = 60
    link_ip_per_minute: int = 120
    daily_requests: int = 10_000
    daily_creates: int = 1_000

    @classmethod
    def from_settings(cls, settings: Settings) -> "Limits":
        """The defaults above, with the ones the settings override (RATE_LIMIT_*, DEV_DAILY_*)."""
        return cls(**dict(settings.limit_overrides))
