"""Rules compile their URL builders lazily (app.api.routing); building URLs is unchanged."""
from __future__ import annotations

from flask import url_for
from werkzeug.routing import Map, Rule

from app.api.routing import LazyBuilderRule


def _values(rule) -> dict:
    # An id with characters the builder must quote, so a wrong builder shows.
    return {name: f"v {name}/ü" for name in rule.arguments}


def test_every_route_builds_the_url_werkzeugs_own_builder_builds(app):
    rules = list(app.url_map.iter_rules())
    assert rules and all(isinstance(rule, LazyBuilderRule) for rule in rules)
    eager = Map([Rule(rule.rule, endpoint=rule.endpoint) for rule in rules])
    eager_adapter = eager.bind("api.example")
    with app.test_request_context(base_url="https://api.example"):
        for rule in rules:
            values = _values(rule)
            expected = eager_adapter.build(rule.endpoint, values)
            assert url_for(rule.endpoint, **values) == expected
            assert url_for(rule.endpoint, **values, extra="a b") == expected + "?extra=a+b"
            # The second call goes straight to the builder compiled by the first.
            assert url_for(rule.endpoint, **values) == expected


def test_a_builder_is_compiled_once_and_only_when_used():
    rule = LazyBuilderRule("/groups/<groupId>", endpoint="group")
    routes = Map([rule])
    lazy = rule._build_unknown  # what Map.build calls (it appends unknown values as a query)
    assert lazy.__func__.__name__ == "build_on_first_use"
    assert rule._build.__func__.__name__ == "build_on_first_use"
    url = routes.bind("x").build("group", {"groupId": "a b"})
    assert url == "/groups/a%20b"
    assert rule._build_unknown.__func__.__name__ != "build_on_first_use"
    assert rule._build.__func__.__name__ == "build_on_first_use"  # never used, never compiled
    assert routes.bind("x").build("group", {"groupId": "c"}) == "/groups/c"
