"""How long the invocation has left, read from its Lambda context."""
from __future__ import annotations

from typing import Optional

# Lambda's longest timeout. More time left than this is local mode's context without a
# deadline (app/local/context.py), where nothing times out the schedule or the batch.
LAMBDA_MAX_TIMEOUT_MS = 15 * 60 * 1000


def seconds_left(context) -> Optional[float]:
    """The invocation's time left in seconds, or None when it has no deadline: the caller then
    keeps its own default bound rather than a day-long one."""
    remaining = context.get_remaining_time_in_millis()
    return None if remaining > LAMBDA_MAX_TIMEOUT_MS else remaining / 1000
