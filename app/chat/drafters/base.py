"""The drafter interface: what a drafter is told, and what it may answer."""
from __future__ import annotations

from app.core.i18n import N_

from dataclasses import dataclass, field
from typing import List, Optional, Protocol


# The server's question when a proposal names none of the caller's groups.
WHICH_GROUP = N_("Which of your groups is this for?")


@dataclass(frozen=True)
class GroupContext:
    """One of the caller's own groups, with its roster (nothing of anyone else's groups)."""

    group_id: str
    name: str
    currency: str
    my_participant_id: str
    participants: tuple  # ((participantId, displayName), ...)
    # The group's defaultSplit: (splitMode, ((participantId, value), ...)), or None.
    default_split: Optional[tuple] = None
    # ((participantId, household label), ...) of those who hold one.
    households: tuple = ()

    def display_name(self, participant_id: str) -> Optional[str]:
        return dict(self.participants).get(participant_id)


@dataclass(frozen=True)
class Context:
    """The message to draft from, the caller's groups, today, and the open draft (if any)."""

    text: str
    today: str  # YYYY-MM-DD (UTC)
    groups: tuple  # (GroupContext, ...)
    session_group_id: Optional[str] = None
    open_draft: Optional[dict] = None  # {"draftId", "groupId", "facts", "expense"}
    locale: str = "en"  # the language replies are written in: the message's writer's

    def group(self, group_id: Optional[str]) -> Optional[GroupContext]:
        return next((g for g in self.groups if g.group_id == group_id), None)


@dataclass
class Proposal:
    """A reply, the questions it asks, and at most one draft body (API field names).

    ``expense`` is None when the drafter could not tell enough; ``facts`` is what it
    understood, kept with the draft so a later message can revise it. ``households``
    instead of an expense proposes household changes: ``[{participantId, household}]``
    (household None: out of their household)."""

    reply: str
    questions: List[str] = field(default_factory=list)
    group_id: Optional[str] = None
    expense: Optional[dict] = None
    facts: dict = field(default_factory=dict)
    households: Optional[List[dict]] = None


class DrafterError(Exception):
    """The drafter produced nothing usable: the message fails and its credits are refunded.

    ``code`` is one of TIMEOUT, REFUSED, MALFORMED, UNAVAILABLE (logged, stored on the
    message; never the model's own text)."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


class Drafter(Protocol):
    def draft(self, context: Context) -> Proposal:
        """A proposal for ``context``, or DrafterError."""
