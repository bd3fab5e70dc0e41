"""The change feed and the activity feed of a group."""
from __future__ import annotations

from marshmallow import fields, validate

from app.ledger.schemas import ConversionSchema
from app.api.schemas import PageArgsSchema, Strict, page_schema
from app.ledger.schemas import CommentSchema, ExpenseSchema
from app.groups.schemas import GroupSchema, ParticipantSchema
from app.recurring.schemas import RecurringSchema
from app.ledger.schemas import SettlementSchema
from models.groups.changes import ChangeKind

KINDS = list(ChangeKind.ALL)
ACTIVITY_KINDS = list(ChangeKind.ACTIVITY)
OPS = ["UPSERT", "DELETE"]
# Each kind's data is dumped by the schema of its own GET (an expense as in the expense
# list: its comments are changes of their own).
DATA_SCHEMAS = {ChangeKind.GROUP: GroupSchema, ChangeKind.PARTICIPANT: ParticipantSchema,
                ChangeKind.EXPENSE: ExpenseSchema, ChangeKind.COMMENT: CommentSchema,
                ChangeKind.SETTLEMENT: SettlementSchema, ChangeKind.RECURRING: RecurringSchema,
                ChangeKind.CONVERSION: ConversionSchema}


class ChangesArgsSchema(Strict):
    since = fields.Integer(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "The revision the client holds (0: none; a reset then tells it to "
                       "fetch everything and sync from the revision returned)."})
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=100))


class ChangeData(fields.Field):
    """The changed resource as its own GET returns it, chosen by the entry's kind."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        return DATA_SCHEMAS[obj.kind]().dump(value)


class ChangeSchema(Strict):
    revision = fields.Integer(required=True, metadata={
        "description": "The revision of this resource's latest change in the page"})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    id = fields.String(required=True, metadata={"description": "The resource's id"})
    op = fields.String(required=True, validate=validate.OneOf(OPS))
    at = fields.String(required=True)
    actorParticipantId = fields.String(allow_none=True, attribute="actor_participant_id")
    data = ChangeData(required=True, allow_none=True, metadata={
        "description": "The resource now, as its GET returns it; null for DELETE. An "
                       "EXPENSE DELETE also removes that expense's comments.",
        # OAS 3.0 honours nullable only beside a type in the same schema (and never beside a
        # $ref), so null is a branch of its own: an object that can only be null.
        "anyOf": [{"$ref": f"#/components/schemas/{schema.__name__[:-len('Schema')]}"}
                  for schema in DATA_SCHEMAS.values()]
        + [{"type": "object", "nullable": True, "enum": [None],
            "description": "DELETE: the resource is gone"}]})


class ChangeFeedSchema(Strict):
    revision = fields.Integer(required=True, metadata={"description": "The group's revision"})
    changes = fields.List(fields.Nested(ChangeSchema), required=True)
    nextSince = fields.Integer(required=True, attribute="next_since", metadata={
        "description": "Pass as since for the next page (or the next sync)"})
    hasMore = fields.Boolean(required=True, attribute="has_more")
    reset = fields.Boolean(required=True, metadata={
        "description": "since is older than the kept window (90 days) or than the log: "
                       "refetch the group, then sync from revision"})


class ActivityArgsSchema(PageArgsSchema):
    pass


class ActorSchema(Strict):
    participantId = fields.String(allow_none=True, attribute="participant_id")
    displayName = fields.String(required=True, attribute="display_name")


# Any JSON value a resource field holds, null included (a field set or cleared by the edit).
# Typed branches: OAS 3.0 honours nullable only beside a type, and generators type each one.
JSON_VALUE = {"anyOf": [{"type": "string", "nullable": True}, {"type": "number"},
                        {"type": "boolean"}, {"type": "array", "items": {}},
                        {"type": "object", "additionalProperties": True}]}


class FieldDiffSchema(Strict):
    field = fields.String(required=True)
    before = fields.Raw(allow_none=True, metadata={
        **JSON_VALUE, "description": "The value before the edit (null: it was unset, or it was text and "
        "the resource or its author's account has since been deleted)"})
    after = fields.Raw(allow_none=True, metadata={
        **JSON_VALUE, "description": "The value after the edit (null: it is unset now, or it was text and "
        "the resource or its author's account has since been deleted)"})


class ActivitySchema(Strict):
    revision = fields.Integer(required=True)
    at = fields.String(required=True)
    actor = fields.Nested(ActorSchema, required=True)
    kind = fields.String(required=True, validate=validate.OneOf(ACTIVITY_KINDS), metadata={
        "description": "LINK: the actor opened a share-link session (activity only, never "
                       "in /changes)"})
    id = fields.String(required=True)
    op = fields.String(required=True, validate=validate.OneOf(OPS))
    summary = fields.String(required=True, metadata={"example": "Ann added Pizza (€30.00)"})
    locale = fields.String(required=True, metadata={
        "description": "The tag summary was written in: the reader's (their profile's locale, "
                       "or for a share-link guest the browser's Accept-Language)"})
    diff = fields.List(fields.Nested(FieldDiffSchema), required=True, metadata={
        "description": "An edit's changed fields, before and after (empty otherwise)"})


ActivityPageSchema = page_schema(ActivitySchema, "ActivityPage")
