"""An imported group's balance row files its one account, the importer (the Users set that
GET /users/me/people reads instead of rosters), with or without ``me``, and carries the
head's name and currency from the flip on."""
from __future__ import annotations

from models.groups import Balance, Group
from tests.imports.conftest import fixture_text
from tests.ledger.helpers import assert_users_map_matches_roster, users_map_of_roster


def test_the_importer_is_the_imported_groups_one_account(importer):
    for options in ({}, {"me": "Ana"}):
        status = importer.run("splitwise-csv", fixture_text("splitwise_group_en.csv"), **options)
        assert status["status"] == "DONE", status
        assert list(users_map_of_roster(status["groupId"]).values()) == [importer.user_id]
        assert_users_map_matches_roster(status["groupId"])
        # the flip writes the head copy the cross-group reads read instead of the head
        head = Group.get(*Group.key(status["groupId"]), consistent_read=True)
        copy = Balance.head_copy_of(Balance.fetch_raw(status["groupId"]))
        assert copy == (head.Name, head.Currency, None), copy
