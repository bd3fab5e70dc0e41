"""A second ``complete`` on a receipt still PROCESSING hands its ingest off again only when
the last hand-off is REDRIVE_SECONDS old, and the hand-off's time moves in the same
conditional write: one more ingest per window, however many completes, concurrent or not.
The clock is complete's own (app.core.clock), moved ahead, never slept."""
from __future__ import annotations

import threading

import pytest

from app.core import clock, handoff
from app.receipts import uploads, work
from tests.receipts import images
from tests.support import aws_calls


@pytest.fixture
def queued():
    """The receipt queue as local mode's runner that keeps each message and runs none, so the
    receipt stays PROCESSING: a hand-off that looks lost."""
    sent: list = []
    handoff.use_local_runner(work.QUEUE.name, sent.append)
    yield sent
    handoff.use_local_runner(work.QUEUE.name, None)


def _later(monkeypatch, seconds: float) -> None:
    """complete's clock, ``seconds`` from now."""
    monkeypatch.setattr(uploads, "now_iso", lambda: clock.iso_in(seconds))
    monkeypatch.setattr(uploads, "iso_in", lambda offset: clock.iso_in(seconds + offset))


def test_each_window_queues_one_more_ingest_however_often_complete_is_called(
        group, queued, monkeypatch):
    receipt_id = group.upload(images.receipt())
    for _ in range(3):
        assert group.complete(receipt_id).status_code == 202
    assert len(queued) == 1  # the first complete; the next two are inside the window
    window = uploads.REDRIVE_SECONDS + 1
    for windows in (1, 2):
        _later(monkeypatch, windows * window)
        for _ in range(3):
            reply = group.complete(receipt_id)
            assert reply.status_code == 202 and reply.get_json()["status"] == "PROCESSING"
        assert len(queued) == 1 + windows
    assert queued == [work.ingest_item(group.group_id, receipt_id)] * 3


def test_two_completes_that_both_read_a_stale_hand_off_queue_one_ingest(
        group, queued, monkeypatch):
    """The second complete runs whole (on its own thread) right after the first has read the
    row: both saw the hand-off as stale, only one of them may queue."""
    receipt_id = group.upload(images.receipt())
    group.complete(receipt_id)
    _later(monkeypatch, uploads.REDRIVE_SECONDS + 1)
    state: dict = {"reader": None, "replies": []}

    def other_complete():
        state["replies"].append(group.complete(receipt_id).status_code)

    def before(operation, params):
        if operation == "GetItem" and receipt_id in str(params.get("Key")) \
                and state["reader"] is None:
            state["reader"] = threading.get_ident()

    def after(_operation, _parsed, _ok):
        if state["reader"] == threading.get_ident():
            state["reader"] = "done"
            racer = threading.Thread(target=other_complete)
            racer.start()
            racer.join()

    with aws_calls.watched(before=before, after=after):
        assert group.complete(receipt_id).status_code == 202
    assert state["reader"] == "done" and state["replies"] == [202]
    assert len(queued) == 2  # the first complete's, then one redrive
