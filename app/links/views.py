"""Share links: /groups/{groupId}/links (OWNER), /links/open and /links/session (no
account), and the claim (docs/share-links.md)."""
from __future__ import annotations

from app.api.context import principal
from app.api.needs import needs
from app.api.spec import Blueprint, FORBIDDEN, NOT_FOUND, errors
from app.developer.gate import runtime, source_ip
from app.groups.schemas import ParticipantSchema
from app.links import claim as claiming, links, opening
from app.links.schemas import (LinkClaimSchema, LinkCreateSchema, LinkListSchema,
                               LinkOpenedSchema, LinkOpenSchema, LinkSchema,
                               LinkSessionCreateSchema, LinkSessionSchema)
from models.rate_limits import LINK_IP_SUBJECT, LINK_SUBJECT, RateCounter

blp = Blueprint("links", __name__, description="Share links: take part without an account")

LOCKED = (429, "LINK_LOCKED: 5 wrong PINs in 15 minutes lock the link for 15 minutes "
               "(Retry-After); RATE_LIMITED: over the link's or the address's window.")


def _spend_address() -> None:
    state = runtime()
    state.limiter.spend(RateCounter.subject(LINK_IP_SUBJECT, source_ip()),
                        state.limits.link_ip_per_minute)


def _spend_link(link_id: str) -> None:
    state = runtime()
    state.limiter.spend(RateCounter.subject(LINK_SUBJECT, link_id), state.limits.link_per_minute)


@blp.route("/groups/<uuid:groupId>/links", methods=["POST"])
@needs(role="OWNER", idempotent=True, secret_fields=("token",))
@blp.arguments(LinkCreateSchema)
@blp.response(201, LinkSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "LINK_LIMIT: 20 live links already; TARGET_NOT_GUEST: participantId is a user."))
def create_link(body, access):
    """Create a share link; ``token`` is in this reply only (a replay omits it)."""
    return links.create_link(access, role=body["role"],
                             participant_id=str(body["participantId"])
                             if body.get("participantId") else None,
                             pin=body.get("pin"), expires_at=body.get("expiresAt"),
                             label=body.get("label"))


@blp.route("/groups/<uuid:groupId>/links")
@needs(role="OWNER")
@blp.response(200, LinkListSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def list_links(access):
    """Live links, newest first, without secrets or hashes."""
    return {"items": links.list_links(access)}


@blp.route("/groups/<uuid:groupId>/links/<uuid:linkId>", methods=["DELETE"])
@needs(role="OWNER")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND)
def revoke_link(access, link_id):
    """Revoke: every session opened with the link is refused from its next request."""
    links.revoke_link(access, str(link_id))


@blp.route("/links/open", methods=["POST"])
@needs(public=True)
@blp.arguments(LinkOpenSchema)
@blp.response(200, LinkOpenedSchema)
@errors(blp, (401, "PIN_INVALID: a wrong PIN (it counts toward the lock)."), LOCKED)
def open_link(body):
    """What a link shows: its group and the guests it may act as (only ``pinRequired``
    until the PIN is given). A wrong, revoked or expired token → 404."""
    _spend_address()
    return opening.open_link(body["token"], body.get("pin"), spend=_spend_link)


@blp.route("/links/session", methods=["POST"])
@needs(public=True)
@blp.arguments(LinkSessionCreateSchema)
@blp.response(201, LinkSessionSchema)
@errors(blp, (401, "PIN_INVALID: a wrong or missing PIN."),
        (403, "displayName on a VIEWER (or bound) link."), LOCKED,
        (409, "GROUP_FULL: the group is at its participant cap."))
def start_session(body):
    """A 1-hour bearer session acting as one unclaimed guest (or a new one: displayName,
    MEMBER links only). Call again to renew."""
    _spend_address()
    return opening.start_session(
        body["token"], body.get("pin"),
        participant_id=str(body["participantId"]) if body.get("participantId") else None,
        display_name=body.get("displayName"), spend=_spend_link)


@blp.route("/groups/<uuid:groupId>/links/claim", methods=["POST"])
@needs(in_group=False)
@blp.arguments(LinkClaimSchema)
@blp.response(200, ParticipantSchema)
@errors(blp, NOT_FOUND, LOCKED,
        (409, "ALREADY_MEMBER: the caller is in the group; TARGET_NOT_GUEST: already claimed."))
def claim(body, group_id):
    """The session's guest becomes the caller's participant (same participantId)."""
    _spend_address()
    return claiming.claim(principal().user_id, str(group_id), body["sessionToken"],
                          spend=_spend_link)
