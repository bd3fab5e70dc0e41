"""Deleting the sign-in user itself: Cognito's admin API in AWS, a recorder locally.

The API and maintenance functions hold ``cognito-idp:AdminDeleteUser`` on the pool (see
template.yaml). The pool's username may be given as the user's ``sub``, which is the subject
of the ``cognito#<sub>`` identity row; a user already gone counts as deleted, so a resumed
account deletion can call this again."""
from __future__ import annotations

import threading
from typing import Dict, List, Optional, Protocol

from app import config
from app.config import Settings
from app.logs import logger


class SignInDirectory(Protocol):
    provider: str  # the identity provider whose subjects this directory deletes

    def delete_user(self, subject: str) -> None: ...


class CognitoAdmin:
    """AdminDeleteUser on one user pool."""

    provider = "cognito"

    def __init__(self, user_pool_id: str, client=None) -> None:
        if client is None:
            import boto3
            client = boto3.client("cognito-idp")
        self.user_pool_id, self._client = user_pool_id, client

    def delete_user(self, subject: str) -> None:
        try:
            self._client.admin_delete_user(UserPoolId=self.user_pool_id, Username=subject)
        except self._client.exceptions.UserNotFoundException:
            logger.info("account.cognito_user_already_gone")


class RecordingDirectory:
    """Local mode and tests: remembers the subjects it was asked to delete."""

    provider = "local"

    def __init__(self) -> None:
        self.deleted: List[str] = []
        self._lock = threading.Lock()

    def delete_user(self, subject: str) -> None:
        with self._lock:
            self.deleted.append(subject)


def for_settings(settings: Settings) -> SignInDirectory:
    """Cognito when a pool is configured (every deployed function), else the recorder."""
    if settings.cognito_user_pool_id and not settings.local_mode:
        return CognitoAdmin(settings.cognito_user_pool_id)
    return RecordingDirectory()


_current: Dict[str, SignInDirectory] = {}


def directory() -> SignInDirectory:
    """The process's sign-in directory, built from the settings on first use."""
    if "directory" not in _current:
        _current["directory"] = for_settings(config.current())
    return _current["directory"]


def use(new: Optional[SignInDirectory]) -> Optional[SignInDirectory]:
    """Install a directory (tests); ``None`` goes back to the environment's."""
    if new is None:
        _current.pop("directory", None)
    else:
        _current["directory"] = new
    return new
