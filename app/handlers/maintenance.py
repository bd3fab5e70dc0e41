"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.services.maintenance import run_maintenance

bootstrap()


def lambda_handler(event, context):
    # The frequent schedule passes {"sweep": "outbox"}; the daily one runs everything.
    return run_maintenance((event or {}).get("sweep"))
