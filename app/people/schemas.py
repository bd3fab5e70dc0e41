"""People: the marshmallow schemas of its routes (camelCase only here)."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema
from app.api.schemas import (DerivedBoolean, DerivedString, DisplayName, Id, OmitNone, Strict,
                             StrictBoolean, page_schema, PageArgsSchema)
from app.groups.schemas import GUEST_ROLE, ParticipantSchema
from app.ledger.schemas import PayToSchema, DateString, ExpenseSchema


# ---------------------------------------------------------------- people
# People: handles, directory search, friends and direct invitations.

class HandleSchema(Strict):
    handle = fields.String(required=True, validate=validate.Regexp(
        r"^[A-Za-z0-9_]{3,30}$", error="Must be 3-30 characters of a-z, 0-9 and _."),
        metadata={"description": "Stored lowercase; reserved words are refused (400)."})
    discoverable = StrictBoolean(required=True, metadata={
        "description": "Whether search may find you by name and handle."})


class HandleReplySchema(Strict):
    """Dumps the caller's Profile row."""

    userId = fields.String(required=True, attribute="UserId")
    displayName = fields.String(required=True, attribute="DisplayName")
    handle = fields.String(required=True, attribute="Handle")
    discoverable = DerivedBoolean(lambda row: bool(row.Discoverable), required=True)


class SearchArgsSchema(Strict):
    q = fields.String(required=True, validate=validate.Length(min=2, max=100))
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=25))


class PersonSchema(Strict):
    userId = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String(allow_none=True)


class PersonListSchema(Strict):
    items = fields.List(fields.Nested(PersonSchema), required=True)


class FriendRequestSchema(Strict):
    userId = Id(required=True)


class FriendSchema(Strict):
    """Dumps the caller's Friendship row; a listed one (people.friends.Listed) adds the other
    side's current name and handle, which a bare row leaves out."""

    userId = fields.String(required=True, attribute="friend_id")
    status = fields.String(required=True, validate=validate.OneOf(
        ["OUTGOING", "INCOMING", "ACCEPTED"]), attribute="Status")
    since = DerivedString(lambda row: row.UpdatedAt or row.CreatedAt, required=True)
    displayName = fields.String(allow_none=True, attribute="display_name")
    handle = fields.String(allow_none=True, attribute="handle")


FriendPageSchema = page_schema(FriendSchema, "FriendPage")


class InvitationCreateSchema(Strict):
    """Either ``userId`` (an account: a direct invitation) or ``email`` (an address: an
    e-mail carrying a share link bound to the reserved guest), not both."""

    OPENAPI_EXTRA = {
        "description": "Exactly one of userId (a direct invitation) and email (an invitation "
                       "by e-mail); displayName only with email and without participantId.",
        "oneOf": [
            {"required": ["userId"],
             "not": {"anyOf": [{"required": ["email"]}, {"required": ["displayName"]}]}},
            {"required": ["email"],
             "not": {"anyOf": [{"required": ["userId"]},
                               {"required": ["displayName", "participantId"]}]}}]}

    userId = Id(metadata={"description": "The account to invite (a friend or a discoverable "
                                         "user). Give this or email."})
    email = fields.Email(validate=validate.Length(max=254), metadata={
        "description": "The address to invite by e-mail (the OWNER's locale writes it). "
                       "Give this or userId. Whether it belongs to an account changes "
                       "nothing: same reply, same e-mail.", "example": "bo@example.com"})
    role = fields.String(required=True, validate=GUEST_ROLE)
    participantId = Id(metadata={"description": "An unreserved guest to reserve for the "
                                                "invitee; without it a new guest is added "
                                                "(userId: or one kept from an earlier "
                                                "invitation; email: named displayName, else "
                                                "the address's local part)."})
    displayName = DisplayName(metadata={
        "description": "email without participantId only: the new guest's name in the "
                       "roster (default: the address's part before @)."})

    @validates_schema
    def _one_invitee(self, data, **kwargs):
        if ("userId" in data) == ("email" in data):
            raise ValidationError("Give userId or email, one of them.", field_name="email")
        if "displayName" in data and ("email" not in data or "participantId" in data):
            raise ValidationError("Only for an e-mail invitation adding a new guest.",
                                  field_name="displayName")


class InvitationSchema(OmitNone, Strict):
    """Dumps a GroupInvitation row; attributes the row lacks are omitted, never null."""

    OMIT_NONE = ("groupId", "groupName", "userId", "email", "linkId", "role", "participantId",
                 "invitedBy", "createdAt", "expiresAt")
    groupId = fields.String(required=True, attribute="GroupId")
    groupName = fields.String(attribute="GroupName")
    userId = fields.String(metadata={"description": "The invitee (a direct invitation)."},
                           attribute="InviteeUserId")
    email = fields.String(metadata={"description": "The invitee's address, normalised (an "
                                                  "invitation by e-mail only)."},
                          attribute="Email")
    linkId = fields.String(metadata={"description": "An invitation by e-mail only: its share "
                                                   "link; DELETE /groups/{groupId}/links/"
                                                   "{linkId} revokes it at once."},
                           attribute="LinkId")
    role = fields.String(required=True, attribute="Role")
    participantId = fields.String(metadata={"description": "The reserved guest."},
                                  attribute="ParticipantId")
    invitedBy = fields.String(required=True, attribute="InvitedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    expiresAt = fields.String(required=True, attribute="ExpiresAt")


InvitationPageSchema = page_schema(InvitationSchema, "InvitationPage")


class AcceptedInvitationSchema(Strict):
    groupId = fields.String(required=True)
    participant = fields.Nested(ParticipantSchema, required=True)


# ---------------------------------------------------------------- across
# Across my groups: GET /users/me/people and GET /users/me/expenses.

PAY_TO = fields.List(fields.Nested(PayToSchema), dump_default=list, metadata={
    "description": "When net < 0 (I owe them): how to pay them, from their payment methods"})


class PersonNetSchema(Strict):
    currency = fields.String(required=True)
    net = fields.Integer(required=True, metadata={
        "description": "Minor units of currency; > 0: they owe me, < 0: I owe them"})
    payTo = PAY_TO


class PersonGroupSchema(PersonNetSchema):
    groupId = fields.String(required=True)
    name = fields.String(required=True)


class PersonBalanceSchema(Strict):
    userId = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String()
    nets = fields.List(fields.Nested(PersonNetSchema), required=True, metadata={
        "description": "Per currency: the transfers between us in each group's settle-up "
                       "plan, summed"})
    groups = fields.List(fields.Nested(PersonGroupSchema), required=True, metadata={
        "description": "Per shared group (and kept currency owed in it): our plan's transfers"})


class PeopleBalancesSchema(Strict):
    items = fields.List(fields.Nested(PersonBalanceSchema), required=True)


PEOPLE_EXAMPLE = {"items": [{
    "userId": "0b6f5c1e-8a51-4a2c-9d6e-6c3f1f0e7a11", "displayName": "Bo", "handle": "bo",
    "nets": [{"currency": "EUR", "net": -1250,
              "payTo": [{"type": "PAYPAL", "url": "https://paypal.me/bojones/12.50EUR"}]}],
    "groups": [{"groupId": "5d0c4f3a-2f7e-4f7e-9a55-0d1e2f3a4b5c", "name": "Lisbon trip",
                "currency": "EUR", "net": -1250,
                "payTo": [{"type": "PAYPAL", "url": "https://paypal.me/bojones/12.50EUR"}]}]}]}


class MyExpensesArgsSchema(PageArgsSchema):
    from_ = DateString(data_key="from")
    to = DateString()
    q = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Words (case- and accent-insensitive); every one must occur in the "
                       "description or an item name", "example": "taxi"})
    withUserId = fields.UUID(metadata={"description": "Only expenses that user pays or owes "
                                                      "in too (groups shared with them)"})


class MyExpenseSchema(ExpenseSchema):
    """An expense of one of my groups (``groupId`` as on every expense), with its name."""

    groupName = fields.String(required=True, attribute="group_name")


MyExpensePageSchema = page_schema(MyExpenseSchema, "MyExpensePage")


_ANA, _BO = "6f1c2a7e-2b7d-4c39-9d0e-3f0a1b2c3d4e", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
MY_EXPENSES_EXAMPLE = {"items": [{
    "expenseId": "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99",
    "groupId": "5d0c4f3a-2f7e-4f7e-9a55-0d1e2f3a4b5c", "groupName": "Lisbon trip",
    "description": "Taxi to the airport", "category": "TRANSPORT", "amount": 2400,
    "currency": "EUR", "date": "2026-03-01", "version": 1,
    "payments": [{"participantId": _ANA, "amount": 2400}],
    "items": [{"name": "Taxi to the airport", "amount": 2400, "splitMode": "EQUAL",
               "splits": [{"participantId": _ANA, "value": 0, "amount": 1200},
                          {"participantId": _BO, "value": 0, "amount": 1200}]}],
    "createdBy": _ANA, "createdAt": "2026-03-01T18:04:05Z", "updatedAt": None,
    "kind": "EXPENSE"}],
    "nextCursor": None}
