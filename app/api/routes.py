"""Every area of the API, declared in one place and loaded on first use (app.api.routing).

``register`` adds every URL rule of ``app.api.route_table`` without importing a single area.
After changing a route, regenerate the table::

    .venv/bin/python -m app.api.routes

(tests/platform/test_route_table.py fails, naming this command, while the table is stale).
"""
from __future__ import annotations

import pprint
import sys
from pathlib import Path

from flask import Flask

from app.api.routing import Area, AreaLoader
from app.config import Settings

# In the order their operations appear in /openapi.json.
AREAS = (
    Area("health", "app.api.health"),
    Area("users", "app.api.users"),
    Area("me", "app.api.me"),
    Area("groups", "app.api.groups"),
    Area("invite", "app.api.invite"),
    Area("join_requests", "app.api.join_requests"),
    Area("expenses", "app.api.expenses"),
    Area("comments", "app.api.comments"),
    Area("settlements", "app.api.settlements"),
    Area("balances", "app.api.balances"),
    Area("export", "app.api.export"),
    Area("recurring", "app.api.recurring"),
    Area("people", "app.api.people"),
    Area("notifications", "app.api.notifications"),
    Area("developer", "app.api.developer"),
    Area("oauth", "app.api.oauth", needs=("oauth_ui",)),
    Area("mcp", "app.api.mcp"),
    Area("local", "app.api.health", "local_blp", local_only=True),
    # The consent flow's HTML pages: plain Flask blueprints, outside the JSON document.
    Area("oauth_ui", "app.api.oauth_ui", "bp", documented=False),
    Area("oauth_cognito", "app.api.oauth_cognito", "bp", documented=False, needs=("oauth_ui",)),
)


EXTENSION = "tailspend.areas"


def register(api, settings: Settings) -> None:
    from app.api.route_table import RULES

    loaders = {}
    api._app.extensions[EXTENSION] = (api, loaders)
    for area in AREAS:
        if area.local_only and not settings.local_mode:
            continue
        loaders[area.name] = AreaLoader(api._app, area, loaders)
        if area.documented:
            api.document_later(area)
    for rule, endpoint, options in RULES:
        loader = loaders.get(endpoint.split(".", 1)[0])
        if loader is not None:
            api._app.add_url_rule(rule, endpoint, loader.lazy_view(endpoint), **options)


def load_everything(app: Flask) -> None:
    """Attach every area of this app and build its OpenAPI document now, as if each had served
    a request (a SnapStart snapshot keeps them: app.snapstart)."""
    api, loaders = app.extensions[EXTENSION]
    for loader in loaders.values():
        loader.attach()
    api.spec  # noqa: B018 - reading it builds the document


def scan() -> tuple:
    """Every rule of every area as Flask's blueprint registration hands it to the app."""
    rules = []

    class Recorder(Flask):
        def add_url_rule(self, rule, endpoint=None, view_func=None,
                         provide_automatic_options=None, **options):
            if provide_automatic_options is not None:
                raise RuntimeError(f"{endpoint}: provide_automatic_options is not carried")
            rules.append((rule, endpoint, {k: v for k, v in options.items() if v is not None}))

    scratch = Recorder(__name__, static_folder=None)
    for area in AREAS:
        scratch.register_blueprint(area.blueprint())
    return tuple(rules)


def write_table(path: Path = Path(__file__).with_name("route_table.py")) -> int:
    rules = scan()
    path.write_text(
        '"""Every URL rule of the API, generated from the blueprints by\n'
        '`python -m app.api.routes`; do not edit by hand (see app/api/routes.py)."""\n\n'
        f"RULES = {pprint.pformat(rules, width=99)}\n")
    return len(rules)


if __name__ == "__main__":
    print(f"wrote {write_table()} rules", file=sys.stderr)
