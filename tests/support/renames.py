"""Renames in in-process tests. PATCH /users/me hands the mirroring of a new name onto the
account's group rosters to the profile-mirror queue and answers; the `app` fixture
(tests/conftest.py) holds those messages here instead of a queue, so a test sees the rosters
as the reply left them. A test that reads a roster after a rename runs the worker first:

    client.patch("/users/me", json={"displayName": "New"}, headers=headers)
    renames.run_worker()
"""
from __future__ import annotations

import json
from typing import List

from app.users.mirror import QUEUE

PENDING: List[dict] = []


def hold(message: dict) -> None:
    PENDING.append(message)


def sqs_event(message: dict) -> dict:
    """The canned SQS event (events/profile_mirror_sqs.json) carrying ``message``."""
    from app.local import triggers

    event = triggers.canned_event("profile_mirror_sqs.json")
    event["Records"][0]["body"] = json.dumps(message)
    return event


def run_worker() -> int:
    """Feed every held message to the worker's Lambda handler, oldest first, as the queue
    would; returns how many ran. A failed record fails the test."""
    from app.handlers import profile_mirror
    from tests.support.lambda_context import lambda_context

    ran = 0
    while PENDING:
        reply = profile_mirror.lambda_handler(sqs_event(PENDING.pop(0)), lambda_context())
        assert reply == {"batchItemFailures": []}, reply
        ran += 1
    return ran


__all__ = ("PENDING", "QUEUE", "hold", "run_worker", "sqs_event")
