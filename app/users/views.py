"""/users/me and /admin/users."""
from __future__ import annotations

from flask import current_app

from app.api.context import principal, scope, settings
from app.api.needs import needs
from app.api.spec import FORBIDDEN, Blueprint, errors
from app.errors import Forbidden
from app.users.schemas import (AccountDeletionSchema, AdminUserPageSchema, AdminUsersArgsSchema,
                               IdentityLinkSchema, IdentityListSchema, IdentitySchema,
                               ProfilePatchSchema, ProfileSchema)
from app.account import finish_deletion
from app.account.budget import Budget
from app.account.deletion import delete_account
from app.users import profiles as users

blp = Blueprint("users", __name__, description="The signed-in user")


@blp.route("/users/me")
@needs()
@blp.response(200, ProfileSchema)
@errors(blp, (404, "No profile for this account."))
def get_me():
    """The caller's profile."""
    return users.get_profile(principal().user_id)


@blp.route("/users/me", methods=["PATCH"])
@needs()
@blp.arguments(ProfilePatchSchema)
@blp.response(200, ProfileSchema)
def patch_me(body):
    """Change display name or default currency; a rename is mirrored onto group rosters."""
    return users.update_profile(principal().user_id, display_name=body.get("displayName"),
                                default_currency=body.get("defaultCurrency"))


DELETE_DESCRIPTION = (
    "Marks the account DELETING (from then on every request with its tokens is 401), then "
    "sweeps what it left behind inside this request for 5 s (no new unit of work starts "
    "after that; Settings.account_delete_seconds). 204: everything is gone. 202 "
    "`{status: DELETING}`: the account is already gone for every request, and the "
    "account-deletion worker finishes the sweep (normally within a minute; a stalled one is "
    "resumed within five). A retry of this call goes on with the sweep too.")


@blp.route("/users/me", methods=["DELETE"])
@needs(while_deleting=True)
@blp.response(204, description="The account and everything it left behind are deleted.")
@blp.alt_response(202, schema=AccountDeletionSchema,
                  description="The account is gone for every request; the rest of the sweep "
                              "runs in the background.")
@blp.doc(description=DELETE_DESCRIPTION)
@errors(blp, (403, "FORBIDDEN: personal access tokens cannot delete an account."),
        (409, "SOLE_OWNER: the caller is the only owner of groups other users are in; "
              "details.groups lists them ({groupId, name})."))
def delete_me():
    """Delete the account: memberships turn back into guests (history kept), groups where the
    caller is the only user are deleted, everything else of the account is removed."""
    user_id, config = principal().user_id, settings()
    try:
        progress = delete_account(user_id, budget=Budget(seconds=config.account_delete_seconds,
                                                         units=config.account_delete_units))
    finally:  # once marked, this instance refuses the account's cached sign-ins at once
        current_app.extensions["tailspend"].authenticator.identities.forget_user(user_id)
        current_app.extensions["developer"].verifier.forget_user(user_id)  # its PATs too
    if progress.done:
        return "", 204
    finish_deletion.continue_later(user_id)
    return AccountDeletionSchema().dump({"status": "DELETING"}), 202


@blp.route("/users/me/identities")
@needs()
@blp.response(200, IdentityListSchema)
def list_identities():
    """Every sign-in linked to the caller."""
    return {"items": users.list_identities(principal().user_id)}


@blp.route("/users/me/identities", methods=["POST"])
@needs()
@blp.arguments(IdentityLinkSchema)
@blp.response(201, IdentitySchema)
@errors(blp, (409, "IDENTITY_LINKED: the identity belongs to another account."))
def link_identity(body):
    """Link another sign-in; one linked to another account is 409 IDENTITY_LINKED."""
    return users.link_identity(principal().user_id, body["provider"], body["subject"])


@blp.route("/admin/users")
@needs()
@blp.arguments(AdminUsersArgsSchema, location="query")
@blp.response(200, AdminUserPageSchema)
@errors(blp, FORBIDDEN)
def admin_list_users(args):
    """Admins only: every profile, test accounts hidden unless includeTestAccounts=true."""
    if not principal().is_admin:
        raise Forbidden("Only administrators may list users.")
    return users.list_users(include_test_accounts=args["includeTestAccounts"],
                            limit=args["limit"], cursor=args["cursor"],
                            scope=scope(f"admin-users:{args['includeTestAccounts']}")).as_dict()
