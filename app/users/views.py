"""/users/me (but its DELETE) and /admin/users."""
from __future__ import annotations

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import FORBIDDEN, Blueprint, errors
from app.errors import Forbidden
from app.limits import DEFAULT_LOCALE, LOCALES
from app.users.schemas import (AdminUserPageSchema, AdminUsersArgsSchema, IdentityLinkSchema,
                               IdentityListSchema, IdentitySchema, LocalesSchema,
                               ProfilePatchSchema, ProfileSchema)
from app.users import profiles as users

# DELETE /users/me is the account area's (app.account.views), on this blueprint: account
# deletion sits above users, which must not import it.
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
    """Change display name, default currency or locale; a rename is mirrored onto group
    rosters."""
    return users.update_profile(principal().user_id, display_name=body.get("displayName"),
                                default_currency=body.get("defaultCurrency"),
                                locale=body.get("locale"))


@blp.route("/locales")
@needs(public=True)
@blp.response(200, LocalesSchema)
@blp.doc(security=[])
def list_locales():
    """The languages every text the service writes can be in (the profile's ``locale``)."""
    return {"default": DEFAULT_LOCALE, "items": [{"tag": tag, "name": name}
                                                for tag, name in LOCALES.items()]}


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
