"""Amazon SES v2: one message, sent raw (so both parts and the unsubscribe headers go as
composed) through the deployment's configuration set, whose event destination carries bounces
and complaints to the feedback handler (app/notifications/feedback.py)."""
from __future__ import annotations

from email.message import EmailMessage

from app.notifications.ses_client import client, use  # noqa: F401 — use: the tests' stub

def send(message: EmailMessage, to: str, configuration_set: str) -> str:
    """The SES message id. Nothing goes out but to ``to``; SES refuses an address on the
    account's suppression list (the feedback handler's doing) and any unverified sender."""
    reply = client().send_email(
        FromEmailAddress=str(message["From"]), Destination={"ToAddresses": [to]},
        Content={"Raw": {"Data": message.as_bytes()}}, ConfigurationSetName=configuration_set)
    return reply["MessageId"]
