"""Amazon SES v2: one message, sent raw (so both parts and the unsubscribe headers go as
composed) through the deployment's configuration set, whose event destination carries bounces
and complaints to the feedback handler (app/notifications/feedback.py)."""
from __future__ import annotations

from email.message import EmailMessage

import boto3

_client: dict = {}


def client():
    if "sesv2" not in _client:
        _client["sesv2"] = boto3.client("sesv2")
    return _client["sesv2"]


def use(stub_client) -> None:
    """Tests: a botocore-stubbed client instead of the real one."""
    _client["sesv2"] = stub_client


def send(message: EmailMessage, to: str, configuration_set: str) -> str:
    """The SES message id. Nothing goes out but to ``to``; SES refuses an address on the
    account's suppression list (the feedback handler's doing) and any unverified sender."""
    reply = client().send_email(
        FromEmailAddress=str(message["From"]), Destination={"ToAddresses": [to]},
        Content={"Raw": {"Data": message.as_bytes()}}, ConfigurationSetName=configuration_set)
    return reply["MessageId"]
