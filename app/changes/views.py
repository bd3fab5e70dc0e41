"""The change feed and the activity feed: /groups/{groupId}/changes and /activity."""
from __future__ import annotations

from flask import request
from marshmallow import ValidationError

from app.api.context import reader_locale, scope
from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.changes.schemas import (ActivityArgsSchema, ActivityPageSchema, ChangeFeedSchema,
                                 ChangesArgsSchema)
from app.changes import activity, feed

blp = Blueprint("changes", __name__, description="Changes and activity (offline sync)")

CHANGES_DESCRIPTION = (
    "Every change to the group's content raised its revision by exactly 1. This returns the "
    "changes after `since`, oldest first, each resource once per page with its current data "
    "(the shape its own GET returns; null when deleted); follow `nextSince` while `hasMore`. "
    "`reset: true` (no changes) when `since` is older than the kept window (90 days) or than "
    "the group's log: fetch the group again, then sync from `revision`. Two DynamoDB calls "
    "per page: one Query of the changes, then one BatchGetItem that is both the access check "
    "and the read of the rows they name.")


def _page_rows(view_args) -> tuple:
    """The page's rows join the access check's BatchGetItem: its Query runs first (after the
    credential is verified; nothing is returned before the access check passes)."""
    try:
        args = ChangesArgsSchema().load(request.args.to_dict())
    except ValidationError:
        return ()  # the view answers 422
    return feed.read_page(str(view_args["group_id"]), args["since"], args["limit"]).keys


@blp.route("/groups/<uuid:groupId>/changes")
@needs(role="VIEWER", pat="groups:read", prefetch=(_page_rows,), link=True)
@blp.arguments(ChangesArgsSchema, location="query")
@blp.response(200, ChangeFeedSchema)
@blp.doc(description=CHANGES_DESCRIPTION)
@errors(blp, NOT_FOUND)
def list_changes(args, access):
    """What changed since a revision (VIEWER+)."""
    page = feed.page_for(access.group_id, args["since"], args["limit"])
    return feed.changes_since(access, args["since"], page)


@blp.route("/groups/<uuid:groupId>/activity")
@needs(role="VIEWER", pat="groups:read", link=True)
@blp.arguments(ActivityArgsSchema, location="query")
@blp.response(200, ActivityPageSchema)
@errors(blp, NOT_FOUND)
def list_activity(args, access):
    """Who changed what, newest first, with each edit's fields before and after (VIEWER+)."""
    return activity.activity(access, limit=args["limit"], cursor=args["cursor"],
                             scope=scope(f"activity:{access.group_id}"),
                             locale=reader_locale()).as_dict()
