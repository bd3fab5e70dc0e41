"""Live updates: POST /realtime/token (docs/realtime.md)."""
from __future__ import annotations

from app.api.context import principal
from app.api.needs import needs
from app.api.spec import Blueprint
from app.realtime.schemas import RealtimeTokenSchema
from app.realtime import issue

blp = Blueprint("realtime", __name__, description="Live updates: a token to subscribe with")


@blp.route("/realtime/token", methods=["POST"])
@needs(pat="groups:read", link_own_group=True)
@blp.response(200, RealtimeTokenSchema)
@blp.doc(description="A 15-minute token listing /groups/{groupId} for each of the caller's "
                     "groups and /users/{userId}. Subscribe to those channels over the "
                     "AppSync Events WebSocket protocol; each poke {groupId, revision, kind, "
                     "id} says to read /groups/{groupId}/changes?since=. A share-link "
                     "session's token lists only its own /groups/{groupId}, and ends "
                     "with the session at the latest.")
def realtime_token():
    """Mint a realtime subscribe token with the caller's current groups."""
    caller = principal()
    return issue.issue(caller.user_id, link=caller.link)
