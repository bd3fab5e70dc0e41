"""Recurring expense templates: /groups/{groupId}/recurring."""
from __future__ import annotations

from app.api.context import scope
from app.ledger.views import CREATE_REFUSED
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.api.schemas import PageArgsSchema, page_schema
from app.recurring.schemas import RecurringCreateSchema, RecurringPatchSchema, RecurringSchema
from app.recurring import templates

blp = Blueprint("recurring", __name__, description="Recurring expenses")

ONE = "/groups/<uuid:groupId>/recurring/<uuid:recurringId>"


@blp.route("/groups/<uuid:groupId>/recurring", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", idempotent=True)
@blp.arguments(RecurringCreateSchema)
@blp.response(201, RecurringSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_recurring(body, access):
    """A recurring expense (MEMBER+): recorded by the hourly tick on every occurrence."""
    return templates.create_template(access, body)


@blp.route("/groups/<uuid:groupId>/recurring")
@needs(role="VIEWER", pat="groups:read")
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, page_schema(RecurringSchema, "RecurringPage"))
@errors(blp, NOT_FOUND)
def list_recurring(args, access):
    """The group's templates (VIEWER+)."""
    return templates.list_templates(access, limit=args["limit"], cursor=args["cursor"],
                                    scope=scope(f"recurring:{access.group_id}"))


@blp.route(ONE)
@needs(role="VIEWER", pat="groups:read")
@blp.response(200, RecurringSchema)
@errors(blp, NOT_FOUND)
def get_recurring(access, recurring_id):
    """One template (VIEWER+)."""
    return templates.get_template(access, str(recurring_id))


@blp.route(ONE, methods=["PATCH"])
@needs(role="MEMBER", pat="expenses:write")
@blp.arguments(RecurringPatchSchema)
@blp.response(200, RecurringSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "VERSION_CONFLICT (stale updatedAt), PARTICIPANT_UNAVAILABLE or "
              "CONCURRENT_UPDATE (an occurrence is being recorded)."))
def update_recurring(body, access, recurring_id):
    """Edit future occurrences or pause/resume (MEMBER+); stale updatedAt → 409."""
    updated_at = body.pop("updatedAt")
    return templates.update_template(access, str(recurring_id), updated_at, body)


@blp.route(ONE, methods=["DELETE"])
@needs(role="MEMBER", pat="expenses:write")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND)
def delete_recurring(access, recurring_id):
    """Delete a template (MEMBER+); occurrences already recorded stay."""
    templates.delete_template(access, str(recurring_id))
