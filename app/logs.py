"""Structured JSON logs (Powertools Logger). Never log tokens, secrets or request bodies.

Request ids live in Powertools' thread-safe keys (a ContextVar), not in ``append_keys``: the
latter is one dict for the whole process, so under a threaded server one request's lines
carried whichever request had set its ids last.

``request_id`` is always the platform's (API Gateway's ``requestContext.requestId``, which its
access logs and ``x-amzn-RequestId`` carry; else the Lambda invocation's; else a fresh UUID
locally): anyone can send any ``X-Request-Id``, so a client's value is logged, length-capped
and printable only, as ``client_request_id`` and never trusted as the id."""
from __future__ import annotations

import logging
import os
import re
from typing import Optional

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging.formatter import LambdaPowertoolsFormatter

# What every line of one log group shares: each function logs to its own group (whose stream
# names carry the version), and all of them are the one service. ~200 B of a ~410 B line, and
# CloudWatch bills log bytes by the GB (bench/cost_bench.py prices them).
SAME_IN_EVERY_LINE = ("function_name", "function_memory_size", "function_arn", "service")


class GroupFormatter(LambdaPowertoolsFormatter):
    """Powertools' JSON lines without what the log group already says (SAME_IN_EVERY_LINE),
    ``cold_start`` only where it is true, and the code ``location`` only on warnings and errors
    (an INFO line's message names its event). serialize is the formatter's documented hook
    for a custom output."""

    def serialize(self, log) -> str:
        for key in SAME_IN_EVERY_LINE:
            log.pop(key, None)
        if log.get("cold_start") is False:
            del log["cold_start"]
        if log.get("level") in ("DEBUG", "INFO"):
            log.pop("location", None)
        return super().serialize(log)


logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "tailspend"),
                level=os.environ.get("LOG_LEVEL", "INFO"), logger_formatter=GroupFormatter())

# Bearer secrets of our own shapes: PATs (tsp_), share links (tsl_) and their sessions (tss_).
# None is logged on purpose; this catches the one a future line would carry by accident (an
# exception's message quoting a body, a path a client built wrongly).
_SECRET = re.compile(r"\bts[pls]_[A-Za-z0-9_.\-]{8,}")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    return _SECRET.sub(REDACTED, text)


class RedactSecrets(logging.Filter):
    """Replaces token-shaped text in a record's message, arguments and extra fields."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        for name, value in list(vars(record).items()):
            if isinstance(value, str) and name not in ("msg", "name", "levelname", "pathname"):
                setattr(record, name, redact(value))
        return True


logger.addFilter(RedactSecrets())


MAX_CLIENT_REQUEST_ID = 128
_UNPRINTABLE = re.compile(r"[^\x21-\x7e]")


def platform_request_id(event: Optional[dict], context: object = None) -> Optional[str]:
    """The id the platform gave this request: API Gateway's, else the Lambda invocation's."""
    found = ((event or {}).get("requestContext") or {}).get("requestId")
    if isinstance(found, str) and found:
        return found
    found = getattr(context, "aws_request_id", None)
    return found if isinstance(found, str) and found else None


def client_request_id(value: Optional[str]) -> Optional[str]:
    """A caller's own X-Request-Id as we log it: visible ASCII only, at most 128 characters."""
    if not value:
        return None
    return _UNPRINTABLE.sub("?", value[:MAX_CLIENT_REQUEST_ID]) or None


def bind_request(request_id: str, client_id: Optional[str] = None) -> None:
    """Start this thread's log context for a new request (drops any earlier request's keys)."""
    logger.thread_safe_clear_keys()
    keys = {"request_id": request_id}
    if client_id:
        keys["client_request_id"] = client_id
    logger.thread_safe_append_keys(**keys)


def bind_user(user_id: str) -> None:
    logger.thread_safe_append_keys(user_id=user_id)


def unbind() -> None:
    """The request is over: later lines on this thread belong to no request."""
    logger.thread_safe_clear_keys()
