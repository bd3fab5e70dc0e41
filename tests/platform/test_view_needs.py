"""Every view says what it needs with one ``@needs(...)`` (app/api/needs.py), and the hooks
that enforce it read nothing else: the routes are walked from the app's URL map, so a new
route cannot forget its declaration or its group authorization."""
from __future__ import annotations

import pytest

from app.api import needs

# flask-smorest's own views: the OpenAPI document and the Swagger UI page.
LIBRARY_ENDPOINTS = {"api-docs.openapi_json", "api-docs.openapi_swagger_ui"}


def _views(app):
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in LIBRARY_ENDPOINTS:
            yield rule, app.view_functions[rule.endpoint]


def test_every_view_declares_what_it_needs(app):
    undeclared = sorted(rule.endpoint for rule, view in _views(app)
                        if not hasattr(view, "needs"))
    assert undeclared == []


def test_every_group_route_authorizes_in_its_group_or_says_it_does_not(app):
    forgot = sorted(rule.endpoint for rule, view in _views(app)
                    if rule.rule.startswith("/groups/<uuid:groupId>")
                    and needs.of(view).role is None and needs.of(view).in_group)
    assert forgot == []


def test_a_role_is_one_the_groups_know():
    with pytest.raises(ValueError):
        needs.needs(role="ADMIN")
    with pytest.raises(ValueError):
        needs.needs(pat="groups:write")


def test_a_view_with_a_role_takes_access_not_a_group_id(client, sign_in):
    """The authorization runs before the view: a stranger is refused (404), a member served."""
    owner, _ = sign_in("olga@example.com", display_name="Olga")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=owner).get_json()
    stranger, _ = sign_in("sam@example.com", display_name="Sam")
    reply = client.get(f"/groups/{group['groupId']}/expenses", headers=stranger)
    assert reply.status_code == 404
    reply = client.get(f"/groups/{group['groupId']}/expenses", headers=owner)
    assert reply.status_code == 200
