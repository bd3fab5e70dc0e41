"""Chat sessions: create, list, and read one with its messages and drafts (one Query)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import List, Optional

from app.errors import not_found
from app.core import paging
from app.core.access import authorize
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from models.users import ChatDraft, ChatMessage, ChatSession, UserItem

OPEN, SAVED, DISCARDED = "OPEN", "SAVED", "DISCARDED"


@dataclass
class SessionRows:
    """A session with its messages (in order) and drafts."""

    session: ChatSession
    messages: List[ChatMessage] = field(default_factory=list)
    drafts: List[ChatDraft] = field(default_factory=list)

    def __getattr__(self, name: str):
        return getattr(self.session, name)

    def open_draft(self) -> Optional[ChatDraft]:
        """The newest draft still open (the one a later message revises)."""
        live = [d for d in self.drafts if d.Status == OPEN]
        return max(live, key=lambda d: d.CreatedAt or "") if live else None


def authorize_group(user_id: str, group_id: str) -> None:
    """The caller is in the group (404 otherwise; a malformed id is no group either)."""
    try:
        uuid.UUID(group_id)
    except ValueError:
        return  # the body's own validation refuses it (400)
    authorize(user_id, group_id)


def create_session(user_id: str, group_id: Optional[str]) -> ChatSession:
    """A session of the caller's alone; a named group must be one of theirs (else 404)."""
    if group_id:
        authorize(user_id, group_id)
    session_id, now = new_id(), now_iso()
    session = ChatSession(*ChatSession.key(user_id, session_id), SessionId=session_id,
                          GroupId=group_id, MessageCount=0, Version=1, CreatedAt=now,
                          UpdatedAt=now)
    tx = Transaction().require_live_account(user_id)
    tx.put(session, condition=ChatSession.SK.does_not_exist())
    tx.commit()
    return session


def list_sessions(user_id: str, *, limit: Optional[int], cursor: Optional[str],
                  scope: str) -> paging.Page:
    rows = ChatSession.of_user(user_id, limit=paging.clamp_limit(limit),
                               last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope)


def load_session(user_id: str, session_id: str) -> SessionRows:
    """The session and everything in it (strongly consistent), or NotFound."""
    found: Optional[SessionRows] = None
    messages, drafts = [], []
    for row in UserItem.query(user_id, UserItem.SK.startswith(ChatSession.rows_prefix(session_id)),
                              consistent_read=True):
        if isinstance(row, ChatSession) and row.SessionId == session_id:
            found = SessionRows(row)
        elif isinstance(row, ChatMessage) and row.SessionId == session_id:
            messages.append(row)
        elif isinstance(row, ChatDraft) and row.SessionId == session_id:
            drafts.append(row)
    if found is None:
        raise not_found("Chat session")
    found.messages, found.drafts = messages, drafts
    return found


def load_draft(user_id: str, session_id: str, draft_id: str) -> ChatDraft:
    try:
        return ChatDraft.get(*ChatDraft.key(user_id, session_id, draft_id), consistent_read=True)
    except (ChatDraft.DoesNotExist, ValueError):
        raise not_found("Draft") from None
