"""`python -m app serve` and the live-updates server's port (issue 42 item 5).

The realtime server defaults to --port + 1; something else already there (a web dev server
on 3001) must not take the API down: serve picks a free port and /realtime/token names it.
Only a --realtime-port the user asked for is an error when busy: one line naming the flag."""
from __future__ import annotations

import socket
import subprocess
import sys

from tests.local.serving import ROOT, Server, call, child_env, sign_in
from tests.realtime.wsclient import Client


def _listening(port: int = 0) -> socket.socket:
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    return holder


def _port_below_a_busy_one() -> tuple:
    """(a free port N, a socket listening on N + 1)."""
    while True:
        busy = _listening()
        below = busy.getsockname()[1] - 1
        try:
            _listening(below).close()
        except OSError:
            busy.close()
            continue
        return below, busy


def test_a_busy_default_realtime_port_is_replaced_by_a_free_one(tmp_path):
    api_port, busy = _port_below_a_busy_one()
    with busy:
        server = Server(tmp_path / "data", port=api_port, log=tmp_path / "serve.log")
        try:
            assert server.info["apiPort"] == api_port
            token, _ = sign_in(server, "ports@example.com")
            status, issued = call("POST", server.url + "/realtime/token", token=token)
            assert status == 200, issued
            host, picked = issued["endpoint"].rsplit(":", 1)
            assert int(picked) not in (0, api_port, api_port + 1), issued
            client = Client(issued)  # the endpoint it names is the one serving
            try:
                assert client.init()["type"] == "connection_ack"
            finally:
                client.close()
        finally:
            server.stop()
    output = server.output()
    assert f"Live updates on ws://{issued['endpoint']}/event/realtime" in output, output
    assert "Traceback" not in output, output


def test_a_busy_realtime_port_asked_for_is_one_line_naming_the_flag(tmp_path):
    with _listening() as busy:
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "app", "serve", "--port", "0", "--db-port", "0",
             "--realtime-port", str(port), "--data-dir", str(tmp_path / "data")],
            cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=240)
    assert done.returncode != 0
    assert done.stdout.strip() == "", done.stdout  # the API never said it was serving
    (line,) = done.stderr.strip().splitlines()
    assert "--realtime-port" in line and str(port) in line, line
    assert not (tmp_path / "data" / "server.json").exists()
