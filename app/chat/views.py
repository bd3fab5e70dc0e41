"""Expense chat assistant: /chat/sessions…, /users/me/credits and the admin credit grant."""
from __future__ import annotations

from flask import make_response, request

from app.api.context import principal, reader_locale, scope, settings
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.errors import Forbidden
from app.chat.schemas import (AdmittedSchema, ConfirmSchema, CreditBalanceSchema,
                              CreditGrantSchema, CreditsSchema, HouseholdsConfirmedSchema,
                              ListArgsSchema,
                              MessageCreateSchema, SessionCreateSchema, SessionDetailSchema,
                              SessionPageSchema, SessionSchema)
from app.ledger.schemas import ExpenseSchema
from app.credits import service as credits
from app.chat import admission, confirm, sessions, work

blp = Blueprint("chat", __name__, description="Expense chat assistant")

SESSION_NOT_FOUND = (404, "No such session of the caller's (or no such draft in it).")


def _session_group(**_) -> None:
    """A session about a group needs the caller in it, before a replay as at first."""
    body = request.get_json(silent=True)
    group_id = body.get("groupId") if isinstance(body, dict) else None
    if isinstance(group_id, str) and group_id:
        sessions.authorize_group(principal().user_id, group_id)


@blp.route("/chat/sessions", methods=["POST"])
@needs(idempotent=True, authorize=_session_group)
@blp.arguments(SessionCreateSchema, required=False)
@blp.response(201, SessionSchema)
@errors(blp, NOT_FOUND)
def create_session(body):
    """Start a session of the caller's alone, optionally about one of their groups."""
    return sessions.create_session(principal().user_id, body.get("groupId"))


@blp.route("/chat/sessions")
@needs()
@blp.arguments(ListArgsSchema, location="query")
@blp.response(200, SessionPageSchema)
def list_sessions(args):
    """The caller's sessions."""
    return sessions.list_sessions(principal().user_id, limit=args["limit"],
                                  cursor=args["cursor"], scope=scope("chat-sessions")).as_dict()


@blp.route("/chat/sessions/<uuid:sessionId>")
@needs()
@blp.response(200, SessionDetailSchema)
@errors(blp, SESSION_NOT_FOUND)
def get_session(session_id):
    """One session with its messages (in order) and drafts."""
    return sessions.load_session(principal().user_id, str(session_id))


@blp.route("/chat/sessions/<uuid:sessionId>/messages", methods=["POST"])
@needs()
@blp.arguments(MessageCreateSchema)
@blp.response(202, AdmittedSchema)
@errors(blp, SESSION_NOT_FOUND,
        (402, "INSUFFICIENT_CREDITS: the message costs more than the balance "
              "(details.balance, details.needed)."),
        (409, "CHAT_SESSION_FULL, or CONCURRENT_UPDATE when too many messages race."))
def post_message(body, session_id):
    """Admit a message (its credits reserved); the worker drafts the reply."""
    config = settings()
    message = admission.post_message(principal().user_id, str(session_id), body["text"],
                                     monthly=config.chat_monthly_credits,
                                     cost=config.chat_message_credits,
                                     locale=reader_locale())
    work.hand_off(admission.work_item(message))
    return message


def _may_confirm(session_id, draft_id) -> None:
    """MEMBER+ of the draft's group, checked before a replay or a DRAFT_CONFIRMED."""
    confirm.authorize_confirm(principal().user_id, str(session_id), str(draft_id))


def _admin_only(**_) -> None:
    if not principal().is_admin:
        raise Forbidden("Only administrators may grant credits.")


@blp.route("/chat/sessions/<uuid:sessionId>/drafts/<uuid:draftId>/confirm", methods=["POST"])
@needs(idempotent=True, authorize=_may_confirm)
@blp.arguments(ConfirmSchema)
@blp.response(201, ExpenseSchema)
@blp.alt_response(200, schema=HouseholdsConfirmedSchema, description=(
    "A HOUSEHOLD draft: its households set (PATCH participant's rules: an OWNER anyone's, "
    "a member their own; else 403)"))
@errors(blp, FORBIDDEN, SESSION_NOT_FOUND,
        (409, "DRAFT_CONFIRMED (details.expenseId), DRAFT_DISCARDED, VERSION_CONFLICT, or "
              "an expense create's own conflicts (PARTICIPANT_UNAVAILABLE, ...)."))
def confirm_draft(body, session_id, draft_id):
    """Create the draft's expense, or set its households (MEMBER+ of its group); a replay
    is 409 DRAFT_CONFIRMED."""
    done = confirm.confirm_draft(principal().user_id, str(session_id), str(draft_id),
                                 body["version"])
    if isinstance(done, dict):  # a HOUSEHOLD draft: not an expense
        return make_response(HouseholdsConfirmedSchema().dump(done), 200)
    return done


@blp.route("/chat/sessions/<uuid:sessionId>/drafts/<uuid:draftId>/discard", methods=["POST"])
@needs()
@blp.response(204)
@errors(blp, SESSION_NOT_FOUND, (409, "DRAFT_CONFIRMED: the draft was already saved."))
def discard_draft(session_id, draft_id):
    """Discard an open draft."""
    confirm.discard_draft(principal().user_id, str(session_id), str(draft_id))


@blp.route("/users/me/credits")
@needs()
@blp.arguments(ListArgsSchema, location="query")
@blp.response(200, CreditsSchema)
def my_credits(args):
    """The caller's chat credit and its ledger, newest first."""
    return credits.credits_page(principal().user_id, monthly=settings().chat_monthly_credits,
                                limit=args["limit"], cursor=args["cursor"],
                                scope=scope("chat-credits"))


@blp.route("/admin/users/<uuid:userId>/credits", methods=["POST"])
@needs(idempotent=True, authorize=_admin_only)
@blp.arguments(CreditGrantSchema)
@blp.response(201, CreditBalanceSchema)
@errors(blp, FORBIDDEN, (404, "No such user."))
def grant_credits(body, user_id):
    """Admins only: grant chat credit to a user."""
    _admin_only()
    standing = credits.grant(str(user_id), body["delta"], body["reason"],
                             monthly=settings().chat_monthly_credits)
    return {"balance": standing.balance}
