"""`python -m app serve` writes <data_dir>/server.json before it answers any request.

A script that polls /health and then runs `python -m app token` (which reads server.json)
used to find no file for up to ~1 s after /health answered."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.local.serving import ROOT, child_env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_server_json_exists_the_moment_health_answers(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(port), "--db-port", "0",
         "--data-dir", str(tmp_path)], cwd=ROOT, env=child_env(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5):
                    recorded = (tmp_path / "server.json").exists()  # checked at once
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.005)
        else:
            raise AssertionError("the server never answered /health")
        assert recorded, "/health answered before server.json was written"
    finally:
        process.terminate()
        process.wait(timeout=30)
