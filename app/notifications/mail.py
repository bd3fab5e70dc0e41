"""E-mail: one notification as a message (a plain-text and an HTML part, RFC 8058 one-click
unsubscribe) and its transport, an SMTP relay through smtplib (local mode: the embedded server
``serve`` starts) or Amazon SES v2.

The HTML part goes through Jinja2 with autoescaping on: every value in it (a group's name, an
expense's description, a person's name) is someone's free text, so none is ever markup."""
from __future__ import annotations

import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Optional
from urllib.parse import quote, unquote, urlsplit

from jinja2 import Environment

from app import config
from app.core.i18n import texts
from app.logs import logger
from app.notifications.unsubscribe import unsubscribe_token
SMTP_TIMEOUT_S = 10.0

_HTML = Environment(autoescape=True).from_string(
    "<!doctype html>\n"
    '<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title></head>\n'
    '<body style="font-family: sans-serif">\n'
    "<h1>{{ title }}</h1>\n"
    "<p>{{ body }}</p>\n"
    '<p><a href="{{ open_url }}">{{ open_label }}</a></p>\n'
    '<p style="font-size: small"><a href="{{ unsubscribe_url }}">{{ unsubscribe_label }}</a></p>\n'
    "</body></html>\n")


@dataclass(frozen=True)
class Mail:
    """One e-mail to one person, ready for any transport."""

    to: str
    subject: str
    text: str
    html: str
    unsubscribe_url: str


def link_origin() -> str:
    """Where links in e-mails point: PUBLIC_BASE_URL, else the origin serving the API."""
    settings = config.current()
    return (settings.public_base_url or settings.serving_origin or "").rstrip("/")


def compose(*, to: str, user_id: str, event_type: str, title: str, body: str,
            locale: Optional[str]) -> Mail:
    """The notification ``title``/``body`` (already in the reader's language) as an e-mail."""
    t = texts(locale)
    origin = link_origin()
    unsubscribe_url = (f"{origin}/unsubscribe?token="
                       f"{quote(unsubscribe_token(user_id, event_type))}")
    open_url = f"{origin}/app/"
    open_label = t.gettext("Open TailSpend")
    unsubscribe_label = t.gettext("Stop these e-mails")
    text = (f"{title}\n\n{body}\n\n{open_label}: {open_url}\n\n"
            f"{unsubscribe_label}: {unsubscribe_url}\n")
    html = _HTML.render(lang=t.tag, title=title, body=body, open_url=open_url,
                        open_label=open_label, unsubscribe_url=unsubscribe_url,
                        unsubscribe_label=unsubscribe_label)
    return Mail(to, title, text, html, unsubscribe_url)


def as_message(mail: Mail) -> EmailMessage:
    """RFC 5322 with both parts (multipart/alternative) and RFC 8058's two headers."""
    message = EmailMessage()
    message["From"] = config.current().mail_from
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain="tailspend")
    message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


def send_deadline() -> float:
    """When the last e-mail of this event may start (``time.monotonic()``): the invocation's
    end, shared with its pushes (the Lambda context's remaining time, less the handler's
    margin), else MAIL_SEND_BUDGET_S from now. A send may take its whole SMTP timeout, so
    none starts later than that before the deadline."""
    from app.notifications import push

    end = push.invocation_end()
    if end is None:
        end = time.monotonic() + config.current().mail_send_budget_s
    return end - SMTP_TIMEOUT_S


def enabled() -> bool:
    settings = config.current()
    return bool(settings.smtp_url or settings.ses_configuration_set)


def send(mail: Mail) -> bool:
    """Send through the configured transport; False (logged) when it refused or failed: an
    e-mail is a side channel, like a push, and never fails the notification."""
    settings = config.current()
    try:
        if settings.smtp_url:
            _send_smtp(settings.smtp_url, as_message(mail))
        elif settings.ses_configuration_set:
            from app.notifications import ses

            ses.send(as_message(mail), mail.to, settings.ses_configuration_set)
        else:
            return False
    except Exception:  # noqa: BLE001 - see the docstring
        logger.exception("mail.failed")
        return False
    return True


def _send_smtp(url: str, message: EmailMessage) -> None:
    """smtp://[user:password@]host[:port] (smtps:// for implicit TLS; smtp:// upgrades with
    STARTTLS when the relay offers it) — any relay, the embedded one included."""
    parts = urlsplit(url)
    implicit_tls = parts.scheme == "smtps"
    client = smtplib.SMTP_SSL if implicit_tls else smtplib.SMTP
    with client(parts.hostname or "localhost", parts.port or (465 if implicit_tls else 25),
                timeout=SMTP_TIMEOUT_S) as smtp:
        smtp.ehlo()
        if not implicit_tls and smtp.has_extn("starttls"):
            smtp.starttls()
            smtp.ehlo()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
        smtp.send_message(message)
