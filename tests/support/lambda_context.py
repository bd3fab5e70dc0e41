"""The Lambda context a test hands a handler: local mode's, so Powertools' inject_lambda_context
reads the fields it reads in AWS (app/local/context.py)."""
from __future__ import annotations

from typing import Optional

from app.local.context import LocalContext


def lambda_context(remaining_s: Optional[float] = None,
                   function_name: str = "tailspend-test") -> LocalContext:
    """A fresh invocation's context; ``remaining_s``: its time before the function times out
    (None: no deadline, as local mode runs the schedules and workers)."""
    if remaining_s is None:
        return LocalContext(function_name)
    return LocalContext.ending_in(remaining_s, function_name=function_name)
