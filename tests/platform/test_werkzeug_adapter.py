"""app/api/werkzeug_adapter.py: rules whose URL builders compile on first use build the same
URLs as werkzeug's own, and binding one compiles no builder.

If one of these fails after a werkzeug upgrade, the adapter (the one module bending werkzeug)
must change: see its module doc."""
from __future__ import annotations

import uuid

from flask import url_for
from werkzeug.routing import Map, Rule

from app.api.werkzeug_adapter import BuiltOnFirstUse

RULES = ("/groups/<uuid:groupId>/expenses/<uuid:expenseId>", "/users/me", "/a/<path:rest>",
         "/pages/<int:page>")
VALUES = ({"groupId": uuid.UUID(int=1), "expenseId": uuid.UUID(int=2)}, {}, {"rest": "x/ y"},
          {"page": 3})


def _built(rule_class) -> list:
    urls = Map([rule_class(rule, endpoint=f"e{n}") for n, rule in enumerate(RULES)]).bind("h")
    return [(urls.build(f"e{n}", values), urls.build(f"e{n}", {**values, "q": "1 2"}),
             urls.build(f"e{n}", {**values, "q": "1"}, append_unknown=False))
            for n, values in enumerate(VALUES)]


def test_rules_built_on_first_use_build_the_urls_werkzeugs_own_rules_build():
    assert _built(BuiltOnFirstUse) == _built(Rule)
    assert _built(Rule)[0][1] == ("/groups/00000000-0000-0000-0000-000000000001/expenses/"
                                  "00000000-0000-0000-0000-000000000002?q=1+2")


def test_binding_a_rule_compiles_no_builder_until_one_is_used():
    rule = BuiltOnFirstUse("/users/<uuid:userId>", endpoint="user")
    Map([rule])
    lazy = rule._build_unknown
    assert lazy.__func__.__name__ == "build_on_first_use"  # bound, not compiled
    assert rule.build({"userId": uuid.UUID(int=5)}) == (
        "", "/users/00000000-0000-0000-0000-000000000005")
    assert rule._build_unknown is not lazy  # the compiled builder took its place
    assert rule._build_unknown.__func__.__name__ == "<builder:'/users/<uuid:userId>'>"
    assert rule._build.__func__.__name__ == "build_on_first_use"  # untouched until used


def test_the_app_routes_with_rules_built_on_first_use(app):
    assert app.url_rule_class is BuiltOnFirstUse
    assert all(isinstance(rule, BuiltOnFirstUse) for rule in app.url_map.iter_rules())
    with app.test_request_context():
        assert url_for("api-docs.openapi_json") == "/openapi.json"
