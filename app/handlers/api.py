"""API Gateway REST (v1 proxy) events -> the Flask app, through aws-wsgi."""
from __future__ import annotations

import awsgi

from app import create_app, snapstart

app = create_app()
snapstart.register()  # no-op unless the Lambda runtime offers SnapStart hooks


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
    return awsgi.response(_wsgi, event, context)
