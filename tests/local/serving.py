"""A `python -m app serve|db` subprocess on ephemeral ports, found through its server.json."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def call(method, url, body=None, token=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def wait_for(process: subprocess.Popen, ready, what: str, poll: float = 0.1):
    """``ready()``'s first truthy value, asked every ``poll`` seconds for as long as
    ``process`` runs; AssertionError as soon as it has exited.

    No wall-clock deadline of its own: on a loaded machine (two `make test` at once on one
    2-core box) a start-up takes what the machine gives it, which no fixed figure bounds;
    a process that dies fails at once, and pytest-timeout (pytest.ini) ends a real hang.
    Whatever ends the wait early (that timeout, Ctrl-C) stops the process with it, so no
    server outlives its test."""
    try:
        while process.poll() is None:
            value = ready()
            if value:
                return value
            time.sleep(poll)
    except BaseException:
        process.kill()
        process.wait()
        raise
    raise AssertionError(f"{what}: the process exited ({process.returncode}) first")


def child_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k != "DYNAMODB_ENDPOINT" and not k.startswith("TAILSPEND_")}
    env.update(LOG_LEVEL="WARNING", **extra)
    return env


class Server:
    """One `python -m app serve` (or `db`) process; ports are chosen by the OS (port 0)."""

    def __init__(self, data_dir: Path, command: str = "serve", env: dict | None = None,
                 log: Path | None = None, port: int = 0) -> None:
        """`log`: a file for the process's output (a long-lived server must not fill a pipe
        nobody reads); by default a pipe, read by output() once the process has stopped.
        `port`: serve's --port (0: the OS picks)."""
        self.data_dir = Path(data_dir)
        self.log = Path(log) if log else None
        info = self.data_dir / "server.json"
        if info.exists():
            info.unlink()  # left by a killed predecessor: wait for this process's own
        argv = [sys.executable, "-m", "app", command, "--db-port", "0",
                "--data-dir", str(data_dir)]
        if command == "serve":
            argv += ["--port", str(port)]
        out = open(self.log, "ab") if self.log else subprocess.PIPE
        try:
            self.process = subprocess.Popen(argv, cwd=ROOT, env=child_env(**(env or {})),
                                            stdout=out, stderr=subprocess.STDOUT)
        finally:
            if self.log:
                out.close()  # the child has its own copy
        try:
            # server.json is the process's own "ready": written once it listens (server_info)
            self.info = wait_for(self.process, lambda: info.exists() and
                                 json.loads(info.read_text()), f"{command} did not come up")
        except AssertionError as error:
            raise AssertionError(f"{error}: " + self.output()) from None
        self.url = f"http://127.0.0.1:{self.info.get('apiPort')}"
        self.db_url = f"http://127.0.0.1:{self.info['dbPort']}"

    def stop(self, sig=signal.SIGINT, timeout: float = 30) -> int:
        self.process.send_signal(sig)
        return self.process.wait(timeout=timeout)

    def output(self) -> str:
        if self.log:
            return self.log.read_text(errors="replace")
        return self.process.stdout.read().decode()

    def db_client(self):
        import boto3

        return boto3.client("dynamodb", endpoint_url=self.db_url, region_name="us-east-1",
                            aws_access_key_id="local", aws_secret_access_key="local")


def sign_in(server, email="ada@example.com"):
    status, body = call("POST", server.url + "/dev/tokens", {"email": email, "displayName": "Ada"})
    assert status == 201, body
    return body["accessToken"], body["userId"]
