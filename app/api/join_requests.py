"""Join requests."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("join_requests", __name__, description="Join requests")
