"""Local mode's stream pollers back off when idle (app/local/stream_poller.py): the realtime
ones at most 0.5 s between reads (change -> poke p99 <= 1 s, bench/realtime_bench.py)."""
from __future__ import annotations

import pytest

from app.local.stream_poller import (MIN_IDLE_WAIT, REALTIME_MAX_IDLE_WAIT, StreamPoller)


class Scripted(StreamPoller):
    """A poller whose polls find the given record counts, recording each wait it makes."""

    def __init__(self, found, interval):
        super().__init__("http://unused", "table", handler=None, interval=interval)
        self.found, self.waits = list(found), []

        class Stop:
            def is_set(inner):
                return not self.found

            def wait(inner, seconds):
                self.waits.append(round(seconds, 3))

        self._stop = Stop()

    def _clients(self):
        class Table:
            def describe_table(self, TableName):
                return {"Table": {"LatestStreamArn": "arn"}}

        return Table(), None

    def poll_once(self, iterators, streams, stream_arn):
        return self.found.pop(0)


def test_idle_waits_double_from_the_minimum_up_to_the_interval():
    waits = Scripted([], REALTIME_MAX_IDLE_WAIT).idle_waits()
    assert [round(next(waits), 3) for _ in range(6)] == [0.05, 0.1, 0.2, 0.4, 0.5, 0.5]
    assert MIN_IDLE_WAIT == 0.05 and REALTIME_MAX_IDLE_WAIT <= 0.5


def test_records_reset_the_backoff_and_a_busy_stream_is_read_without_waiting():
    poller = Scripted([0, 0, 0, 3, 2, 0, 0], interval=1.0)
    poller.run()
    # three empty polls back off; records poll again at once (no wait), then start over
    assert poller.waits == [0.05, 0.1, 0.2, 0.05, 0.1]


@pytest.mark.parametrize("interval", [0.02, 1.0])
def test_the_wait_never_exceeds_the_interval(interval):
    poller = Scripted([0] * 12, interval=interval)
    poller.run()
    assert max(poller.waits) == interval and all(w <= interval for w in poller.waits)
