"""The Lambda context local mode and the tests hand a handler, where AWS hands its own.

Powertools' ``inject_lambda_context`` reads ``function_name``, ``memory_limit_in_mb``,
``invoked_function_arn`` and ``aws_request_id`` from it, so every handler's log lines carry
them locally too; a fresh invocation id per call, as Lambda gives."""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Optional

LOCAL_ACCOUNT = "000000000000"  # moto's, and the account local mode's ARNs name elsewhere
LOCAL_REGION = "us-east-1"
# What a context without a deadline answers: longer than any Lambda may run, which is how the
# handlers tell it (app/handlers/time_left.py: the package they ship in has no app/local).
NO_DEADLINE_MS = 24 * 3600 * 1000


@dataclass
class LocalContext:
    """One local invocation's context; ``deadline`` is a ``time.monotonic()`` instant, or None
    for local mode's schedules and workers, which nothing times out."""

    function_name: str = "tailspend-local"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = ""
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    deadline: Optional[float] = None

    def __post_init__(self) -> None:
        if not self.invoked_function_arn:
            self.invoked_function_arn = (f"arn:aws:lambda:{LOCAL_REGION}:{LOCAL_ACCOUNT}:"
                                         f"function:{self.function_name}")

    @classmethod
    def ending_in(cls, seconds: float, **fields) -> "LocalContext":
        """A context whose invocation times out ``seconds`` from now."""
        return cls(deadline=time.monotonic() + seconds, **fields)

    def get_remaining_time_in_millis(self) -> int:
        if self.deadline is None:
            return NO_DEADLINE_MS
        return max(0, int((self.deadline - time.monotonic()) * 1000))

