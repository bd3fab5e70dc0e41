"""Every area of the API, declared in one place, and the URL rules each one serves.

An app built by ``create_app`` registers the blueprints of the areas it serves the normal way
(``register``). The deployed handler builds one small app per area on the first request to it
(app.api.dispatch), choosing the area by path from ``app.api.route_table``: a table of every
rule, generated from the blueprints so that choosing imports no area. After changing a route,
regenerate it::

    .venv/bin/python -m app.api.routes

(tests/platform/test_route_table.py fails, naming this command, while the table is stale).
"""
from __future__ import annotations

import importlib
import pprint
import sys
from pathlib import Path
from typing import Iterable, NamedTuple, Optional

from flask import Flask


class Area(NamedTuple):
    """Where a blueprint lives, without importing it."""

    name: str  # the blueprint's name: the prefix of its endpoints
    module: str
    attribute: str = "blp"
    documented: bool = True  # in /openapi.json (the HTML pages are not)
    local_only: bool = False
    # Areas served in the same app: their templates render in this one's pages.
    needs: tuple = ()

    def blueprint(self):
        blueprint = getattr(importlib.import_module(self.module), self.attribute)
        if blueprint.name != self.name:
            raise RuntimeError(f"{self.module}.{self.attribute} is named {blueprint.name!r}, "
                               f"declared as {self.name!r}")
        return blueprint


# In the order their operations appear in /openapi.json.
AREAS = (
    Area("health", "app.api.health"),
    Area("users", "app.api.users"),
    Area("me", "app.api.home"),  # /users/me/groups and /users/me/join-requests: the home screen
    Area("groups", "app.api.groups"),
    Area("invite", "app.api.invite"),
    Area("join_requests", "app.api.join_requests"),
    Area("expenses", "app.api.expenses"),
    Area("receipts", "app.api.receipts"),
    Area("comments", "app.api.comments"),
    Area("settlements", "app.api.settlements"),
    Area("balances", "app.api.balances"),
    Area("insight", "app.api.insight"),
    Area("changes", "app.api.changes"),
    Area("export", "app.api.export"),
    Area("imports", "app.api.imports"),
    Area("recurring", "app.api.recurring"),
    Area("people", "app.api.people"),
    Area("notifications", "app.api.notifications"),
    Area("developer", "app.api.developer"),
    Area("oauth", "app.api.oauth", needs=("oauth_ui",)),
    Area("mcp", "app.api.mcp"),
    Area("chat", "app.api.chat"),
    Area("realtime", "app.api.realtime"),
    Area("local", "app.api.health", "local_blp", local_only=True),
    # The consent flow's HTML pages: plain Flask blueprints, outside the JSON document.
    Area("oauth_ui", "app.api.oauth_ui", "bp", documented=False),
    Area("oauth_cognito", "app.api.oauth_cognito", "bp", documented=False, needs=("oauth_ui",)),
)
BY_NAME = {area.name: area for area in AREAS}


def served(local_mode: bool, names: Optional[Iterable[str]] = None) -> list:
    """The areas an app serves, in declaration order: ``names`` and the areas they need (every
    area when omitted); the local-only ones in local mode only."""
    wanted = None
    if names is not None:
        wanted = set(names)
        wanted |= {need for name in names for need in BY_NAME[name].needs}
    return [area for area in AREAS if (wanted is None or area.name in wanted)
            and (local_mode or not area.local_only)]


def register(app: Flask, areas: list, api=None) -> None:
    """Register each area's blueprint; with a flask-smorest ``api``, documented ones through
    it, so that they are in its OpenAPI document."""
    for area in areas:
        if api is not None and area.documented:
            api.register_blueprint(area.blueprint())
        else:
            app.register_blueprint(area.blueprint())


def scan() -> tuple:
    """Every rule of every area as Flask's blueprint registration hands it to the app."""
    rules = []

    class Recorder(Flask):
        def add_url_rule(self, rule, endpoint=None, view_func=None,
                         provide_automatic_options=None, **options):
            rules.append((rule, endpoint, {k: v for k, v in options.items() if v is not None}))

    scratch = Recorder(__name__, static_folder=None)
    for area in AREAS:
        scratch.register_blueprint(area.blueprint())
    return tuple(rules)


ROUTE_TABLE = Path(__file__).with_name("route_table.py")


def write_table(path: Path = ROUTE_TABLE) -> int:
    rules = scan()
    path.write_text(
        '"""Every URL rule of the API, generated from the blueprints by\n'
        '`python -m app.api.routes`; do not edit by hand (see app/api/routes.py)."""\n\n'
        f"RULES = {pprint.pformat(rules, width=99)}\n")
    return len(rules)


if __name__ == "__main__":
    print(f"wrote {write_table()} rules", file=sys.stderr)
