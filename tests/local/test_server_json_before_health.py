"""`python -m app serve` writes <data_dir>/server.json before it answers any request.

A script that polls /health and then runs `python -m app token` (which reads server.json)
used to find no file for up to ~1 s after /health answered."""
from __future__ import annotations

import socket
import subprocess
import sys
import urllib.error
import urllib.request

from tests.local.serving import ROOT, child_env, wait_for


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

    def health():
        """(True, whether server.json existed when /health answered), or None: not yet."""
        try:
            # The socket listens before the app serves: a connection can wait in its queue
            # for as long as the rest of start-up takes, so a read that times out is "not
            # yet" too, never a failure.
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30):
                return True, (tmp_path / "server.json").exists()  # checked at once
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None

    try:
        _, recorded = wait_for(process, health, "the server never answered /health",
                               poll=0.005)
        assert recorded, "/health answered before server.json was written"
    finally:
        process.kill()  # nothing of its data is looked at again
        process.wait()
