"""Local mode's token issuer: an RSA key kept in the data dir, Cognito-shaped access tokens."""
from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from typing import Iterable, Optional

import jwt
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

KEY_FILE = "issuer-key.pem"
EMAIL_NAMESPACE = uuid.UUID("6b0c2f0e-4d3a-4c55-9a51-2f1f6f3e9a10")


def subject_for_email(email: str) -> str:
    """The same e-mail always maps to the same local subject."""
    return str(uuid.uuid5(EMAIL_NAMESPACE, email.strip().lower()))


class LocalIssuer:
    """Signs RS256 access tokens shaped like Cognito's, and publishes its JWKS."""

    def __init__(self, data_dir: str, issuer: str, client_id: str) -> None:
        self.issuer = issuer
        self.client_id = client_id
        self._key = self._load_or_create(Path(data_dir) / KEY_FILE)
        public_der = self._key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        digest = hashes.Hash(hashes.SHA256())
        digest.update(public_der)
        self.kid = digest.finalize().hex()[:16]

    @staticmethod
    def _load_or_create(path: Path) -> rsa.RSAPrivateKey:
        if path.exists():
            return serialization.load_pem_private_key(path.read_bytes(), password=None)
        path.parent.mkdir(parents=True, exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
        return key

    @property
    def private_key(self) -> rsa.RSAPrivateKey:
        """The signing key (local mode's MCP access tokens are signed with it too)."""
        return self._key

    def jwks(self) -> dict:
        jwk = RSAAlgorithm.to_jwk(self._key.public_key(), as_dict=True)
        jwk.update({"kid": self.kid, "use": "sig", "alg": "RS256"})
        return {"keys": [jwk]}

    def mint(self, sub: str, *, email: Optional[str] = None, groups: Iterable[str] = (),
             ttl_seconds: int = 12 * 3600) -> str:
        now = int(time.time())
        claims = {"sub": sub, "iss": self.issuer, "client_id": self.client_id,
                  "token_use": "access", "scope": "aws.cognito.signin.user.admin",
                  "iat": now, "auth_time": now, "exp": now + ttl_seconds,
                  "jti": str(uuid.uuid4()), "username": sub}
        if email:
            claims["email"] = email
        groups = list(groups)
        if groups:
            claims["cognito:groups"] = groups
        return jwt.encode(claims, self._key, algorithm="RS256", headers={"kid": self.kid})
