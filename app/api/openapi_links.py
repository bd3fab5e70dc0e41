"""OpenAPI links: from each operation that creates something to the operations that use its id.

A link tells a client (and schemathesis's stateful phase) where an id in a reply can be sent
next: ``POST /groups`` answers ``groupId``, which ``GET /groups/{groupId}`` and every other
group route take. Every link is declared in :data:`LINKS`, one table; :class:`LinksPlugin`
writes them into the document with the other plugins of app.api.spec.

Operations are named by their Flask endpoint (``groups.create_group``): that name is each
operation's ``operationId``, unique because Flask endpoints are, and it points at the view.
tests/contract/test_openapi_links.py checks that every create operation answering an id has
links here, that every target exists and takes the parameters named, and that every
expression names a field of the reply (or a parameter of the request) it reads.
"""
from __future__ import annotations

from apispec import BasePlugin

GROUP = {"groupId": "$response.body#/groupId"}
SAME_GROUP = {"groupId": "$request.path.groupId"}  # the create's own group, from its URL
BODY = "requestBody"  # in a link's map: the target's body (fields -> expressions), not a parameter

# operationId of a create -> {operationId of a target: {target parameter: runtime expression}}.
# Each link hangs on the create's 201 reply. An edit that must name the version it replaces
# gets it in the body: {"version": 1} alone is a valid PATCH.
LINKS: dict[str, dict[str, dict[str, str]]] = {
    "groups.create_group": {
        **{target: GROUP for target in (
            "groups.get_group", "groups.patch_group", "groups.delete_group",
            "groups.list_participants", "groups.add_guest", "groups.leave_group",
            "invite.get_invite", "invite.patch_invite", "invite.rotate_invite",
            "invite.preview_invite", "join_requests.submit", "join_requests.list_pending",
            "expenses.create_expense", "expenses.list_expenses",
            "settlements.create_settlement", "settlements.list_settlements",
            "balances.get_balances", "export.export_group",
            "changes.list_changes", "changes.list_activity",
            "balances.create_conversion", "balances.list_conversions",
            "recurring.create_recurring", "recurring.list_recurring",
            "people.invite", "people.group_invitations",
            "notifications.mute", "notifications.unmute", "insight.send_reminder",
            "receipts.create_receipt")},
        # The creator's own participant.
        **{target: {**GROUP, "participantId": "$response.body#/myParticipantId"} for target in (
            "groups.patch_participant", "groups.remove_participant",
            "groups.transfer_participant")},
    },
    "groups.add_guest": {
        target: {**SAME_GROUP, "participantId": "$response.body#/participantId"}
        for target in ("groups.patch_participant", "groups.remove_participant",
                       "groups.transfer_participant")},
    "links.create_link": {
        "links.revoke_link": {**SAME_GROUP, "linkId": "$response.body#/linkId"},
        "links.list_links": SAME_GROUP},
    # A session acts in its group; a signed-in holder may claim its guest.
    "links.start_session": {
        "groups.get_group": GROUP,
        "links.claim": {**GROUP, BODY: {"sessionToken": "$response.body#/accessToken"}}},
    "join_requests.submit": {
        target: {**GROUP, "requestId": "$response.body#/requestId"}
        for target in ("join_requests.approve", "join_requests.deny", "join_requests.cancel")},
    "expenses.create_expense": {
        **{target: {**GROUP, "expenseId": "$response.body#/expenseId"} for target in (
            "expenses.get_expense", "expenses.delete_expense",
            "comments.list_comments", "comments.add_comment")},
        "expenses.update_expense": {**GROUP, "expenseId": "$response.body#/expenseId",
                                    BODY: {"version": "$response.body#/version"}},
        "expenses.get_expense_by_id": {"expenseId": "$response.body#/expenseId"},
    },
    "receipts.create_receipt": {
        target: {**SAME_GROUP, "receiptId": "$response.body#/receiptId"}
        for target in ("receipts.complete_receipt", "receipts.get_receipt",
                       "receipts.scan_receipt", "receipts.confirm_receipt")},
    # The expense the confirmed receipt became.
    "receipts.confirm_receipt": {
        target: {**SAME_GROUP, "expenseId": "$response.body#/expenseId"}
        for target in ("expenses.get_expense", "expenses.delete_expense",
                       "comments.list_comments", "comments.add_comment",
                       "receipts.detach_receipt")},
    "comments.add_comment": {
        target: {**SAME_GROUP, "expenseId": "$response.body#/expenseId",
                 "commentId": "$response.body#/commentId"}
        for target in ("comments.edit_comment", "comments.delete_comment")},
    "settlements.create_settlement": {
        **{target: {**GROUP, "settlementId": "$response.body#/settlementId"}
           for target in ("settlements.get_settlement", "settlements.delete_settlement")},
        "settlements.update_settlement": {**GROUP, "settlementId": "$response.body#/settlementId",
                                          BODY: {"version": "$response.body#/version"}},
    },
    "balances.create_conversion": {
        "balances.get_conversion": {**GROUP, "conversionId": "$response.body#/conversionId"}},
    "recurring.create_recurring": {
        **{target: {**GROUP, "recurringId": "$response.body#/recurringId"}
           for target in ("recurring.get_recurring", "recurring.delete_recurring")},
        "recurring.update_recurring": {**GROUP, "recurringId": "$response.body#/recurringId",
                                       BODY: {"updatedAt": "$response.body#/updatedAt"}},
    },
    "chat.create_session": {
        target: {"sessionId": "$response.body#/sessionId"}
        for target in ("chat.get_session", "chat.post_message")},
    # A confirmed draft is an expense like any other.
    "chat.confirm_draft": {
        **{target: {**GROUP, "expenseId": "$response.body#/expenseId"} for target in (
            "expenses.get_expense", "expenses.delete_expense",
            "comments.list_comments", "comments.add_comment")},
        "expenses.get_expense_by_id": {"expenseId": "$response.body#/expenseId"},
    },
    # Cancelling is the requester's; accepting is the other user's, naming the requester.
    "people.request_friend": {"people.remove_friend": {"userId": "$response.body#/userId"}},
    "people.invite": {
        "people.revoke": {**GROUP, "userId": "$response.body#/userId"},
        # The invitee's side of the same invitation.
        "people.accept": GROUP,
        "people.decline": GROUP,
    },
    "notifications.register_device": {
        "notifications.unregister_device": {"deviceId": "$response.body#/deviceId"}},
    "developer.create_token": {
        "developer.revoke_token": {"tokenId": "$response.body#/tokenId"}},
    "oauth.register": {
        "oauth.authorize": {"client_id": "$response.body#/client_id"}},
}

# Creates whose reply names an id that no operation takes from it, and why.
UNLINKED = {
    "local.mint_dev_token": "signs in (local mode only): its userId is the caller's own",
}


def operation_id(endpoint: str, method: str, methods: int) -> str:
    """The Flask endpoint; a view serving several methods adds the method."""
    return endpoint if methods == 1 else f"{endpoint}.{method}"


def link_name(target: str) -> str:
    return target.rsplit(".", 1)[-1]


class LinksPlugin(BasePlugin):
    """Names every operation after its endpoint and hangs :data:`LINKS` on the 201 replies."""

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            name = operation.setdefault("operationId",
                                        operation_id(rule.endpoint, method, len(operations)))
            targets = LINKS.get(name)
            if not targets:
                continue
            responses = operation.setdefault("responses", {})
            created = responses.get("201", responses.get(201))
            if not isinstance(created, dict):
                raise RuntimeError(f"{name} has links in app.api.openapi_links but no 201 reply")
            created["links"] = {link_name(target): link(target, parameters)
                                for target, parameters in targets.items()}


def link(target: str, parameters: dict) -> dict:
    """An OpenAPI Link object from one entry of :data:`LINKS`."""
    declared = {"operationId": target,
                "parameters": {name: value for name, value in parameters.items() if name != BODY}}
    if BODY in parameters:
        declared[BODY] = dict(parameters[BODY])
    return declared
