"""Account deletion worker: SQS messages from DELETE /users/me, and a 5-minute resume schedule."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.services.account.worker import run_messages, run_schedule

bootstrap()


def lambda_handler(event, context):
    if (event or {}).get("Records"):
        return run_messages(event)
    return run_schedule()
