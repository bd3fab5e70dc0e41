"""One start-up for every entry point: settings -> models, cursor key (or where to read it).

The app factory, each Lambda handler and the CLI call ``bootstrap()`` once; nothing else
configures models or the cursor key, so no module does work at import but this."""
from __future__ import annotations

import secrets
from pathlib import Path
from typing import Optional

import models
from app.config import Settings, install, secret_string
from app.core import paging


def bootstrap(settings: Optional[Settings] = None) -> Settings:
    """Point the models at this stage's tables and set the cursor key; return the settings."""
    settings = install(settings or Settings.from_env())
    models.configure(stage=settings.stage, region=settings.region,
                     host=settings.dynamodb_endpoint)
    if settings.cursor_secret or not settings.cursor_key_arn:
        paging.configure(settings.cursor_secret or _local_cursor_secret(settings))
    else:  # AWS: read from Secrets Manager when the first cursor needs it, once per container
        arn = settings.cursor_key_arn
        paging.configure(load=lambda: secret_string(arn).encode())
    return settings


def _local_cursor_secret(settings: Settings) -> bytes:
    """Local mode keeps a cursor key in the data dir; elsewhere CURSOR_SECRET_ARN (or
    CURSOR_SECRET) names it."""
    if not settings.local_mode:
        return b""  # paging keeps its random per-process key (a function that lists nothing)
    path = Path(settings.data_dir) / "cursor-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(secrets.token_bytes(32))
        path.chmod(0o600)
    return path.read_bytes()
