"""Every blueprint, registered in one place."""
from __future__ import annotations

from app.api import (balances, comments, developer, expenses, export, groups, health, invite,
                     join_requests, mcp, me, notifications, oauth, oauth_cognito, oauth_ui,
                     people, recurring, settlements, users)
from app.api.pat import PatPolicyPlugin
from app.config import Settings

AREAS = (health, users, me, groups, invite, join_requests, expenses, comments, settlements,
         balances, export, recurring, people, notifications, developer, oauth, mcp)


def register(api, settings: Settings) -> None:
    PatPolicyPlugin.attach(api)  # documents every operation's PAT scope as it is registered
    for area in AREAS:
        api.register_blueprint(area.blp)
    if settings.local_mode:
        api.register_blueprint(health.local_blp)
    # The consent flow's HTML pages: plain Flask blueprints, outside the JSON document.
    api._app.register_blueprint(oauth_ui.bp)
    api._app.register_blueprint(oauth_cognito.bp)
