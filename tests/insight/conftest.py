"""Fixtures for insight: the money tests' group, seen by its owner, with a second user; the
notifications tests' recording push provider (reminders run the notification worker)."""
from __future__ import annotations

from tests.ledger.conftest import group, other_group
from tests.notifications.conftest import recorder

__all__ = ["group", "other_group", "recorder"]
