"""tests.local.serving.wait_for: how every e2e test waits for its `python -m app` process
(issue 42 item 6: a fixed 90 s start-up deadline failed `make test` on a loaded machine)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.local.serving import wait_for


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code])


def test_it_waits_while_the_process_runs_and_returns_what_ready_found(tmp_path):
    flag = tmp_path / "ready"
    process = _child(f"import pathlib, time; time.sleep(1); "
                     f"pathlib.Path({str(flag)!r}).write_text('up'); time.sleep(120)")
    try:
        assert wait_for(process, lambda: flag.exists() and flag.read_text(), "x") == "up"
    finally:
        process.kill()
        process.wait()


def test_a_process_that_exits_before_it_is_ready_fails_at_once():
    process = _child("raise SystemExit(3)")
    with pytest.raises(AssertionError, match=r"never ready: the process exited \(3\) first"):
        wait_for(process, lambda: None, "never ready")


def test_a_wait_ended_from_outside_stops_the_process():
    """pytest-timeout ends a hung wait by raising in it: the server must not outlive it."""
    process = _child("import time; time.sleep(120)")

    def timed_out():
        pytest.fail("Timeout")  # what pytest-timeout raises

    with pytest.raises(pytest.fail.Exception):
        wait_for(process, timed_out, "x")
    assert process.poll() is not None
