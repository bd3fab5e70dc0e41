"""Properties of handle normalisation, directory key folding and search visibility."""
from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import Invalid
from app.people import directory, handles
from app.users import profiles
from models.people import DirectoryEntry, fold
from models.users import Profile

LETTERS = "abczëéèöüïåñçßZOEAB"
names = st.text(alphabet=LETTERS + " ", min_size=2, max_size=12).filter(
    lambda n: len(fold(n)) >= 2)
PROPERTY = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@given(st.text(max_size=40))
@settings(deadline=None, derandomize=True)
def test_folding_any_text_is_idempotent(text):
    assert fold(fold(text)) == fold(text)


@given(st.text(alphabet=LETTERS + " ", max_size=20))
@settings(deadline=None, derandomize=True)
def test_folding_ignores_case_and_accents(text):
    folded = fold(text)
    assert fold(text.upper()) == fold(text.lower()) == folded
    assert not set(folded) & set("ëéèöüïåñçß")


@given(names)
@settings(deadline=None, derandomize=True)
def test_directory_keys_are_the_folded_prefix(name):
    row = DirectoryEntry.build("u1", "NAME", name, display_name=name, handle=None)
    assert row.DirKey == fold(name)[:2]
    assert row.DirSort == f"{fold(name)}#u1"


@given(st.text(alphabet="abcXYZ_019-. ", min_size=0, max_size=34))
@settings(deadline=None, derandomize=True)
def test_handles_normalise_to_lowercase_or_are_refused(raw):
    try:
        handle = handles.normalise(raw)
    except Invalid:
        return
    assert handle == raw.strip().lower() and handles.HANDLE_PATTERN.match(handle)
    assert handle not in handles.RESERVED


def test_zoe_is_found_by_zoe_without_the_accent(aws):
    Profile("z1", "PROFILE", Email="z@example.com", DisplayName="Zoë").save()
    handles.set_handle("z1", "zoe_rocks", discoverable=True)
    for query in ("zoe", "ZOË", "Zo", "zoë"):
        assert [r["userId"] for r in directory.search("caller", query)] == ["z1"]


operations = st.lists(st.tuples(st.integers(0, 3),
                                st.one_of(names.map(lambda n: ("rename", n)),
                                          st.booleans().map(lambda b: ("discoverable", b)))),
                      max_size=6)


@PROPERTY
@given(st.lists(st.tuples(names, st.booleans()), min_size=1, max_size=4), operations)
def test_search_never_returns_a_user_who_is_not_discoverable(aws, people, ops):
    run = uuid.uuid4().hex[:8]
    ids = [f"{run}-{index}" for index in range(len(people))]
    state = {}
    for uid, (name, discoverable) in zip(ids, people, strict=True):
        Profile(uid, "PROFILE", Email=f"{uid}@example.com", DisplayName=name).save()
        handles.set_handle(uid, f"h{uid.replace('-', '_')}", discoverable=discoverable)
        state[uid] = [name, discoverable]
    for index, (kind, value) in ops:
        uid = ids[index % len(ids)]
        if kind == "rename":
            profiles.update_profile(uid, display_name=value)
            state[uid][0] = value
        else:
            handles.set_handle(uid, f"h{uid.replace('-', '_')}", discoverable=value)
            state[uid][1] = value
    for name, _ in state.values():
        prefix = fold(name)[:3]
        found = {r["userId"] for r in directory.search("caller", prefix) if r["userId"] in state}
        expected = {other for other, (other_name, shown) in state.items()
                    if shown and fold(other_name).startswith(prefix)}
        assert found == expected, (prefix, state)
    # every user's handle row is searchable only while discoverable
    found = {r["userId"] for r in directory.search("caller", f"h{run}")}
    assert found == {u for u, (_, shown) in state.items() if shown}


@pytest.mark.parametrize("text,expected", [("Zoë", "zoe"), ("ÅSA  Lind", "asa lind"),
                                           ("Straße", "strasse"), ("  Çelik ", "celik")])
def test_fold_examples(text, expected):
    assert fold(text) == expected
