"""The changes tests' group: Ann and two guests, signed in through the API."""
from __future__ import annotations

import pytest

from tests.ledger.conftest import make_group_ctx


@pytest.fixture
def group(client, sign_in):
    return make_group_ctx(client, sign_in, "ann@example.com", guests=2)


def current_revision(group) -> int:
    """The group's revision, read from a /changes page past its end (which names no rows)."""
    return group.get("/changes", query_string={"since": 10 ** 6}).get_json()["revision"]
