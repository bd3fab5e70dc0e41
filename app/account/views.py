"""DELETE /users/me: account deletion's door, on the users blueprint.

The route is documented with /users/me's other verbs (tag ``users``, operationId
``users.delete_me``), but deleting an account reaches every area below it, so the view lives
here, above users, and adds itself to users' blueprint; the factory imports this module
before it registers that blueprint."""
from __future__ import annotations

from flask import current_app

from app.account import finish_deletion
from app.account.budget import Budget
from app.account.deletion import delete_account
from app.api.context import principal, settings
from app.api.needs import needs
from app.api.spec import errors
from app.users.schemas import AccountDeletionSchema
from app.users.views import blp

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
