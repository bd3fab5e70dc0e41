"""Structured JSON logs (Powertools Logger). Never log tokens, secrets or request bodies.

Request ids live in Powertools' thread-safe keys (a ContextVar), not in ``append_keys``: the
latter is one dict for the whole process, so under a threaded server one request's lines
carried whichever request had set its ids last."""
from __future__ import annotations

import os

from aws_lambda_powertools import Logger

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "tailspend"),
                level=os.environ.get("LOG_LEVEL", "INFO"))


def bind_request(request_id: str) -> None:
    """Start this thread's log context for a new request (drops any earlier request's keys)."""
    logger.thread_safe_clear_keys()
    logger.thread_safe_append_keys(request_id=request_id)


def bind_user(user_id: str) -> None:
    logger.thread_safe_append_keys(user_id=user_id)


def unbind() -> None:
    """The request is over: later lines on this thread belong to no request."""
    logger.thread_safe_clear_keys()
