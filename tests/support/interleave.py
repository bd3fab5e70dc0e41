"""Deterministic interleavings: run another writer's step at an exact point of a request.

The hook sits on botocore (below PynamoDB and everything of ours), so the code under test
runs unchanged: it reads and authorizes as usual, then, just before its write leaves for
DynamoDB, the competing change commits, exactly the window a real race would hit."""
from __future__ import annotations

import contextlib
from typing import Callable


@contextlib.contextmanager
def just_before(operation: str, action: Callable[[], object]):
    """Run ``action`` once, right before the first ``operation`` call (e.g. TransactWriteItems).

    ``action`` may itself call DynamoDB (even ``operation``): it fires only once."""
    from botocore.client import BaseClient

    original = BaseClient._make_api_call
    state = {"fired": False}

    def hooked(self, operation_name, api_params):
        if operation_name == operation and not state["fired"]:
            state["fired"] = True
            action()
        return original(self, operation_name, api_params)

    BaseClient._make_api_call = hooked
    try:
        yield state
    finally:
        BaseClient._make_api_call = original
    assert state["fired"], f"no {operation} call happened"
