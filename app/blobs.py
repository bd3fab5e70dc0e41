"""The receipts bucket: where it is, its object keys, and presigned POST/GET URLs.

Keys are made of the group and receipt ids only (never a file name or anything else a user
sends). Presigning is SigV4 (``signature_version="s3v4"``) and computed locally, so a reply
that carries a thumbnail URL makes no S3 call. Local mode points the client at the embedded
moto server (the same endpoint as DynamoDB), path-style. The client is built on first
use (a cold start that serves no receipt never loads boto3's
S3 model; the bucket is read from the environment then too). The calls that read, write and delete objects live with the code that makes
them (app.receipts.objects and .cleanup), so each function's IAM grants follow
from what it can call (tests/deploy/test_function_needs.py)."""
from __future__ import annotations

import threading
from typing import Optional

from app import config

IMAGE, THUMBNAIL = "image.jpg", "thumb.jpg"
# Uploads land under their own prefix, which the bucket's lifecycle rule expires after a
# day (so an upload never completed, or left behind by a crash, goes away by itself); the
# cleaned image and thumbnail live under PREFIX until the receipt is deleted.
PREFIX, UPLOADS = "receipts", "uploads"
UPLOAD = "upload"
# A PDF receipt also keeps the file itself (what its attachment serves) and its own text
# (what a scan parses, when the PDF has some).
DOCUMENT, TEXT = "document.pdf", "text.txt"
NAMES = (UPLOAD, IMAGE, THUMBNAIL, DOCUMENT, TEXT)
POST_SECONDS = 5 * 60
GET_SECONDS = 15 * 60

_state: dict = {}
_clients: dict = {}
_lock = threading.Lock()


def configure(*, bucket: str, endpoint: Optional[str], region: str) -> None:
    """Point at a bucket and endpoint (tests; otherwise taken from the settings on first use,
    so only the functions that touch receipts read RECEIPTS_BUCKET). The clients built so far
    are kept unless the endpoint or region changes: building one costs ~30 ms."""
    with _lock:
        if (_state.get("endpoint"), _state.get("region")) != (endpoint, region):
            _clients.clear()
        _state.update(bucket=bucket, endpoint=endpoint, region=region)


def _configured() -> dict:
    if not _state:
        settings = config.current()
        configure(bucket=settings.receipts_bucket or f"tailspend-{settings.stage}-receipts",
                  endpoint=settings.s3_endpoint
                  or (settings.dynamodb_endpoint if settings.local_mode else None),
                  region=settings.region)
    return _state


def bucket() -> str:
    return _configured()["bucket"]


def client_options() -> dict:
    """What every S3 client of the receipts bucket is built with."""
    from botocore.config import Config

    state = _configured()
    style = {"addressing_style": "path"} if state["endpoint"] else {}
    return {"endpoint_url": state["endpoint"], "region_name": state["region"],
            "config": Config(signature_version="s3v4", s3=style)}


def cached(name: str, build):
    """One client per caller ``name``, built by ``build()`` on first use."""
    _configured()  # before the lock: a first use configures, which takes the lock itself
    with _lock:
        if name not in _clients:
            _clients[name] = build()
        return _clients[name]


def _signer():
    import boto3

    return cached("signer", lambda: boto3.client("s3", **client_options()))


def group_prefix(group_id: str, root: str = PREFIX) -> str:
    return f"{root}/{group_id}/"


def receipt_prefix(group_id: str, receipt_id: str) -> str:
    return f"{group_prefix(group_id)}{receipt_id}/"


def key(group_id: str, receipt_id: str, name: str) -> str:
    if name == UPLOAD:
        return f"{group_prefix(group_id, UPLOADS)}{receipt_id}"
    return f"{receipt_prefix(group_id, receipt_id)}{name}"


def presigned_post(group_id: str, receipt_id: str, content_type: str, max_bytes: int) -> dict:
    """``{url, fields}`` for one upload: the policy pins the key, the type and the size."""
    target = key(group_id, receipt_id, UPLOAD)
    return _signer().generate_presigned_post(
        bucket(), target, Fields={"Content-Type": content_type},
        Conditions=[{"Content-Type": content_type}, ["content-length-range", 1, max_bytes]],
        ExpiresIn=POST_SECONDS)


def presigned_get(group_id: str, receipt_id: str, name: str) -> str:
    return _signer().generate_presigned_url(
        "get_object", Params={"Bucket": bucket(), "Key": key(group_id, receipt_id, name)},
        ExpiresIn=GET_SECONDS)
