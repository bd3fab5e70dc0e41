"""What a drafter may see: the caller's own groups and rosters, and the session's open draft."""
from __future__ import annotations

import json
from typing import Optional

from app.core.i18n import supported
from app.errors import NotFound
from app.chat.drafters.base import Context, GroupContext
from app.core.access import authorize
from app.groups.participants import list_participants
from models.groups import Participant

# Groups shown to a drafter when the session names none (the newest memberships first).
MAX_GROUPS = 10
def group_context(user_id: str, group_id: str) -> Optional[GroupContext]:
    """One group the caller is in, with its roster (None once they are not)."""
    try:
        access = authorize(user_id, group_id)
    except NotFound:
        return None
    people = list_participants(access)
    roster = tuple((p.ParticipantId, p.DisplayName) for p in people)
    default = access.group.DefaultSplit
    return GroupContext(group_id=group_id, name=access.group.Name,
                        households=tuple((p.ParticipantId, p.Household) for p in people
                                         if p.Household),
                        currency=access.group.Currency,
                        my_participant_id=access.participant_id, participants=roster,
                        default_split=None if default is None else (default.SplitMode, tuple(
                            (s.ParticipantId, None if s.Value is None else int(s.Value))
                            for s in default.Splits)))


def build(user_id: str, text: str, today: str, *, session_group_id: Optional[str],
          open_draft, locale: Optional[str] = None) -> Context:
    if session_group_id:
        ids = [session_group_id]
    else:
        ids = [m.GroupId for m in Participant.memberships(user_id, limit=MAX_GROUPS)][:MAX_GROUPS]
    groups = tuple(g for g in (group_context(user_id, gid) for gid in ids) if g is not None)
    draft = None
    if open_draft is not None:
        draft = {"draftId": open_draft.DraftId, "groupId": open_draft.GroupId,
                 "facts": json.loads(open_draft.Facts or "{}"),
                 # an expense body, or a household draft's {"households": [...]}
                 open_draft.body_name: json.loads(open_draft.Body)}
    return Context(text=text, today=today, groups=groups, session_group_id=session_group_id,
                   open_draft=draft, locale=supported(locale))
