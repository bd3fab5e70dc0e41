"""Word lists spelled once (issue 32, item 4): each pinned here, so changing one is a choice."""
from __future__ import annotations

from app import limits
from app.changes.schemas import KINDS
from app.core import access, changelog
from models.groups import ChangeKind, GroupStatus


def test_group_statuses_are_pinned_and_readers_skip_the_hidden_ones():
    assert GroupStatus.ALL == ("ACTIVE", "IMPORTING", "DELETING", "CLOSING")
    assert set(access.UNREADABLE) == {GroupStatus.DELETING, GroupStatus.IMPORTING}


def test_change_kinds_are_pinned_and_every_logged_row_kind_is_one_of_them():
    assert ChangeKind.ALL == ("GROUP", "PARTICIPANT", "EXPENSE", "COMMENT", "SETTLEMENT",
                              "RECURRING", "CONVERSION")
    assert ChangeKind.ACTIVITY == ChangeKind.ALL + ("LINK",)
    assert KINDS == list(ChangeKind.ALL)
    assert sorted(changelog.KINDS.values()) == sorted(ChangeKind.ACTIVITY)


def test_import_formats_are_pinned_each_with_its_source_app():
    assert limits.IMPORT_SOURCES == {
        "splitwise-csv": "Splitwise", "spliit-json": "Spliit", "spliit-csv": "Spliit",
        "ihatemoney-json": "ihatemoney", "ihatemoney-csv": "ihatemoney",
        "cospend-csv": "Cospend", "tailspend-json": "TailSpend"}
    assert limits.IMPORT_FORMATS == tuple(limits.IMPORT_SOURCES)
