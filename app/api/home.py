"""The home screen: the caller's groups and join requests across groups (/users/me/groups,
/users/me/join-requests; the account itself is app.api.users). The blueprint keeps its name
"me", which is its tag in /openapi.json."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import Blueprint
from app.schemas.common import PageArgsSchema
from app.schemas.groups import HomeGroupPageSchema
from app.schemas.join_requests import JoinRequestPageSchema
from app.services.groups import home, join_requests

blp = Blueprint("me", __name__, description="The caller's groups and requests across groups")


@blp.route("/users/me/groups")
@needs(pat="groups:read", liveness_in_view=True)
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, HomeGroupPageSchema)
@blp.doc(description="One index query and one batch read per page, however many groups; a "
                     f"page holds at most {home.MAX_GROUPS_PER_PAGE} groups whatever the "
                     "limit, follow nextCursor for more.")
def my_groups(args):
    """The home screen: each group with the caller's role, participant id and net."""
    return home.my_groups(principal().user_id, limit=args["limit"], cursor=args["cursor"],
                          scope=scope("me-groups")).as_dict()


@blp.route("/users/me/join-requests")
@needs()
@blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@blp.response(200, JoinRequestPageSchema)
def my_join_requests(args):
    """The caller's pending join requests across groups."""
    return join_requests.my_pending_requests(principal().user_id, limit=args["limit"],
                                             cursor=args["cursor"],
                                             scope=scope("me-join-requests")).as_dict()
