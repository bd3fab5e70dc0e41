"""Work registered with call_on_close (usage counting) runs in Lambda too: aws-wsgi never
closes the body, so the API handler's wrapper must."""
from __future__ import annotations

import json
from pathlib import Path

import awsgi
from flask import Flask


def test_the_api_handler_closes_the_body_so_after_reply_work_runs(monkeypatch):
    from app.api.lambda_adapter import lambda_handler_for

    closed = []
    tiny = Flask("tiny")

    @tiny.route("/health")
    def health():
        response = tiny.make_response({"status": "ok"})
        response.call_on_close(lambda: closed.append(True))
        return response

    event = json.loads((Path(__file__).parents[2] / "events" / "api_get_health.json").read_text())
    awsgi.response(tiny, event, None)
    assert closed == []  # aws-wsgi alone drops the close() call

    reply = lambda_handler_for(tiny)(event, None)
    assert closed == [True] and json.loads(reply["body"]) == {"status": "ok"}
