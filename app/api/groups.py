"""/groups and /groups/{groupId}/participants."""
from __future__ import annotations

from app.api.context import principal
from app.api.idempotency import idempotent
from app.api.spec import Blueprint
from app.schemas.groups import (GroupCreateSchema, GroupSchema, GuestCreateSchema,
                                ParticipantListSchema, ParticipantSchema)
from app.services import groups, participants
from app.services.access import authorize

blp = Blueprint("groups", __name__, description="Groups and participants")


@blp.route("/groups", methods=["POST"])
@idempotent
@blp.arguments(GroupCreateSchema)
@blp.response(201, GroupSchema)
def create_group(body):
    """Create a group with the caller as its first OWNER."""
    return groups.create_group(principal().user_id, name=body["name"], currency=body["currency"])


@blp.route("/groups/<uuid:group_id>")
@blp.response(200, GroupSchema)
def get_group(group_id):
    """The group, with the caller's role and participant id."""
    access = authorize(principal().user_id, str(group_id))
    return groups.group_view(access.group, access)


@blp.route("/groups/<uuid:group_id>/participants")
@blp.response(200, ParticipantListSchema)
def list_participants(group_id):
    """The roster."""
    access = authorize(principal().user_id, str(group_id))
    return {"items": participants.list_participants(access)}


@blp.route("/groups/<uuid:group_id>/participants", methods=["POST"])
@idempotent
@blp.arguments(GuestCreateSchema)
@blp.response(201, ParticipantSchema)
def add_guest(body, group_id):
    """Add a guest (MEMBER+)."""
    access = authorize(principal().user_id, str(group_id), "MEMBER")
    return participants.add_guest(access, display_name=body["displayName"], role=body["role"])
