"""/groups, /groups/{groupId}/participants and /groups/{groupId}/leave."""
from __future__ import annotations

from app.api.context import principal
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.groups import (GroupCreateSchema, GroupPatchSchema, GroupSchema,
                                GuestCreateSchema, ParticipantListSchema,
                                ParticipantPatchSchema, ParticipantSchema,
                                ParticipantTransferResultSchema, ParticipantTransferSchema)
from app.services.groups import delete as group_delete, groups, participants, transfer
from app.limits import MAX_GROUP_PARTICIPANTS

blp = Blueprint("groups", __name__, description="Groups and participants")

REMOVAL_REFUSED = (409, "PARTICIPANT_REFERENCED (named by an expense, settlement or recurring "
                        "expense), LAST_OWNER, TRANSFER_IN_PROGRESS or CONCURRENT_UPDATE "
                        "(changed meanwhile: retry).")


DELETE_DESCRIPTION = (
    "Tombstones the group (Status DELETING: every read and write sees it as gone at once), "
    "then sweeps its rows within this request up to a fixed budget. 204: everything is "
    "deleted. 202: the group is already gone for every reader and the rest of the sweep is "
    "left to the maintenance job, which resumes it.")


@blp.route("/groups", methods=["POST"])
@needs(pat="expenses:write", idempotent=True)  # the MCP create_group tool's scope too
@blp.arguments(GroupCreateSchema)
@blp.response(201, GroupSchema)
def create_group(body):
    """Create a group with the caller as its first OWNER."""
    return groups.create_group(principal().user_id, name=body["name"], currency=body["currency"])


@blp.route("/groups/<uuid:groupId>")
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.response(200, GroupSchema)
@errors(blp, NOT_FOUND)
def get_group(access):
    """The group, with the caller's role and participant id."""
    return access


@blp.route("/groups/<uuid:groupId>", methods=["PATCH"])
@needs(role="OWNER")
@blp.arguments(GroupPatchSchema)
@blp.response(200, GroupSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "CURRENCY_LOCKED: an expense or settlement exists."))
def patch_group(body, access):
    """Rename the group or change its currency (OWNER); 409 CURRENCY_LOCKED once money exists."""
    return groups.update_group(access, name=body.get("name"), currency=body.get("currency"))


@blp.route("/groups/<uuid:groupId>", methods=["DELETE"])
@needs(role="OWNER")
@blp.response(204, description="The group and all its rows are deleted.")
@blp.alt_response(202, description="The group is gone for every reader; the sweep continues "
                                   "in the background.")
@blp.doc(description=DELETE_DESCRIPTION)
@errors(blp, FORBIDDEN, NOT_FOUND)
def delete_group(access):
    """Delete the group (OWNER)."""
    return ("", 204) if group_delete.delete_group(access) else ("", 202)


@blp.route("/groups/<uuid:groupId>/participants")
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.response(200, ParticipantListSchema)
@errors(blp, NOT_FOUND)
def list_participants(access):
    """The roster."""
    return {"items": participants.list_participants(access)}


@blp.route("/groups/<uuid:groupId>/participants", methods=["POST"])
# The add_guest tool's scope: guests are who expenses are shared with.
@needs(role="MEMBER", pat="expenses:write", idempotent=True)
@blp.arguments(GuestCreateSchema)
@blp.response(201, ParticipantSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, f"GROUP_FULL: the group already has {MAX_GROUP_PARTICIPANTS} participants "
              "(users and guests); IDEMPOTENCY_IN_PROGRESS."))
def add_guest(body, access):
    """Add a guest (MEMBER+); 409 GROUP_FULL once the group is at its participant cap."""
    return participants.add_guest(access, display_name=body["displayName"], role=body["role"])


@blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>", methods=["PATCH"])
@needs(role="OWNER")
@blp.arguments(ParticipantPatchSchema)
@blp.response(200, ParticipantSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "LAST_OWNER (demoting the only owner) or CONCURRENT_UPDATE (retry)."))
def patch_participant(body, access, participant_id):
    """Change a role or a guest's name (OWNER); demoting the last owner is 409 LAST_OWNER."""
    return participants.update_participant(access, str(participant_id), role=body.get("role"),
                                           display_name=body.get("displayName"))


@blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>", methods=["DELETE"])
@needs(role="OWNER")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, REMOVAL_REFUSED)
def remove_participant(access, participant_id):
    """Remove a participant (OWNER): 409 PARTICIPANT_REFERENCED or LAST_OWNER when refused.

    Removing a guest cancels the pending TAKEOVER requests that target it."""
    participants.remove_participant(access, str(participant_id))


@blp.route("/groups/<uuid:groupId>/leave", methods=["POST"])
@needs(role="VIEWER")
@blp.response(204)
@errors(blp, NOT_FOUND, REMOVAL_REFUSED)
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


@blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>/transfer",
           methods=["POST"])
@needs(role="OWNER")
@blp.arguments(ParticipantTransferSchema)
@blp.response(200, ParticipantTransferResultSchema)
@blp.doc(description=TRANSFER_DESCRIPTION)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "TRANSFER_IN_PROGRESS (the source is being transferred to someone else, or "
              "someone into it), PARTICIPANT_UNAVAILABLE (the target is missing or itself "
              "mid-transfer) or CONCURRENT_UPDATE (call again: it resumes)."))
def transfer_participant(body, access, participant_id):
    """Transfer a participant's history to another participant (OWNER)."""
    return transfer.transfer_participant(access, str(participant_id),
                                         body["targetParticipantId"])
