"""`serve` stops at once on SIGTERM/SIGINT with its data saved; `token` uses the running server."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from tests.local.serving import ROOT, Server, call, child_env, sign_in


def _busy(server, token, stop, replies):
    while not stop.is_set():
        try:
            status, group = call("POST", server.url + "/groups",
                                 {"name": "Soak", "currency": "EUR"}, token, timeout=10)
            replies.append((status, group))
            if status == 201:
                call("GET", server.url + f"/groups/{group['groupId']}/balances", token=token,
                     timeout=10)
        except OSError:
            return  # the server went away mid-request


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_exits_promptly_with_data_saved_after_concurrent_requests(tmp_path, sig):
    server = Server(tmp_path)
    token, _ = sign_in(server)
    stop, replies = threading.Event(), []
    workers = [threading.Thread(target=_busy, args=(server, token, stop, replies))
               for _ in range(6)]
    for worker in workers:
        worker.start()
    while len(replies) < 30:
        threading.Event().wait(0.05)
    code = server.stop(sig, timeout=20)  # requests are still in flight when the signal lands
    stop.set()
    for worker in workers:
        worker.join()
    assert code == 0
    assert "Stopped; data saved." in server.output()
    assert not (tmp_path / "server.json").exists()
    created = [group["groupId"] for status, group in replies if status == 201]
    server = Server(tmp_path)
    try:
        # Every acknowledged create is there: its group and the caller's membership are one
        # journaled transaction, so the home list (100 a page) names each group that survived
        # (one GET per group was ~150 requests, half of this test's time).
        listed, cursor = set(), ""
        while cursor is not None:
            status, page = call("GET", server.url + f"/users/me/groups?limit=100{cursor}",
                                token=token)
            assert status == 200, page
            listed |= {group["groupId"] for group in page["items"]}
            cursor = page["nextCursor"] and f"&cursor={page['nextCursor']}"
        assert set(created) <= listed
        for gid in (created[0], created[-1]):  # and the group itself reads back
            assert call("GET", server.url + f"/groups/{gid}", token=token)[0] == 200
    finally:
        assert server.stop(signal.SIGTERM, timeout=20) == 0


def _token_cli(data_dir, *extra):
    return subprocess.run([sys.executable, "-m", "app", "token", "cli@example.com",
                           "--data-dir", str(data_dir), *extra], cwd=ROOT, env=child_env(),
                          capture_output=True, text=True, timeout=120)


def test_token_mints_through_the_server_running_on_the_data_dir(tmp_path):
    server = Server(tmp_path)
    try:
        # Another --db-port than the server's: the CLI must still reach the server's database.
        result = _token_cli(tmp_path, "--db-port", str(_closed_port()))
        assert result.returncode == 0, result.stderr
        user_id = result.stderr.split("userId ")[1].split()[0]
        status, profile = call("GET", server.url + "/users/me", token=result.stdout.strip())
        assert status == 200 and profile["userId"] == user_id
        assert sign_in(server, "cli@example.com")[1] == user_id
    finally:
        server.stop()


def test_token_refuses_when_the_recorded_server_is_gone_and_another_answers(tmp_path):
    other = Server(tmp_path / "other", command="db")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "server.json").write_text(json.dumps({"pid": _dead_pid(), "host": "127.0.0.1",
                                                  "apiPort": 1, "dbPort": 1}))
    try:
        result = _token_cli(mine, "--db-port", other.info["dbPort"].__str__())
        assert result.returncode == 2, (result.stdout, result.stderr)
        assert "not running" in result.stderr and "another data dir" in result.stderr
        assert other.db_client().scan(TableName="tailspend-dev-users")["Items"] == []
        assert not (mine / "dynamodb").exists()
    finally:
        other.stop()


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid if not _alive(child.pid) else 2 ** 22 + 1


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True
