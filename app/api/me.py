"""The caller's groups and requests across groups."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("me", __name__, description="The caller's groups and requests across groups")
