"""Expense comments."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("comments", __name__, description="Expense comments")
