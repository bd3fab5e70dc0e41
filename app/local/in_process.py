"""`python -m app serve`'s own DynamoDB calls reach its embedded endpoint without a socket.

The API and the embedded DynamoDB run in one process, yet each of the API's calls went out
over TCP to it: a new connection per call (werkzeug's server closes every connection after
its reply), a server thread per connection, HTTP written and parsed on both sides. Measured
on 2026-12-06: a GetItem cost 2.5 ms of CPU that way, 1.1 ms in process.

``InProcess`` is a botocore ``before-send`` handler (botocore's documented way to answer a
request without sending it): a request for the embedded endpoint's URL is handed to the very
WSGI callable its HTTP server runs (``EmbeddedDynamoDB.wsgi``, None once stopped), so the one
lock, the journal written before the reply, and moto's answers are exactly those a socket
client gets. Anything else (another URL) goes out as before. ``serve_in_process`` registers it on every PynamoDB
session (every table call of the app); local mode's stream pollers ``attach`` it to their
clients. Other clients (the receipts' S3, a test's raw client) and other processes still use
the socket, which stays open."""
from __future__ import annotations

import io
from urllib.parse import urlsplit

from botocore.awsrequest import AWSResponse
from werkzeug.test import EnvironBuilder

from models import pynamodb_adapter

_serving: dict = {}  # endpoint -> its InProcess handler, for this process


class _Body(io.BytesIO):
    """The raw reply botocore reads: ``stream()`` for a whole body, ``read`` for a stream."""

    def stream(self, **_kwargs):
        yield self.getvalue()


class InProcess:
    """``before-send`` handler answering requests for an embedded endpoint (``db``, an
    EmbeddedDynamoDB) through its WSGI callable while it serves. Once it stops, the handler
    answers nothing: a request goes to the socket, and so reaches whatever listens there now
    (another endpoint given the same port later), never the stopped one."""

    def __init__(self, db) -> None:
        self.db = db
        self.endpoint = db.endpoint.rstrip("/")

    def __call__(self, request, **_kwargs):
        url, wsgi = request.url, self.db.wsgi
        if wsgi is None or (url != self.endpoint and not url.startswith(self.endpoint + "/")):
            return None  # not ours (or no longer served): botocore sends it
        body = request.body or b""
        if hasattr(body, "read"):
            body = body.read()
        elif isinstance(body, str):
            body = body.encode("utf-8")
        parts = urlsplit(url)
        headers = [(name, value.decode("latin-1") if isinstance(value, bytes) else value)
                   for name, value in request.headers.items()]
        environ = EnvironBuilder(path=parts.path or "/", query_string=parts.query,
                                 method=request.method, headers=headers, data=body,
                                 base_url=f"{parts.scheme}://{parts.netloc}").get_environ()
        replied = []

        def start_response(status, response_headers, exc_info=None):
            replied.append((int(status.split()[0]), response_headers))

        chunks = wsgi(environ, start_response)
        try:
            content = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
        status, response_headers = replied[0]
        return AWSResponse(url, status, response_headers, _Body(content))


def serve_in_process(db) -> InProcess:
    """From now on, while ``db`` (a started EmbeddedDynamoDB) serves, this process's PynamoDB
    sessions and the clients given to :func:`attach` have its requests answered in process."""
    handler = InProcess(db)
    _serving[handler.endpoint] = handler
    pynamodb_adapter.register_on_sessions("before-send", handler)
    return handler


def attach(client):
    """``client`` (a boto3 client) with its requests answered in process when its endpoint
    is served here; unchanged otherwise."""
    handler = _serving.get((client.meta.endpoint_url or "").rstrip("/"))
    if handler is not None:
        client.meta.events.register("before-send", handler)
    return client
