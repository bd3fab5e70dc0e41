"""Groups: the group and its participants, invite links, join requests, home."""
from __future__ import annotations

from marshmallow import RAISE
from app.api.context import principal, scope
from app.api.needs import needs
from app.api.schemas import PageArgsSchema
from app.api.spec import Blueprint, FORBIDDEN, NOT_FOUND, errors
from app.groups import (archive, home, join_requests, delete as group_delete, groups,
                        participants, transfer, invite)
from app.groups.schemas import (ArchivalSchema, HomeArgsSchema, HomeGroupPageSchema, JoinRequestPageSchema, GroupCreateSchema,
                                GroupPatchSchema, GroupSchema, GuestCreateSchema,
                                ParticipantListSchema, ParticipantPatchSchema, ParticipantSchema,
                                ParticipantTransferResultSchema, ParticipantTransferSchema,
                                InvitePatchSchema, InvitePreviewArgsSchema, InvitePreviewSchema,
                                InviteSchema, ApprovalSchema, ApproveSchema,
                                JoinRequestCreateSchema, JoinRequestSchema)
from app.limits import MAX_GROUP_PARTICIPANTS


# ---------------------------------------------------------------- home
# The home screen: the caller's groups and join requests across groups (/users/me/groups,
# /users/me/join-requests; the account itself is app.users.views). The blueprint keeps its name
# "me", which is its tag in /openapi.json.

home_blp = Blueprint("me", __name__, description="The caller's groups and requests across groups")


@home_blp.route("/users/me/groups")
@needs(pat="groups:read", liveness_in_view=True)
@home_blp.arguments(HomeArgsSchema, location="query", unknown=RAISE)
@home_blp.response(200, HomeGroupPageSchema)
@home_blp.doc(description="One index query and one batch read per page, however many groups; a "
                     f"page holds at most {home.MAX_GROUPS_PER_PAGE} groups whatever the "
                     "limit, follow nextCursor for more.")
def my_groups(args):
    """The home screen: each group with the caller's role, participant id and net."""
    return home.my_groups(principal().user_id, limit=args["limit"], cursor=args["cursor"],
                          scope=scope("me-groups"), archived=args["archived"]).as_dict()


@home_blp.route("/users/me/join-requests")
@needs()
@home_blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@home_blp.response(200, JoinRequestPageSchema)
def my_join_requests(args):
    """The caller's pending join requests across groups."""
    return join_requests.my_pending_requests(principal().user_id, limit=args["limit"],
                                             cursor=args["cursor"],
                                             scope=scope("me-join-requests")).as_dict()


# ---------------------------------------------------------------- groups
# /groups, /groups/{groupId}/participants and /groups/{groupId}/leave.

groups_blp = Blueprint("groups", __name__, description="Groups and participants")

REMOVAL_REFUSED = (409, "PARTICIPANT_REFERENCED (named by an expense, settlement or recurring "
                        "expense), LAST_OWNER, TRANSFER_IN_PROGRESS or CONCURRENT_UPDATE "
                        "(changed meanwhile: retry).")


DELETE_DESCRIPTION = (
    "Tombstones the group (Status DELETING: every read and write sees it as gone at once), "
    "then sweeps its rows within this request up to a fixed budget. 204: everything is "
    "deleted. 202: the group is already gone for every reader and the rest of the sweep is "
    "left to the maintenance job, which resumes it.")


@groups_blp.route("/groups", methods=["POST"])
@needs(pat="expenses:write", idempotent=True)  # the MCP create_group tool's scope too
@groups_blp.arguments(GroupCreateSchema)
@groups_blp.response(201, GroupSchema)
def create_group(body):
    """Create a group with the caller as its first OWNER."""
    return groups.create_group(principal().user_id, name=body["name"], currency=body["currency"])


@groups_blp.route("/groups/<uuid:groupId>")
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@groups_blp.response(200, GroupSchema)
@errors(groups_blp, NOT_FOUND)
def get_group(access):
    """The group, with the caller's role and participant id."""
    return access


@groups_blp.route("/groups/<uuid:groupId>", methods=["PATCH"])
@needs(role="OWNER")
@groups_blp.arguments(GroupPatchSchema)
@groups_blp.response(200, GroupSchema)
@errors(groups_blp, FORBIDDEN, NOT_FOUND, (409, "CURRENCY_LOCKED: an expense or settlement exists."))
def patch_group(body, access):
    """Rename the group, change its currency (OWNER; 409 CURRENCY_LOCKED once money exists),
    set its defaultSplit (null clears it), pick its default balances view (``simplifyDebts``)
    or its rounding (``rounding``)."""
    return groups.update_group(access, name=body.get("name"), currency=body.get("currency"),
                               default_split=body.get("defaultSplit", groups.NOT_SENT),
                               simplify_debts=body.get("simplifyDebts"),
                               rounding_mode=body.get("rounding"))


@groups_blp.route("/groups/<uuid:groupId>/archive", methods=["POST"])
@needs(role="OWNER", prefetch=archive.PREFETCH, while_archived=True)
@groups_blp.response(200, ArchivalSchema)
@errors(groups_blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: flipped meanwhile (retry)."))
def archive_group(access):
    """Archive the group (OWNER): read-only, hidden from home, templates paused."""
    return archive.archive_group(access)


@groups_blp.route("/groups/<uuid:groupId>/unarchive", methods=["POST"])
@needs(role="OWNER", prefetch=archive.PREFETCH, while_archived=True)
@groups_blp.response(200, ArchivalSchema)
@errors(groups_blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: flipped meanwhile (retry)."))
def unarchive_group(access):
    """Unarchive the group (OWNER): writes are taken again; templates resume from today."""
    return archive.unarchive_group(access)


@groups_blp.route("/groups/<uuid:groupId>", methods=["DELETE"])
# An archived group is still deleted for good.
@needs(role="OWNER", while_archived=True)
@groups_blp.response(204, description="The group and all its rows are deleted.")
@groups_blp.alt_response(202, description="The group is gone for every reader; the sweep continues "
                                   "in the background.")
@groups_blp.doc(description=DELETE_DESCRIPTION)
@errors(groups_blp, FORBIDDEN, NOT_FOUND)
def delete_group(access):
    """Delete the group (OWNER)."""
    return ("", 204) if group_delete.delete_group(access) else ("", 202)


@groups_blp.route("/groups/<uuid:groupId>/participants")
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@groups_blp.response(200, ParticipantListSchema)
@errors(groups_blp, NOT_FOUND)
def list_participants(access):
    """The roster."""
    return {"items": participants.list_participants(access)}


@groups_blp.route("/groups/<uuid:groupId>/participants", methods=["POST"])
# The add_guest tool's scope: guests are who expenses are shared with.
@needs(role="MEMBER", pat="expenses:write", idempotent=True)
@groups_blp.arguments(GuestCreateSchema)
@groups_blp.response(201, ParticipantSchema)
@errors(groups_blp, FORBIDDEN, NOT_FOUND,
        (409, f"GROUP_FULL: the group already has {MAX_GROUP_PARTICIPANTS} participants "
              "(users and guests); IDEMPOTENCY_IN_PROGRESS."))
def add_guest(body, access):
    """Add a guest (MEMBER+); 409 GROUP_FULL once the group is at its participant cap."""
    return participants.add_guest(access, display_name=body["displayName"], role=body["role"])


@groups_blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>", methods=["PATCH"])
# Any participant may set their own household; the service refuses the rest to non-owners.
# It changes roles too, so no PAT (the MCP set_household tool takes households alone).
@needs(role="VIEWER")
@groups_blp.arguments(ParticipantPatchSchema)
@groups_blp.response(200, ParticipantSchema)
@errors(groups_blp, FORBIDDEN, NOT_FOUND,
        (409, "LAST_OWNER (demoting the only owner) or CONCURRENT_UPDATE (retry)."))
def patch_participant(body, access, participant_id):
    """Change a role, a guest's name or a household (OWNER; anyone their own household);
    demoting the last owner is 409 LAST_OWNER."""
    household = body["household"] if "household" in body else participants.NOT_SENT
    return participants.update_participant(access, str(participant_id), role=body.get("role"),
                                           display_name=body.get("displayName"),
                                           household=household)


@groups_blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>", methods=["DELETE"])
@needs(role="OWNER")
@groups_blp.response(204)
@errors(groups_blp, FORBIDDEN, NOT_FOUND, REMOVAL_REFUSED)
def remove_participant(access, participant_id):
    """Remove a participant (OWNER): 409 PARTICIPANT_REFERENCED or LAST_OWNER when refused.

    Removing a guest cancels the pending TAKEOVER requests that target it."""
    participants.remove_participant(access, str(participant_id))


@groups_blp.route("/groups/<uuid:groupId>/leave", methods=["POST"])
@needs(role="VIEWER")
@groups_blp.response(204)
@errors(groups_blp, NOT_FOUND, REMOVAL_REFUSED)
def leave_group(access):
    """Leave the group, under the same rules as a removal."""
    participants.leave_group(access)


TRANSFER_DESCRIPTION = (
    "Moves every expense payment and split, settlement side and recurring template reference "
    "of the source to the target, then removes the source if it is a guest, or unlocks it if "
    "it is a user (who stays a participant). Where both appear in one expense their payments "
    "and owed shares are summed (nobody else's share moves by a minor unit); a settlement "
    "between the two is deleted (a payment to oneself). While it runs, writes naming the "
    "source get 409 PARTICIPANT_UNAVAILABLE. If it fails part-way the source stays locked: "
    "the same call (same target) resumes it.")


@groups_blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>/transfer",
           methods=["POST"])
@needs(role="OWNER", prefetch=transfer.PREFETCH)
@groups_blp.arguments(ParticipantTransferSchema)
@groups_blp.response(200, ParticipantTransferResultSchema)
@groups_blp.doc(description=TRANSFER_DESCRIPTION)
@errors(groups_blp, FORBIDDEN, NOT_FOUND,
        (409, "TRANSFER_IN_PROGRESS (the source is being transferred to someone else, or "
              "someone into it), PARTICIPANT_UNAVAILABLE (the target is missing or itself "
              "mid-transfer) or CONCURRENT_UPDATE (call again: it resumes)."))
def transfer_participant(body, access, participant_id):
    """Transfer a participant's history to another participant (OWNER)."""
    return transfer.transfer_participant(access, str(participant_id),
                                         body["targetParticipantId"])


# ---------------------------------------------------------------- invite
# /groups/{groupId}/invite: owner settings and rotation, and the code holder's preview.

invite_blp = Blueprint("invite", __name__, description="Invite links")


@invite_blp.route("/groups/<uuid:groupId>/invite")
@needs(role="OWNER")
@invite_blp.response(200, InviteSchema)
@errors(invite_blp, FORBIDDEN, NOT_FOUND)
def get_invite(access):
    """The invite link settings (OWNER), also while disabled so it can be re-enabled."""
    return invite.get_invite(access)


@invite_blp.route("/groups/<uuid:groupId>/invite", methods=["PATCH"])
@needs(role="OWNER")
@invite_blp.arguments(InvitePatchSchema)
@invite_blp.response(200, InviteSchema)
@errors(invite_blp, FORBIDDEN, NOT_FOUND)
def patch_invite(body, access):
    """Enable or disable the link, or change the role joiners are proposed (OWNER)."""
    return invite.update_invite(access, enabled=body.get("enabled"),
                                default_role=body.get("defaultRole"))


@invite_blp.route("/groups/<uuid:groupId>/invite/rotate", methods=["POST"])
@needs(role="OWNER")
@invite_blp.response(200, InviteSchema)
@errors(invite_blp, FORBIDDEN, NOT_FOUND)
def rotate_invite(access):
    """A new code (OWNER); the old code stops working at once."""
    return invite.rotate_invite(access)


@invite_blp.route("/groups/<uuid:groupId>/invite/preview")
@needs(in_group=False)
@invite_blp.arguments(InvitePreviewArgsSchema, location="query", unknown=RAISE)
@invite_blp.response(200, InvitePreviewSchema)
@errors(invite_blp, (404, "The invite is disabled or absent, the code is wrong, or the group is "
                   "being deleted."))
def preview_invite(args, group_id):
    """What the holder of the current code may see; disabled, absent or wrong code is 404."""
    return invite.preview(str(group_id), args["code"])


# ---------------------------------------------------------------- join_requests
# /groups/{groupId}/join-requests: submit, owner review, approve, deny, cancel.

join_requests_blp = Blueprint("join_requests", __name__, description="Join requests")


@join_requests_blp.route("/groups/<uuid:groupId>/join-requests", methods=["POST"])
# The requester is not a member yet (no role): the code is checked inside.
@needs(idempotent=True, in_group=False)
@join_requests_blp.arguments(JoinRequestCreateSchema)
@join_requests_blp.response(201, JoinRequestSchema)
@errors(join_requests_blp, (404, "Wrong, rotated or disabled code; no such group or target participant."),
        (409, "ALREADY_MEMBER, REQUEST_PENDING, TARGET_NOT_GUEST (the guest is claimed, "
              "reserved or being transferred) or IDEMPOTENCY_IN_PROGRESS."),
        (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body."))
def submit(body, group_id):
    """Ask to join with the invite code: 404 bad code, 409 ALREADY_MEMBER / REQUEST_PENDING."""
    return join_requests.submit_join_request(
        principal().user_id, str(group_id), code=body["code"], mode=body["mode"],
        target_participant_id=body.get("targetParticipantId"),
        proposed_role=body.get("proposedRole"), message=body.get("message"))


@join_requests_blp.route("/groups/<uuid:groupId>/join-requests")
@needs(role="OWNER")
@join_requests_blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@join_requests_blp.response(200, JoinRequestPageSchema)
@errors(join_requests_blp, FORBIDDEN, NOT_FOUND)
def list_pending(args, access):
    """The group's pending requests, oldest first (OWNER)."""
    return join_requests.pending_requests(access, limit=args["limit"], cursor=args["cursor"],
                                          scope=scope(f"join-requests:{access.group_id}")).as_dict()


def _decision(view_args) -> tuple:
    """The request row, read with the access check of an approve or deny."""
    return join_requests.decision_prefetch(str(view_args["request_id"]))


@join_requests_blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>/approve",
           methods=["POST"])
@needs(role="OWNER", prefetch=(_decision,))
@join_requests_blp.arguments(ApproveSchema)
@join_requests_blp.response(200, ApprovalSchema)
@errors(join_requests_blp, FORBIDDEN, NOT_FOUND, (409, "NOT_PENDING, TARGET_NOT_GUEST, ALREADY_MEMBER, or "
                                         f"GROUP_FULL (a NEW member would exceed "
                                         f"{MAX_GROUP_PARTICIPANTS} participants)."))
def approve(body, access, request_id):
    """Approve (OWNER): TAKEOVER claims the guest keeping its id, NEW adds a participant.

    409 NOT_PENDING, TARGET_NOT_GUEST or ALREADY_MEMBER when the state moved on."""
    return join_requests.approve_join_request(access, str(request_id), role=body["role"])


@join_requests_blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>/deny", methods=["POST"])
@needs(role="OWNER", prefetch=(_decision,))
@join_requests_blp.response(200, JoinRequestSchema)
@errors(join_requests_blp, FORBIDDEN, NOT_FOUND, (409, "NOT_PENDING: already decided or cancelled."))
def deny(access, request_id):
    """Deny (OWNER); the applicant may only re-apply with the current valid code."""
    return join_requests.deny_join_request(access, str(request_id))


@join_requests_blp.route("/groups/<uuid:groupId>/join-requests/<uuid:requestId>", methods=["DELETE"])
@needs(in_group=False)
@join_requests_blp.response(204)
@errors(join_requests_blp, (404, "No such request of the caller in this group."),
        (409, "NOT_PENDING: already decided or cancelled."))
def cancel(group_id, request_id):
    """The applicant withdraws their pending request."""
    join_requests.cancel_join_request(principal().user_id, str(group_id), str(request_id))
