"""/groups/{groupId}/join-requests: submit, owner review, approve, deny, cancel."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.common import PageArgsSchema
from app.schemas.join_requests import (ApprovalSchema, ApproveSchema, JoinRequestCreateSchema,
                                       JoinRequestPageSchema, JoinRequestSchema)
from app.services.groups import join_requests
from app.limits import MAX_GROUP_PARTICIPANTS

blp = Blueprint("join_requests", __name__, description="Join requests")


@blp.route("/groups/<uuid:groupId>/join-requests", methods=["POST"])
# The requester is not a member yet (no role): the code is checked inside.
@needs(idempotent=True, in_group=False)
@blp.arguments(JoinRequestCreateSchema)
@blp.response(201, JoinRequestSchema)
@errors(blp, (404, "Wrong, rotated or disabled code; no such group or target participant."),
        (409, "ALREADY_MEMBER, REQUEST_PENDING, TARGET_NOT_GUEST (the guest is claimed, "
              "reserved or being transferred) or IDEMPOTENCY_IN_PROGRESS."),
        (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body."))
def submit(body, group_id):
    """Ask to join with the invite code: 404 bad code, 409 ALREADY_MEMBER / REQUEST_PENDING."""
    return join_requests.submit_join_request(
        principal().user_id, str(group_id), code=body["code"], mode=body["mode"],
        target_participant_id=body.get("targetParticipantId"),
        proposed_role=body.get("proposedRole"), message=body.get("message"))


@blp.route("/groups/<uuid:groupId>/join-requests")
@needs(role="OWNER")
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, JoinRequestPageSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def list_pending(args, access):
    """The group's pending requests, oldest first (OWNER)."""
    return join_requests.pending_requests(access, limit=args["limit"], cursor=args["cursor"],
                                          scope=scope(f"join-requests:{access.group_id}")).as_dict()


def _decision(view_args) -> tuple:
    """The request row, read with the access check of an approve or deny."""
    return join_requests.decision_prefetch(str(view_args["request_id"]))


@blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>/approve",
           methods=["POST"])
@needs(role="OWNER", prefetch=(_decision,))
@blp.arguments(ApproveSchema)
@blp.response(200, ApprovalSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "NOT_PENDING, TARGET_NOT_GUEST, ALREADY_MEMBER, or "
                                         f"GROUP_FULL (a NEW member would exceed "
                                         f"{MAX_GROUP_PARTICIPANTS} participants)."))
def approve(body, access, request_id):
    """Approve (OWNER): TAKEOVER claims the guest keeping its id, NEW adds a participant.

    409 NOT_PENDING, TARGET_NOT_GUEST or ALREADY_MEMBER when the state moved on."""
    return join_requests.approve_join_request(access, str(request_id), role=body["role"])


@blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>/deny", methods=["POST"])
@needs(role="OWNER", prefetch=(_decision,))
@blp.response(200, JoinRequestSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "NOT_PENDING: already decided or cancelled."))
def deny(access, request_id):
    """Deny (OWNER); the applicant may only re-apply with the current valid code."""
    return join_requests.deny_join_request(access, str(request_id))


@blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>", methods=["DELETE"])
@needs(in_group=False)
@blp.response(204)
@errors(blp, (404, "No such request of the caller in this group."),
        (409, "NOT_PENDING: already decided or cancelled."))
def cancel(group_id, request_id):
    """The applicant withdraws their pending request."""
    join_requests.cancel_join_request(principal().user_id, str(group_id), str(request_id))
