"""What a view needs before it runs, said once, at the view: ``@needs(...)``.

One decorator's explicit arguments replace the markers the per-request hooks used to read off
view functions. Every hook reads the same record (:func:`of`): authentication
(app.factory), the rate windows and the PAT policy (app.developer.gate, app.api.pat),
the body checks (app.api.edge) and the OpenAPI document (:class:`DocumentPlugin` below:
each operation's security and its 304). A view without it is a signed-in, metered, JSON, PAT-refused, link-session-refused
view (fail closed).

Share-link sessions (docs/share-links.md) are refused by every view that does not say
``link=True`` (403; 404 on another group's path): a new route never opens to a guest without
an account by accident. ``link=True`` goes only on /groups/{groupId} views with a ``role``,
where the session is authorized by its link (app.core.access.authorize_link): its link's
role, its own group only, acting as its guest. ``link_own_group=True`` is for the few views
outside any group path that serve a session only its own group (POST /realtime/token): the
view passes the session to its use case, which authorizes it by its link.

Place it first under the route (``@blp.route``): it wraps flask-smorest's decorators, so an
idempotent replay answers with the reply as first serialized, and Flask registers the view
that carries the record.

With ``role``, a /groups/{groupId} view is authorized here (404 for a non-member, 403 for a
lower role: app.api.context.group_access) and takes ``access`` instead of ``group_id``;
``idempotent`` authorizes before any replay, so a replay never answers someone the route would
refuse now (app.api.idempotency)."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Optional, Tuple, Union

from apispec import BasePlugin

from app.api.pat import EXTENSION, REFUSED, SCHEME, SCOPES

ROLES = ("VIEWER", "MEMBER", "OWNER")
LINK_SCHEME = "linkSession"


@dataclass(frozen=True)
class Needs:
    """The record ``@needs`` leaves on a view; see :func:`needs` for each field."""

    public: bool = False
    metered: bool = True
    client_limited: bool = False
    own_auth: bool = False
    form_body: bool = False
    max_body_bytes: Optional[int] = None
    pat: Optional[str] = None
    role: Optional[str] = None
    prefetch: Tuple = ()
    in_group: bool = True
    liveness_in_view: bool = False
    while_deleting: bool = False
    idempotent: bool = False
    authorize: Optional[Callable[..., None]] = None
    etag: Union[bool, Callable[[], bool]] = False
    link: bool = False
    link_own_group: bool = False
    while_archived: bool = False


DEFAULT = Needs()


def of(view) -> Needs:
    """The needs of a view (Flask's view function), or the default for a view without any
    (flask-smorest's document and Swagger UI views, a 404)."""
    return getattr(view, "needs", DEFAULT)


def needs(*, role: Optional[str] = None, pat: Optional[str] = None, idempotent: bool = False,
          prefetch: Tuple = (), in_group: bool = True, public: bool = False,
          metered: bool = True, client_limited: bool = False, own_auth: bool = False,
          form_body: bool = False, max_body_bytes: Optional[int] = None,
          liveness_in_view: bool = False, while_deleting: bool = False,
          authorize: Optional[Callable[..., None]] = None,
          secret_fields: Tuple[str, ...] = (), etag: Union[bool, Callable[[], bool]] = False,
          link: bool = False, link_own_group: bool = False, while_archived: bool = False):
    """Declare what the view needs.

    - ``role``: the caller's least role in the path's group ("VIEWER", "MEMBER", "OWNER");
      the view takes ``access`` (app.core.access.Access) instead of ``group_id``.
    - ``pat``: the personal-access-token scope that opens the view; PATs are refused without.
    - ``idempotent``: a create route that honours ``Idempotency-Key`` (``secret_fields`` are
      left out of a replayed reply; ``authorize(**kwargs)`` is the check of a route whose
      right lives outside the path's group, run before any replay).
    - ``prefetch``: the group rows the authorization reads with the caller's profile in one
      BatchGetItem: sort keys, or functions of the view's arguments returning sort keys.
    - ``etag``: a conditional group read (ETag, 304 while the tag matches: app.api.conditional);
      a function instead of True says per request whether it is one.
    - ``in_group=False``: a /groups/{groupId} view whose caller is not (yet) a member (an
      invite preview, a join request): no group row is read for it.
    - ``public``: reachable without a bearer token; ``metered=False``: spends no rate window
      (touches no table); ``client_limited``: spends its OAuth client's window instead of
      its address's; ``own_auth``: checks its own bearer credential (POST /mcp).
    - ``form_body``: reads a form-encoded body (OAuth); ``max_body_bytes``: a larger body cap.
    - ``liveness_in_view``: the view's service reads the caller's profile in a batch it
      makes anyway (the authenticator reads nothing); checked after the view if it did not.
    - ``while_deleting``: callable by an account that is being deleted.
    - ``link``: a share-link session may call it (with ``role``, in its own group only);
      every other view refuses sessions (see the module doc). ``link_own_group``: a view
      with no group in its path that serves a session only its own group (no ``role``).
    - ``while_archived``: a write (any method but GET/HEAD) with a ``role`` that an archived
      group still takes (archive, unarchive, delete); every other one is refused 409
      GROUP_ARCHIVED by its authorization (app.core.access.refuse_archived).
    """
    if role is not None and role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    if pat is not None:
        if pat not in SCOPES:
            raise ValueError(f"unknown PAT scope {pat!r}")
    if link and (role is None or not in_group):
        raise ValueError("link=True needs a role in the path's group")
    if link_own_group and (role is not None or link):
        raise ValueError("link_own_group=True is for views outside a group's path")
    record = Needs(public=public, metered=metered, client_limited=client_limited,
                   own_auth=own_auth, form_body=form_body, max_body_bytes=max_body_bytes,
                   pat=pat, role=role, prefetch=tuple(prefetch), in_group=in_group,
                   liveness_in_view=liveness_in_view, while_deleting=while_deleting,
                   idempotent=idempotent, authorize=authorize, etag=etag, link=link,
                   link_own_group=link_own_group, while_archived=while_archived)

    def declare(view):
        inner = view
        if idempotent:  # inside the authorization: a replay answers only an authorized caller
            from app.api.idempotency import replayed
            inner = replayed(inner, authorize=authorize, secret_fields=secret_fields)
        if role is not None:
            inner = _authorized(inner, role, record)
        if etag:  # around the authorization, which answers a matching tag (NotModified)
            from app.api.conditional import conditional_read
            inner = conditional_read(inner, None if etag is True else etag)
        if liveness_in_view:
            from app.api.context import checked_live
            inner = checked_live(inner)
        inner.needs = record
        return inner

    return declare


def prefetch_keys(record: Needs, view_args: dict) -> tuple:
    """The rows ``record.prefetch`` names for this request (a function among them, which may
    read, runs once a request): the group's sort keys, and (model, key) of other tables."""
    from flask import g
    if "prefetch_keys" not in g:
        g.prefetch_keys = tuple(key for declared in record.prefetch
                                for key in (declared(view_args) if callable(declared)
                                            else (declared,)))
    return g.prefetch_keys


READ_METHODS = ("GET", "HEAD", "OPTIONS")


def writes(method: str, record: Needs) -> bool:
    """Whether a request to a group route is a write the archive refuses."""
    return method not in READ_METHODS and not record.while_archived


def _authorized(view, role: str, record: Needs):
    """The view called with ``access`` (the caller's access to the path's group, at least
    ``role``, with the group rows the view prefetches) in place of ``group_id``."""
    @functools.wraps(view)
    def authorized(*args, **kwargs):
        from flask import request
        from app.api.context import group_access
        keys = prefetch_keys(record, request.view_args)
        kwargs["access"] = group_access(kwargs.pop("group_id"), role,
                                        prefetch=[key for key in keys if isinstance(key, str)],
                                        writing=writes(request.method, record))
        return view(*args, **kwargs)
    return authorized


class DocumentPlugin(BasePlugin):
    """Writes into each operation of the OpenAPI document what its view's ``@needs`` says,
    so document and enforcement cannot drift: the security requirement and the 304 reply.

    Public views: ``security: []``. App-only: ``[{bearerAuth: []}]``. PAT-enabled:
    ``[{bearerAuth: []}, {personalAccessToken: [scope]}]``. The scope list of an http bearer
    scheme is informational (OpenAPI 3.1 calls these roles), so each operation also carries
    ``x-pat-scope`` (the scope, or "none") for tools that follow 3.0 strictly."""

    def __init__(self, app) -> None:
        self._app = app

    def init_spec(self, spec) -> None:
        super().init_spec(spec)
        spec.components.security_scheme(SCHEME, {
            "type": "http", "scheme": "bearer", "bearerFormat": "tsp_<tokenId>_<secret>",
            "description": "Personal access token; reaches only operations listing it, with "
                           "the scope named there (403 otherwise)."})
        spec.components.security_scheme(LINK_SCHEME, {
            "type": "http", "scheme": "bearer", "bearerFormat": "tss_<payload>.<signature>",
            "description": "Share-link session (POST /links/session, 1 hour): reaches only "
                           "operations listing it, in its own group, with its link's role, "
                           "acting as its guest (403 elsewhere, 404 on another group)."})

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        from app.api.conditional import NOT_MODIFIED
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        view = self._app.view_functions.get(rule.endpoint)
        if view is None:
            return
        declared = of(view)
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            if declared.etag:
                operation.setdefault("responses", {})["304"] = {"description": NOT_MODIFIED}
            if declared.public:
                operation["security"] = []
                operation[EXTENSION] = "public"
                continue
            scope = declared.pat
            operation["security"] = [{"bearerAuth": []}] + ([{SCHEME: [scope]}] if scope else [])
            if declared.link or declared.link_own_group:
                operation["security"].append({LINK_SCHEME: []})
            operation[EXTENSION] = scope or REFUSED
            operation.setdefault("responses", {}).setdefault("429", {
                "description": "RATE_LIMITED: over a rate limit or the daily developer budget "
                               "(Retry-After says when to come back)"})
