"""The first S3 client of a process configures app.blobs from the settings on the way: that
used to take the module's lock while building the client under it, and hung the request for
ever (seen as a generated-bodies test that never finished)."""
from __future__ import annotations

import threading

from app import blobs


def test_the_first_client_of_a_process_is_built_without_deadlock(monkeypatch):
    monkeypatch.setattr(blobs, "_state", {})
    monkeypatch.setattr(blobs, "_clients", {})
    built = []
    worker = threading.Thread(target=lambda: built.append(blobs._signer()), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "building the first S3 client deadlocked"
    assert built and blobs.bucket().endswith("-receipts")


def test_clients_are_kept_while_the_endpoint_and_region_stay(monkeypatch):
    monkeypatch.setattr(blobs, "_state", {})
    monkeypatch.setattr(blobs, "_clients", {})
    blobs.configure(bucket="one", endpoint=None, region="us-east-1")
    signer = blobs._signer()
    blobs.configure(bucket="two", endpoint=None, region="us-east-1")  # another test's bucket
    assert blobs._signer() is signer and blobs.bucket() == "two"
    blobs.configure(bucket="two", endpoint="http://127.0.0.1:1", region="us-east-1")
    moved = blobs._signer()
    assert moved is not signer and moved.meta.endpoint_url == "http://127.0.0.1:1"
