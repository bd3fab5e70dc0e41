"""Balances and settle-up."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("balances", __name__, description="Balances and settle-up")
