"""What the code under test does that Python reports as audit events (``sys.addaudithook``:
``os.listdir``, ``socket.connect``...), seen without patching anything.

A process gets one hook (hooks cannot be removed), and it collects only inside a
:func:`watching` block, from every thread."""
from __future__ import annotations

import contextlib
import sys
import threading
from typing import Iterator, List

_watches: list = []  # (event, the args seen) of each open block
_hooked = threading.Lock()
_installed: List[bool] = []


def _hook(event: str, args: tuple) -> None:
    for wanted, seen in list(_watches):
        if event == wanted:
            seen.append(args)


@contextlib.contextmanager
def watching(event: str) -> Iterator[list]:
    """The argument tuple of each ``event`` raised inside the block."""
    with _hooked:
        if not _installed:
            sys.addaudithook(_hook)
            _installed.append(True)
    watch = (event, [])
    _watches.append(watch)
    try:
        yield watch[1]
    finally:
        _watches.remove(watch)


def connects_to(seen: list, port: int) -> list:
    """The ``socket.connect`` events of ``seen`` that went to ``port``."""
    return [args for args in seen
            if isinstance(args[1], tuple) and len(args[1]) >= 2 and args[1][1] == port]
