"""Expense comments: /groups/{groupId}/expenses/{expenseId}/comments."""
from __future__ import annotations

from app.api.context import scope
from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.schemas.common import PageArgsSchema
from app.schemas.expenses import CommentBodySchema, CommentPageSchema, CommentSchema
from app.services.ledger import comments
from app.services.ledger.expenses import comments_scope

blp = Blueprint("comments", __name__, description="Expense comments")

THREAD = "/groups/<uuid:groupId>/expenses/<uuid:expenseId>/comments"


@blp.route(THREAD)
@needs(role="VIEWER", pat="groups:read")
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, CommentPageSchema)
@errors(blp, NOT_FOUND)
def list_comments(args, access, expense_id):
    """Oldest first (VIEWER+)."""
    return comments.list_comments(access, str(expense_id), limit=args["limit"],
                                  cursor=args["cursor"],
                                  scope=scope(comments_scope(access.group_id, str(expense_id))))


@blp.route(THREAD, methods=["POST"])
@needs(role="VIEWER", pat="expenses:write", idempotent=True)
@blp.arguments(CommentBodySchema)
@blp.response(201, CommentSchema)
@errors(blp, NOT_FOUND, (409, "IDEMPOTENCY_IN_PROGRESS."),
        (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body."))
def add_comment(body, access, expense_id):
    """Comment (VIEWER+); ``@handle`` mentions of group users raise MENTION events."""
    return comments.add_comment(access, str(expense_id), body["body"])


@blp.route(THREAD + "/<uuid:commentId>", methods=["PATCH"])
@needs(role="VIEWER", pat="expenses:write")
@blp.arguments(CommentBodySchema)
@blp.response(200, CommentSchema)
@errors(blp, (403, "Only the author may edit a comment."), NOT_FOUND)
def edit_comment(body, access, expense_id, comment_id):
    """The author rewrites their comment."""
    return comments.edit_comment(access, str(expense_id), str(comment_id), body["body"])


@blp.route(THREAD + "/<uuid:commentId>", methods=["DELETE"])
@needs(role="VIEWER", pat="expenses:write")
@blp.response(204)
@errors(blp, (403, "Only the author or an OWNER may delete a comment."), NOT_FOUND)
def delete_comment(access, expense_id, comment_id):
    """The author, or an OWNER, deletes a comment."""
    comments.delete_comment(access, str(expense_id), str(comment_id))
