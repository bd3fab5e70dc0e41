"""SES feedback (SES -> SNS -> this): a permanent bounce or a complaint suppresses the address
on the account's suppression list, so SES sends nothing to it again, whoever asks.

A transient bounce (mailbox full, greylisting) suppresses nothing: SES retried already and a
later message may well arrive. Both event shapes are read: a configuration set's event
destination (``eventType``) and an identity's feedback notifications (``notificationType``)."""
from __future__ import annotations

import json
from typing import Iterable, List, Tuple

import boto3

from app.logs import logger

# Its own client, not ses.py's: this function may only suppress, never send, and the deploy
# tests read each function's AWS calls from the modules it loads (tests/deploy/code_needs.py):
# sharing ses.py's would make the feedback function reach SendEmail.
_client: dict = {}


def client():
    if "sesv2" not in _client:
        _client["sesv2"] = boto3.client("sesv2")
    return _client["sesv2"]


def use(stub_client) -> None:
    """Tests: a botocore-stubbed client instead of the real one."""
    _client["sesv2"] = stub_client


def suppressions(message: dict) -> List[Tuple[str, str]]:
    """(address, BOUNCE | COMPLAINT) pairs one SES event asks to suppress."""
    kind = message.get("eventType") or message.get("notificationType")
    if kind == "Bounce":
        bounce = message.get("bounce") or {}
        if bounce.get("bounceType") != "Permanent":
            return []
        return [(r["emailAddress"], "BOUNCE") for r in bounce.get("bouncedRecipients") or ()
                if r.get("emailAddress")]
    if kind == "Complaint":
        complaint = message.get("complaint") or {}
        return [(r["emailAddress"], "COMPLAINT")
                for r in complaint.get("complainedRecipients") or () if r.get("emailAddress")]
    return []


def handle_sns(records: Iterable[dict]) -> int:
    """Suppress every address the records name; how many were suppressed."""
    count = 0
    for record in records:
        try:
            message = json.loads(record["Sns"]["Message"])
        except (KeyError, TypeError, ValueError):
            logger.warning("mail.feedback_unreadable")
            continue
        for address, reason in suppressions(message):
            client().put_suppressed_destination(EmailAddress=address, Reason=reason)
            count += 1
    logger.info("mail.feedback", extra={"suppressed": count})
    return count
