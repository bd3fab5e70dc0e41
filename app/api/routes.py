"""Every blueprint, registered in one place."""
from __future__ import annotations

from app.api import groups, health, users
from app.config import Settings


def register(api, settings: Settings) -> None:
    api.register_blueprint(health.blp)
    if settings.local_mode:
        api.register_blueprint(health.local_blp)
    api.register_blueprint(users.blp)
    api.register_blueprint(groups.blp)
