"""RateLimits: fixed-window counters keyed by subject and window; TTL reaps old windows."""
from __future__ import annotations

from pynamodb.attributes import DiscriminatorAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.models import Model

from models.base import table

# Whose counter: an app sign-in's user, a personal access token, an MCP grant, or a client
# address (requests without a credential, and failed sign-ins).
USER_SUBJECT = "USER"
PAT_SUBJECT = "PAT"
MCP_SUBJECT = "MCP"
IP_SUBJECT = "IP"
# An OAuth client's requests (registration, code exchange) or one grant's refreshes: hosts
# such as Claude and ChatGPT call from shared address ranges, so these are not per address.
OAUTH_SUBJECT = "OAUTH"


@table("rate-limits")
class RateLimitItem(Model):
    """Every RateLimits row."""

    class Meta:
        table_name = "rate-limits"

    Key = UnicodeAttribute(hash_key=True)
    EntityType = DiscriminatorAttribute()
    ExpiresAt = NumberAttribute(null=True)  # TTL (unix seconds)


class RateCounter(RateLimitItem, discriminator="COUNTER"):
    """Requests seen for one subject in one window."""

    Count = NumberAttribute(default=0)

    @staticmethod
    def key(subject: str, window: str) -> str:
        return f"{subject}#{window}"

    @staticmethod
    def subject(kind: str, who: str) -> str:
        """``<kind>#<who>``: ``USER#<userId>``, ``PAT#<tokenId>``, ``MCP#<grantId>`` or
        ``IP#<address>``."""
        return f"{kind}#{who}"
