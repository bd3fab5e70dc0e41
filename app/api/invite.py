"""Invite links."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("invite", __name__, description="Invite links")
