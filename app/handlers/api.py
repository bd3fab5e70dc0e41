"""API Gateway REST (v1 proxy) events -> the app of the request's area, through aws-wsgi."""
from __future__ import annotations

import functools
import json

import awsgi

from app import snapstart
from app.api.dispatch import AreaDispatcher
from app.factory import create_app, start

_runtime = start()
# One app per area, built on the first request to it (see app.api.dispatch).
app = AreaDispatcher(_runtime, functools.partial(create_app, runtime=_runtime))
snapstart.register(app)  # no-op unless the Lambda runtime offers SnapStart hooks

# aws-wsgi builds the WSGI environ itself and fails on text WSGI can't carry (a lone UTF-16
# surrogate in the query string) before our app sees the request: answer that one as 400.
_UNREADABLE = {"statusCode": "400", "headers": {"Content-Type": "application/json"},
               "body": json.dumps({"error": {"code": "VALIDATION_ERROR",
                                             "message": "The request line is not valid text.",
                                             "details": {}}})}


def _closing(wsgi_app):
    """aws-wsgi never calls the body's close(); WSGI requires it, and work registered with
    ``call_on_close`` (developer usage counting) runs there, after the body is complete."""

    def run(environ, start_response):
        body = wsgi_app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()

    return run


_wsgi = _closing(app)


def lambda_handler(event, context):
    try:
        return awsgi.response(_wsgi, event, context)
    except UnicodeEncodeError:
        return dict(_UNREADABLE)
