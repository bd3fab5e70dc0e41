"""The key that signs MCP access tokens (RS256).

Sources, first match wins, loaded once per process (cold start):
- MCP_SIGNING_KEY: a PEM private key in the environment (tests, ad-hoc runs);
- MCP_SIGNING_KEY_SECRET_ARN: a Secrets Manager secret holding the PEM (AWS; the template
  passes the ARN from the McpSigningKeySecretArn parameter and grants GetSecretValue on it);
- local mode: the local issuer's own key, passed in by the app factory.
Without a key minting and verifying fail closed (Unauthenticated / RuntimeError)."""
from __future__ import annotations

import os
import threading
from typing import Callable, Mapping, NamedTuple, Optional

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa


class SigningKey(NamedTuple):
    private_key: rsa.RSAPrivateKey
    kid: str

    @property
    def public_key(self) -> rsa.RSAPublicKey:
        return self.private_key.public_key()


_lock = threading.Lock()
_key: Optional[SigningKey] = None
_pending: Optional[Callable[[], bytes]] = None  # a Secrets Manager read, done on first use


def _kid(key: rsa.RSAPrivateKey) -> str:
    der = key.public_key().public_bytes(serialization.Encoding.DER,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(der)
    return "mcp-" + digest.finalize().hex()[:16]


def _from_secrets_manager(arn: str) -> bytes:
    import boto3  # only in AWS

    return boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"].encode()


def use_key(key: rsa.RSAPrivateKey) -> None:
    global _key, _pending
    with _lock:
        _key, _pending = SigningKey(key, _kid(key)), None


def configure(*, env: Mapping[str, str] = os.environ,
              local_key: Optional[rsa.RSAPrivateKey] = None,
              fetch: Callable[[str], bytes] = _from_secrets_manager) -> None:
    """Choose the signing key's source (see the module doc). The Secrets Manager read waits
    for the first MCP token minted or checked: most cold starts never need it."""
    global _pending
    if env.get("MCP_SIGNING_KEY"):
        use_key(serialization.load_pem_private_key(env["MCP_SIGNING_KEY"].encode(), None))
    elif env.get("MCP_SIGNING_KEY_SECRET_ARN"):
        arn = env["MCP_SIGNING_KEY_SECRET_ARN"]
        with _lock:
            _pending = lambda: fetch(arn)  # noqa: E731
    elif local_key is not None:
        use_key(local_key)


def current() -> SigningKey:
    if _key is None and _pending is not None:
        pem = _pending()
        use_key(serialization.load_pem_private_key(pem, password=None))
    if _key is None:
        raise RuntimeError("No MCP signing key is configured (MCP_SIGNING_KEY_SECRET_ARN).")
    return _key
