"""Crashes injected where a Lambda could die: between the DynamoDB transactions of a service."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from app.core.transactions import Transaction


@contextmanager
def transaction_dies_at(call: int):
    """Inside the block, the ``call``-th transaction raises instead of committing (the ones
    before it commit), as a function killed at that point leaves the tables."""
    real_run, calls = Transaction._run, []

    def run(self):
        calls.append(1)
        if len(calls) == call:
            raise RuntimeError(f"injected: died at transaction {call}")
        return real_run(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Transaction, "_run", run)
        yield
