"""Settings changed for one test, put back afterwards. Services read settings once (installed
by bootstrap, app.config.current), never the environment, so setenv alone changes nothing:
:func:`installed` replaces some fields; :func:`cold_start` reads the environment again, as a
function started with those variables would (a test that also loads handlers sets both)."""
from __future__ import annotations

import contextlib
from typing import Iterator

from app import config
from app.config import Settings


@contextlib.contextmanager
def installed(**fields) -> Iterator[Settings]:
    before = config.current()
    try:
        yield config.install(before._replace(**fields))
    finally:
        config.install(before)


@contextlib.contextmanager
def cold_start() -> Iterator[Settings]:
    before = config.current()
    try:
        yield config.install(Settings.from_env())
    finally:
        config.install(before)
