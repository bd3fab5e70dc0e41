"""RateLimits: fixed-window counters keyed by subject and window, and one-per-interval markers;
TTL reaps both (reads check ExpiresAt too, TTL deletion is lazy)."""
from __future__ import annotations

from pynamodb.attributes import DiscriminatorAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.models import Model

from models.base import table, RawAccess

# Whose counter: an app sign-in's user, a personal access token, an MCP grant, or a client
# address (requests without a credential, and failed sign-ins).
USER_SUBJECT = "USER"
PAT_SUBJECT = "PAT"
MCP_SUBJECT = "MCP"
IP_SUBJECT = "IP"
# An OAuth client's requests (registration, code exchange) or one grant's refreshes: hosts
# such as Claude and ChatGPT call from shared address ranges, so these are not per address.
OAUTH_SUBJECT = "OAUTH"
# Share links: opens, sessions and claims per link and per address (app.links.limits).
LINK_SUBJECT = "LINK"
LINK_IP_SUBJECT = "LINKIP"
# Receipts: uploads per group per day, scans per user per day (app.receipts.limits).
RECEIPT_UPLOAD_SUBJECT = "RECEIPTS"
RECEIPT_SCAN_SUBJECT = "RECEIPTSCANS"
# Invitations by e-mail per group per day (app.people.email_invitations).
INVITATION_MAIL_SUBJECT = "INVITEMAILS"


@table("rate-limits")
class RateLimitItem(RawAccess, Model):
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


class ReminderMarker(RateLimitItem, discriminator="REMINDER"):
    """A payment reminder was sent: the next one from this sender to this recipient in this
    group waits until ExpiresAt (created under a condition, so parallel sends make one)."""

    @staticmethod
    def key(group_id: str, sender_user_id: str, recipient_user_id: str) -> str:
        return f"REMINDER#{group_id}#{sender_user_id}#{recipient_user_id}"
