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
from dataclasses import dataclass
from typing import Callable, Mapping, Optional

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa


@dataclass(frozen=True)
class SigningKey:
    private_key: rsa.RSAPrivateKey
    kid: str

    @property
    def public_key(self) -> rsa.RSAPublicKey:
        return self.private_key.public_key()


_lock = threading.Lock()
_key: Optional[SigningKey] = None


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
    global _key
    with _lock:
        _key = SigningKey(key, _kid(key))


def configure(*, env: Mapping[str, str] = os.environ,
              local_key: Optional[rsa.RSAPrivateKey] = None,
              fetch: Callable[[str], bytes] = _from_secrets_manager) -> None:
    """Load the signing key from the first source that has one (see the module doc)."""
    pem: Optional[bytes] = None
    if env.get("MCP_SIGNING_KEY"):
        pem = env["MCP_SIGNING_KEY"].encode()
    elif env.get("MCP_SIGNING_KEY_SECRET_ARN"):
        pem = fetch(env["MCP_SIGNING_KEY_SECRET_ARN"])
    if pem is not None:
        use_key(serialization.load_pem_private_key(pem, password=None))
    elif local_key is not None:
        use_key(local_key)


def current() -> SigningKey:
    if _key is None:
        raise RuntimeError("No MCP signing key is configured (MCP_SIGNING_KEY_SECRET_ARN).")
    return _key
