"""Settlements."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("settlements", __name__, description="Settlements")
