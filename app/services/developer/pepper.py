"""The server-side pepper keying token hashes (HMAC-SHA256).

A stolen DeveloperTokens table is useless without it, so it never lives in the table's
account of record: in AWS it is a Secrets Manager secret fetched once per cold start (the
template passes its ARN in TOKEN_PEPPER_SECRET_ARN and grants GetSecretValue on it only);
locally and in tests TOKEN_PEPPER may hold it directly, and local mode keeps a random one in
the data dir. Without any source PAT verification fails closed (RuntimeError, never a guess).
"""
from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path
from typing import Callable, Mapping, Optional

MIN_BYTES = 32
_lock = threading.Lock()
_pepper: Optional[bytes] = None


def _from_secrets_manager(arn: str) -> bytes:
    import boto3  # only in AWS: local mode and tests never reach here

    reply = boto3.client("secretsmanager").get_secret_value(SecretId=arn)
    return reply["SecretString"].encode()


def _local(data_dir: str) -> bytes:
    path = Path(data_dir) / "token-pepper"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(secrets.token_bytes(MIN_BYTES))
        path.chmod(0o600)
    return path.read_bytes()


def configure(*, env: Mapping[str, str] = os.environ, local_data_dir: Optional[str] = None,
              fetch: Callable[[str], bytes] = _from_secrets_manager) -> None:
    """Load the pepper once (cold start). Order: TOKEN_PEPPER, the secret ARN, local data dir."""
    global _pepper
    value: Optional[bytes] = None
    if env.get("TOKEN_PEPPER"):
        value = env["TOKEN_PEPPER"].encode()
    elif env.get("TOKEN_PEPPER_SECRET_ARN"):
        value = fetch(env["TOKEN_PEPPER_SECRET_ARN"])
    elif local_data_dir:
        value = _local(local_data_dir)
    if value is None:
        return  # one pepper per process: an app built without a source keeps the one loaded
    if len(value) < MIN_BYTES:
        raise RuntimeError(f"the token pepper must be at least {MIN_BYTES} bytes")
    with _lock:
        _pepper = value


def get() -> bytes:
    if _pepper is None:
        raise RuntimeError("no token pepper configured (TOKEN_PEPPER or TOKEN_PEPPER_SECRET_ARN)")
    return _pepper
