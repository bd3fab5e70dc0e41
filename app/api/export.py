"""Group export."""
from __future__ import annotations

from app.api.spec import Blueprint

blp = Blueprint("export", __name__, description="Group export")
