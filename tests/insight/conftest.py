"""Fixtures for insight: the money tests' group, seen by its owner, with a second user."""
from __future__ import annotations

from tests.ledger.conftest import group, other_group

__all__ = ["group", "other_group"]
