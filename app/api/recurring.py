"""Recurring expense templates: /groups/{groupId}/recurring."""
from __future__ import annotations

from app.api.context import group_access, scope
from app.api.expenses import CREATE_REFUSED
from app.api.idempotency import idempotent
from app.api.pat import pat_scope
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.common import PageArgsSchema, page_schema
from app.schemas.recurring import RecurringCreateSchema, RecurringPatchSchema, RecurringSchema
from app.services.recurring import templates

blp = Blueprint("recurring", __name__, description="Recurring expenses")

ONE = "/groups/<uuid:groupId>/recurring/<uuid:recurringId>"


@blp.route("/groups/<uuid:groupId>/recurring", methods=["POST"])
@idempotent(group_role="MEMBER")
@blp.arguments(RecurringCreateSchema)
@blp.response(201, RecurringSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
@pat_scope("expenses:write")
def create_recurring(body, group_id):
    """A recurring expense (MEMBER+): recorded by the hourly tick on every occurrence."""
    access = group_access(group_id, "MEMBER")
    return templates.create_template(access, body)


@blp.route("/groups/<uuid:groupId>/recurring")
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, page_schema(RecurringSchema, "RecurringPage"))
@errors(blp, NOT_FOUND)
@pat_scope("groups:read")
def list_recurring(args, group_id):
    """The group's templates (VIEWER+)."""
    access = group_access(group_id)
    return templates.list_templates(access, limit=args["limit"], cursor=args["cursor"],
                                    scope=scope(f"recurring:{access.group_id}"))


@blp.route(ONE)
@blp.response(200, RecurringSchema)
@errors(blp, NOT_FOUND)
@pat_scope("groups:read")
def get_recurring(group_id, recurring_id):
    """One template (VIEWER+)."""
    access = group_access(group_id)
    return templates.get_template(access, str(recurring_id))


@blp.route(ONE, methods=["PATCH"])
@blp.arguments(RecurringPatchSchema)
@blp.response(200, RecurringSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "VERSION_CONFLICT (stale updatedAt), PARTICIPANT_UNAVAILABLE or "
              "CONCURRENT_UPDATE (an occurrence is being recorded)."))
@pat_scope("expenses:write")
def update_recurring(body, group_id, recurring_id):
    """Edit future occurrences or pause/resume (MEMBER+); stale updatedAt → 409."""
    access = group_access(group_id, "MEMBER")
    updated_at = body.pop("updatedAt")
    return templates.update_template(access, str(recurring_id), updated_at, body)


@blp.route(ONE, methods=["DELETE"])
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND)
@pat_scope("expenses:write")
def delete_recurring(group_id, recurring_id):
    """Delete a template (MEMBER+); occurrences already recorded stay."""
    access = group_access(group_id, "MEMBER")
    templates.delete_template(access, str(recurring_id))
