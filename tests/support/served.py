"""One `python -m app serve` shared by every serve-based test of a run, xdist workers included.

Starting a server costs ~2 s of CPU (an interpreter, the app, the embedded DynamoDB and its
tables), and the tests that only need *a* running server (chat, imports, the MCP SDKs, the
stateful fuzz, the docs examples, the client generators) each started their own. The
session fixture `served_app` (tests/conftest.py) hands them this one instead:

    def test_something(served_app):
        token, user_id = served_app.sign_in("someone-unique@example.com")
        status, body = served_app.call("GET", "/users/me", token=token)

Rules for a test that uses it: the server and its data are shared, so sign in as an e-mail
no other test uses and read only what the test itself created (its own groups, imports...).
A test that restarts, kills or inspects the process itself (tests/local/test_serve.py's
restart tests, durability, lifecycle) keeps its own `tests.local.serving.Server`.

How the workers share it: the first worker to need it starts it under a file lock in the
run's shared temp directory (the parent of each worker's basetemp, as pytest-xdist documents
for "a session-scoped fixture run once") and records it in `served.json` with a count of its
users; each worker adds itself, and the last to finish stops it. Without xdist it is one
process's session fixture.

The server trusts `cert_file` (SSL_CERT_FILE), a self-signed certificate for localhost and
127.0.0.1 whose key is `key_file`: a test can serve HTTPS documents the server fetches (the MCP
client ID metadata document). The per-IP rate limit is lifted: every request comes from
127.0.0.1, and tests/developer covers that limit through the test client.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import ipaddress
import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from tests.local.serving import Server, call as _call

STATE = "served.json"
ENV = {"RATE_LIMIT_IP_PER_MINUTE": "1000000", "RATE_LIMIT_LINK_IP_PER_MINUTE": "1000000"}


@dataclass(frozen=True)
class ServedApp:
    """What a test gets: the shared server's addresses and helpers to talk to it."""

    url: str
    db_url: str
    data_dir: Path
    log_file: Path
    cert_file: Path
    key_file: Path
    pid: int

    def until(self, ready, what: str, poll: float = 0.2):
        """``ready()``'s first truthy value, asked for as long as the shared server runs: a
        worker's work (a chat draft, an import) takes what a loaded machine gives it, so no
        fixed deadline; pytest-timeout ends a hang (as tests.local.serving.wait_for)."""
        while running(self.pid):
            value = ready()
            if value:
                return value
            time.sleep(poll)
        raise AssertionError(f"{what}: the shared server exited:\n" + self.output())

    def call(self, method: str, path: str, body=None, token: Optional[str] = None,
             timeout: float = 30):
        """(status, JSON body) of one request; `path` is relative to the server or a URL."""
        url = path if path.startswith(("http://", "https://")) else self.url + path
        return _call(method, url, body, token, timeout)

    def sign_in(self, email: str, display_name: Optional[str] = None, *,
                admin: bool = False) -> tuple:
        """(access token, user id) for `email` through POST /dev/tokens."""
        body = {"email": email, "displayName": display_name or email.split("@")[0].title()}
        if admin:
            body["admin"] = True
        status, reply = self.call("POST", "/dev/tokens", body)
        assert status == 201, reply
        return reply["accessToken"], reply["userId"]

    def output(self) -> str:
        """What the server printed so far (for a failing assertion's message)."""
        return self.log_file.read_text(errors="replace")[-20000:]


def shared_root(tmp_path_factory) -> Path:
    """The directory every worker of this run sees: the parent of a worker's basetemp."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[Path]:
    with open(root / (STATE + ".lock"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        try:
            yield root / STATE
        finally:
            fcntl.flock(guard, fcntl.LOCK_UN)


def running(pid: int) -> bool:
    """True while `pid` runs (a zombie, exited but not yet reaped by its parent, does not:
    os.kill(pid, 0) would call it alive until its parent reaps it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _self_signed(directory: Path) -> tuple:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _start(root: Path) -> dict:
    directory = root / "served"
    directory.mkdir(exist_ok=True)
    cert, key = _self_signed(directory)
    log = directory / "serve.log"
    server = Server(directory / "data", env={**ENV, "SSL_CERT_FILE": str(cert)}, log=log)
    return {"pid": server.process.pid, "url": server.url, "dbUrl": server.db_url,
            "dataDir": str(directory / "data"), "log": str(log), "cert": str(cert),
            "key": str(key), "users": 0}


def stop(pid: int, sig: int = signal.SIGINT, timeout: float = 30) -> None:
    """Signal a server process of this run (whichever worker started it) and wait until it
    has exited (reaped here when it is this worker's child), killing it after ``timeout``."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while running(pid) and time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0]:  # our child: reap it
                return
        time.sleep(0.05)
    if running(pid):
        os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def shared_server(tmp_path_factory) -> Iterator[ServedApp]:
    """The run's one served app: started by its first user, stopped by its last."""
    root = shared_root(tmp_path_factory)
    with _locked(root) as path:
        state = json.loads(path.read_text()) if path.exists() else None
        if state is None or not running(state["pid"]):
            state = _start(root)
        state["users"] += 1
        path.write_text(json.dumps(state))
    try:
        yield ServedApp(url=state["url"], db_url=state["dbUrl"], data_dir=Path(state["dataDir"]),
                        log_file=Path(state["log"]), cert_file=Path(state["cert"]),
                        key_file=Path(state["key"]), pid=state["pid"])
    finally:
        with _locked(root) as path:
            state = json.loads(path.read_text())
            state["users"] -= 1
            if state["users"] <= 0:
                stop(state["pid"])
                path.unlink()
                # A clean stop removes server.json (app/local/server_info.py): every shared
                # test's worker threads (imports, chat, notifications) let the process exit.
                assert not (Path(state["dataDir"]) / "server.json").exists(), (
                    "the shared server did not stop cleanly:\n"
                    + Path(state["log"]).read_text(errors="replace")[-4000:])
            else:
                path.write_text(json.dumps(state))
