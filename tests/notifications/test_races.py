"""Preferences races on real threads against the serialized embedded endpoint.

A PREFS row's first switch write creates its map; the entry write and the whole-map write are
each conditioned on the map, so concurrent first writes (and a mute-list change, which makes
the map if missing) all land whichever creates it."""
from __future__ import annotations

import pytest

from app.core.clock import new_id
from app.notifications import preferences
from models.users import Profile
from tests.groups.test_races import codes, race

pytestmark = pytest.mark.race
ROUNDS = 30


def test_concurrent_first_writes_of_one_row_all_land(live_db):
    for _ in range(ROUNDS):
        user_id = new_id()
        # A live account: the PREFS row is the user's, written only while it is.
        Profile(*Profile.key(user_id), Email="r@example.com", DisplayName="R").save()
        outcomes = race(
            lambda: preferences.update_preferences(user_id, types={"MENTION": {"push": False}}),
            lambda: preferences.update_preferences(user_id, types={
                "EXPENSE_ADDED": {"push": False}, "MENTION": {"push": False}}),
            lambda: preferences.update_preferences(user_id, types={"COMMENT_ADDED": {"push": False}}),
            lambda: preferences.unmute(user_id, "some-group"))
        assert codes(outcomes) == []
        switched_off = {name for name, on in preferences.get_preferences(user_id)["types"].items()
                        if not on["push"]}
        assert switched_off == {"MENTION", "EXPENSE_ADDED", "COMMENT_ADDED"}
