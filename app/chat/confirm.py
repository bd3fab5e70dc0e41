"""Confirming a draft creates its expense through the REST create itself; the draft's saved
marker rides in that transaction, so a replay can never create a second expense (even once
the first was deleted): it hears 409 DRAFT_CONFIRMED."""
from __future__ import annotations

import json
from typing import Optional

from app.errors import DomainError, Invalid, version_conflict
from app.chat.errors import draft_confirmed, draft_discarded
from app.ledger.expense_input import ExpenseInput
from app.chat import capacity, proposals
from app.chat.sessions import DISCARDED, OPEN, SAVED, load_draft, load_session
from app.core.access import authorize
from app.core.clock import now_iso
from app.core.conditional import update_if
from app.ledger import expenses
from models.users import ChatDraft


def _refusal(draft: ChatDraft) -> Optional[DomainError]:
    if draft.Status == SAVED:
        return draft_confirmed(draft.ExpenseId)
    if draft.Status == DISCARDED:
        return draft_discarded()
    return None


def _stale(version: int):
    """The error a failed saved-marker condition means, judged from the draft as it was."""

    def judge(raw: Optional[dict]) -> DomainError:
        if raw is None:
            return version_conflict("draft")
        current = ChatDraft.from_raw_data(raw)
        return _refusal(current) or version_conflict("draft", int(current.Version))

    return judge


def authorize_confirm(user_id: str, session_id: str, draft_id: str):
    """The caller's MEMBER+ access to the draft's group (403/404 otherwise), and the draft."""
    load_session(user_id, session_id)
    draft = load_draft(user_id, session_id, draft_id)
    return authorize(user_id, draft.GroupId, "MEMBER", writing=True), draft


def confirm_draft(user_id: str, session_id: str, draft_id: str, version: int):
    """Create the draft's expense (MEMBER+ of its group) and mark the draft SAVED atomically."""
    with capacity.metered("confirm"):
        # Authorized first: someone demoted since hears 403, never DRAFT_CONFIRMED.
        access, draft = authorize_confirm(user_id, session_id, draft_id)
        refusal = _refusal(draft)
        if refusal is not None:
            raise refusal
        if int(draft.Version) != version:
            raise version_conflict("draft", int(draft.Version))
        if draft.kind == HOUSEHOLD:
            return _confirm_households(access, draft, version)
        # Judged when it was drafted (proposals.validate_body); the ledger's build judges the
        # money again as it records it. Only the roster may have changed since it was shown.
        expense = ExpenseInput.from_draft(json.loads(draft.Body))
        from app.groups.participants import list_participants

        roster = {p.ParticipantId for p in list_participants(access)}
        try:
            proposals.check_roster(expense, roster)
        except Invalid as error:
            raise Invalid(f"The draft is no longer a valid expense: {error.message}",
                          details=error.details) from None

        def saved_marker(tx, expense) -> None:
            _mark_saved(tx, draft, version, [ChatDraft.ExpenseId.set(expense.ExpenseId)])

        return expenses.create_expense(access, expense, also=saved_marker)


HOUSEHOLD = "HOUSEHOLD"


def _mark_saved(tx, draft: ChatDraft, version: int, also: list) -> None:
    """The saved marker, in the transaction that does what the draft says."""
    tx.update(ChatDraft(draft.UserId, draft.SK),
              [ChatDraft.Status.set(SAVED), ChatDraft.Version.set(version + 1),
               ChatDraft.UpdatedAt.set(now_iso())] + also,
              condition=(ChatDraft.Status == OPEN) & (ChatDraft.Version == version),
              on_fail=_stale(version))


def _confirm_households(access, draft: ChatDraft, version: int) -> dict:
    """Set the draft's households under PATCH participant's rules (an OWNER anyone's, a
    member their own), the saved marker in the same TransactWrite; checked again against
    the roster as it is now."""
    from app.groups.participants import list_participants, set_households

    roster = {p.ParticipantId for p in list_participants(access)}
    try:
        changes = proposals.validate_households(json.loads(draft.Body), roster)
    except Invalid as error:
        raise Invalid(f"The draft is no longer valid: {error.message}",
                      details=error.details) from None
    changed = set_households(
        access, [(c["participantId"], c["household"]) for c in changes],
        also=lambda tx: _mark_saved(tx, draft, version, []))
    return {"kind": HOUSEHOLD, "participants": changed}


def discard_draft(user_id: str, session_id: str, draft_id: str) -> None:
    """Discard an open draft (again: no-op); a confirmed one is 409 DRAFT_CONFIRMED."""
    draft = load_draft(user_id, session_id, draft_id)
    if draft.Status == DISCARDED:
        return
    if draft.Status == SAVED:
        raise draft_confirmed(draft.ExpenseId)
    if not update_if(draft, [ChatDraft.Status.set(DISCARDED), ChatDraft.UpdatedAt.set(now_iso()),
                             ChatDraft.Version.set(int(draft.Version) + 1)],
                     ChatDraft.Status == OPEN):
        discard_draft(user_id, session_id, draft_id)  # it changed meanwhile: judge it again
