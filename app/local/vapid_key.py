"""Local mode's VAPID key: made once, kept in the data directory, so a browser subscription
made against ``make dev`` keeps working across restarts (a new key would orphan it)."""
from __future__ import annotations

import os

from app.notifications.vapid import new_private_key

FILE_NAME = "vapid-private-key"


def load_or_create(data_dir: str) -> str:
    path = os.path.join(data_dir, FILE_NAME)
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read().strip()
    except FileNotFoundError:
        pass
    os.makedirs(data_dir, exist_ok=True)
    key = new_private_key()
    temporary = f"{path}.{os.getpid()}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(key)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)  # atomic: two starting servers agree on whichever landed
    with open(path, encoding="ascii") as handle:
        return handle.read().strip()
