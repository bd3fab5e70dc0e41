"""`make dev PORT= DB_PORT=` passes the ports on to `python -m app serve`."""
from __future__ import annotations

import subprocess

from tests.local.serving import ROOT


def test_make_dev_passes_port_and_db_port_on():
    dry_run = subprocess.run(["make", "-n", "dev", "PORT=3005", "DB_PORT=8005"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    assert "-m app serve --port 3005 --db-port 8005" in dry_run
    default = subprocess.run(["make", "-n", "dev"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    assert "-m app serve --port 3000 --db-port 8000" in default
