"""/people and /groups/{groupId}/invitations: handles, search, friends, direct invitations."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.api.schemas import PageArgsSchema
from app.people.schemas import (AcceptedInvitationSchema, FriendPageSchema, FriendRequestSchema,
                                FriendSchema, HandleReplySchema, HandleSchema,
                                InvitationCreateSchema, InvitationPageSchema, InvitationSchema,
                                PersonListSchema, SearchArgsSchema)
from app.people import directory, email_invitations, friends, handles, invitations

blp = Blueprint("people", __name__, description="People: handles, friends, invitations")


@blp.route("/people/me/handle", methods=["PUT"])
@needs()
@blp.arguments(HandleSchema)
@blp.response(200, HandleReplySchema)
@errors(blp, (409, "HANDLE_TAKEN: someone else holds the handle."))
def put_handle(body):
    """Claim a handle and set the search opt-in; the previous handle is released."""
    return handles.set_handle(principal().user_id, body["handle"],
                              discoverable=body["discoverable"])


@blp.route("/people/search")
@needs()
@blp.arguments(SearchArgsSchema, location="query", unknown=RAISE)
@blp.response(200, PersonListSchema)
def search(args):
    """Discoverable users whose handle or display name starts with q (accents and case
    ignored); never an e-mail."""
    return {"items": directory.search(principal().user_id, args["q"], limit=args["limit"])}


@blp.route("/people/me/friends")
@needs()
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, FriendPageSchema)
def list_friends(args):
    """Friends and pending requests both ways."""
    return friends.list_friends(principal().user_id, limit=args["limit"], cursor=args["cursor"],
                                scope=scope("friends")).as_dict()


@blp.route("/people/me/friends", methods=["POST"])
@needs(idempotent=True)
@blp.arguments(FriendRequestSchema)
@blp.response(201, FriendSchema)
@errors(blp, (404, "No such user."),
        (409, "FRIEND_REQUEST_PENDING or ALREADY_FRIENDS."))
def request_friend(body):
    """Send a friend request (an incoming one from that user is accepted instead)."""
    return friends.request_friend(principal().user_id, body["userId"])


@blp.route("/people/me/friends/<uuid:userId>/accept", methods=["POST"])
@needs()
@blp.response(200, FriendSchema)
@errors(blp, (404, "No incoming request from this user."), (409, "ALREADY_FRIENDS."))
def accept_friend(user_id):
    """Accept an incoming friend request."""
    return friends.accept_friend(principal().user_id, str(user_id))


@blp.route("/people/me/friends/<uuid:userId>", methods=["DELETE"])
@needs()
@blp.response(204)
@errors(blp, (404, "No friendship or request with this user."))
def remove_friend(user_id):
    """Decline, cancel or unfriend; both sides go."""
    friends.remove_friend(principal().user_id, str(user_id))


@blp.route("/groups/<uuid:groupId>/invitations", methods=["POST"])
@needs(role="OWNER", idempotent=True)
@blp.arguments(InvitationCreateSchema)
@blp.response(201, InvitationSchema)
@errors(blp, FORBIDDEN, (404, "No such group for the caller, or no such user visible to "
                              "them (a friend or a discoverable user), or no such guest."),
        (409, "ALREADY_MEMBER, INVITATION_PENDING, TARGET_NOT_GUEST, GROUP_FULL or "
              "GROUP_ARCHIVED."),
        (429, "RATE_LIMITED: the group's 20 invitations by e-mail for today are sent "
              "(Retry-After: the next UTC day)."))
def invite(body, access):
    """Invite a user (OWNER), reserving a guest slot for them; or invite an address: an
    e-mail in the OWNER's language carrying a share link bound to the reserved guest."""
    if "email" in body:
        return email_invitations.invite_by_email(
            access, body["email"], role=body["role"], participant_id=body.get("participantId"),
            display_name=body.get("displayName"))
    return invitations.invite(access, body["userId"], role=body["role"],
                              participant_id=body.get("participantId"))


@blp.route("/groups/<uuid:groupId>/invitations")
@needs(role="OWNER")
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, InvitationPageSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def group_invitations(args, access):
    """The group's pending invitations (OWNER)."""
    return invitations.group_invitations(access, limit=args["limit"], cursor=args["cursor"],
                                         scope=scope(f"invitations:{access.group_id}")).as_dict()


@blp.route("/groups/<uuid:groupId>/invitations/<uuid:userId>", methods=["DELETE"])
@needs(role="OWNER")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "INVITATION_CHANGED: accepted or replaced meanwhile."))
def revoke(access, user_id):
    """Revoke an invitation (OWNER); the guest and its history stay."""
    invitations.revoke(access, str(user_id))


@blp.route("/people/me/invitations")
@needs()
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, InvitationPageSchema)
def my_invitations(args):
    """The caller's pending invitations."""
    return invitations.my_invitations(principal().user_id, limit=args["limit"],
                                      cursor=args["cursor"],
                                      scope=scope("me-invitations")).as_dict()


@blp.route("/people/me/invitations/<uuid:groupId>/accept", methods=["POST"])
@needs(in_group=False)
@blp.response(200, AcceptedInvitationSchema)
@errors(blp, (404, "No invitation to this group."),
        (409, "INVITATION_EXPIRED, INVITATION_CHANGED or ALREADY_MEMBER."))
def accept(group_id):
    """Accept: claim the reserved guest (same participantId) as a member."""
    return invitations.accept(principal().user_id, str(group_id))


@blp.route("/people/me/invitations/<uuid:groupId>/decline", methods=["POST"])
@needs(in_group=False)
@blp.response(204)
@errors(blp, (404, "No invitation to this group."),
        (409, "INVITATION_CHANGED: accepted or replaced meanwhile."))
def decline(group_id):
    """Decline; the guest slot and its history stay in the group."""
    invitations.decline(principal().user_id, str(group_id))
