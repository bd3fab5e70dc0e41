"""Expenses."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("expenses", __name__, description="Expenses")
