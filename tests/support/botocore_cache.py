"""Botocore set-up done once per test process instead of once per connection.

Every botocore Session builds its own Loader, and a Loader parses the service models and
endpoints.json (JSON files of megabytes) again for its own cache. Tests make many sessions:
PynamoDB gives each Connection a fresh one, ``models.configure`` drops the connections for
each test, and moto's ``mock_aws`` resets boto3's default session on every start. Measured,
that parsing was most of the CPU time of a typical API test, and building the sessions
(registering botocore's ~120 handlers each) most of the rest. Here:

- default Loaders share one cache: the very cache each Loader already keeps, made
  process-wide, so every session sees the same (read-only, already post-processed) data a
  second client of one session would;
- PynamoDB's connections get one botocore session per thread, reused across connections.
  PynamoDB keeps sessions per thread because session use is not thread-safe; that stays so.
  Clients are still made per connection, as before."""
from __future__ import annotations

import threading

_shared: dict = {}
_sessions = threading.local()


def install() -> None:
    """Idempotent and process-wide."""
    from botocore import loaders

    if getattr(loaders.Loader, "_tailspend_shared_cache", False):
        return
    original = loaders.Loader.__init__

    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if not args and not kwargs:  # create_loader() with no AWS_DATA_PATH: the default
            self._cache = _shared

    loaders.Loader.__init__ = __init__
    loaders.Loader._tailspend_shared_cache = True

    from botocore.session import get_session
    from pynamodb.connection import base

    def thread_session():
        session = getattr(_sessions, "session", None)
        if session is None:
            session = _sessions.session = get_session()
        return session

    base.get_session = thread_session
