"""aws-wsgi, with the three things it gets wrong for us: the one module that knows them.

aws-wsgi (0.2.7, archived upstream) turns an API Gateway proxy event into a WSGI call. Our
HTTP API sends payload format 1.0, REST's shape: aws-wsgi reads ``httpMethod``, ``path`` (no
stage prefix on the ``$default`` stage), ``headers`` (lower-case names from an HTTP API; it
upper-cases them), ``queryStringParameters``, ``body`` and ``isBase64Encoded``, all of which 1.0
keeps. What 1.0 changes is in ``requestContext`` (``authorizer`` is ``{claims, scopes}`` or
``jwt.claims`` with a JWT authorizer, ``resourceId`` is the route key): aws-wsgi reads none of
it, and the app reads only ``requestId`` and ``identity.sourceIp`` there (it verifies every
credential itself: no gateway authorizer). tests/handlers drives it with the HTTP API events in
events/. It never calls the response body's ``close()``, which WSGI requires and where work
registered with ``call_on_close`` (developer usage counting) runs; and it builds the WSGI
environ itself, failing with UnicodeEncodeError on text WSGI can't carry (a lone UTF-16
surrogate in the query string) before our app sees the request. And it folds header names
into environ keys by upper-casing them and turning ``-`` into ``_``, so a client's
``cloudfront_viewer_address`` header overwrites CloudFront's own
``CloudFront-Viewer-Address`` when it comes later in the event: the viewer address is set again
from the raw event's exact header (app.api.origin trusts it for the per-IP limit).
tests/developer/test_lambda_close.py, tests/edge/test_lambda_unreadable_query.py and
tests/edge/test_viewer_address_spoof.py fail if any of the three changes.
"""
from __future__ import annotations

import json
from typing import Optional

import awsgi

from app.api.origin import VIEWER_ADDRESS
from app.errors import Invalid

# The reply to a request line WSGI cannot carry: our error envelope, as the app would answer.
_UNREADABLE = {"statusCode": "400", "headers": {"Content-Type": "application/json"},
               "body": json.dumps({"error": {"code": Invalid.code,
                                             "message": "The request line is not valid text.",
                                             "details": {}}})}
VIEWER_HEADER = "cloudfront-viewer-address"  # the one CloudFront sets


def _viewer_address(event) -> Optional[str]:
    """The exact header CloudFront sets (any case: an HTTP API lower-cases names, a crafted
    event need not). Two spellings of it came from no CloudFront: neither is trusted."""
    headers = (event or {}).get("headers") or {}
    values = [value for name, value in headers.items()
              if isinstance(name, str) and name.lower() == VIEWER_HEADER]
    return values[0] if len(values) == 1 and isinstance(values[0], str) else None


def _closing(wsgi_app):
    """The viewer address from the event's exact header; the body joined, then closed, as a
    WSGI server would."""

    def run(environ, start_response):
        viewer = _viewer_address(environ.get("awsgi.event"))
        environ.pop(VIEWER_ADDRESS, None)  # whatever spelling aws-wsgi wrote last
        if viewer is not None:
            environ[VIEWER_ADDRESS] = viewer
        body = wsgi_app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()

    return run


def lambda_handler_for(wsgi_app):
    """A Lambda handler that serves ``wsgi_app`` for API Gateway proxy events (payload 1.0)."""
    closing = _closing(wsgi_app)

    def lambda_handler(event, context):
        try:
            return awsgi.response(closing, event, context)
        except UnicodeEncodeError:
            return dict(_UNREADABLE)

    return lambda_handler
