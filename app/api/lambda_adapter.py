"""aws-wsgi, with the two things it gets wrong for us: the one module that knows them.

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
surrogate in the query string) before our app sees the request. tests/developer/
test_lambda_close.py and tests/edge/test_lambda_unreadable_query.py fail if either changes.
"""
from __future__ import annotations

import json

import awsgi

# The reply to a request line WSGI cannot carry: our error envelope, as the app would answer.
_UNREADABLE = {"statusCode": "400", "headers": {"Content-Type": "application/json"},
               "body": json.dumps({"error": {"code": "VALIDATION_ERROR",
                                             "message": "The request line is not valid text.",
                                             "details": {}}})}


def _closing(wsgi_app):
    """The body joined, then closed, as a WSGI server would."""

    def run(environ, start_response):
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
