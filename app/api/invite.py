"""/groups/{groupId}/invite: owner settings and rotation, and the code holder's preview."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.groups import (InvitePatchSchema, InvitePreviewArgsSchema,
                                InvitePreviewSchema, InviteSchema)
from app.services.groups import invite

blp = Blueprint("invite", __name__, description="Invite links")


@blp.route("/groups/<uuid:groupId>/invite")
@needs(role="OWNER")
@blp.response(200, InviteSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def get_invite(access):
    """The invite link settings (OWNER), also while disabled so it can be re-enabled."""
    return invite.get_invite(access)


@blp.route("/groups/<uuid:groupId>/invite", methods=["PATCH"])
@needs(role="OWNER")
@blp.arguments(InvitePatchSchema)
@blp.response(200, InviteSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def patch_invite(body, access):
    """Enable or disable the link, or change the role joiners are proposed (OWNER)."""
    return invite.update_invite(access, enabled=body.get("enabled"),
                                default_role=body.get("defaultRole"))


@blp.route("/groups/<uuid:groupId>/invite/rotate", methods=["POST"])
@needs(role="OWNER")
@blp.response(200, InviteSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def rotate_invite(access):
    """A new code (OWNER); the old code stops working at once."""
    return invite.rotate_invite(access)


@blp.route("/groups/<uuid:groupId>/invite/preview")
@needs(in_group=False)
@blp.arguments(InvitePreviewArgsSchema, location="query", unknown=RAISE)
@blp.response(200, InvitePreviewSchema)
@errors(blp, (404, "The invite is disabled or absent, the code is wrong, or the group is "
                   "being deleted."))
def preview_invite(args, group_id):
    """What the holder of the current code may see; disabled, absent or wrong code is 404."""
    return invite.preview(str(group_id), args["code"])
