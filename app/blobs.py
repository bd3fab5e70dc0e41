"""The receipts bucket: object keys, presigned POST/GET, reads, writes and deletes.

Keys are made of the group and receipt ids only (never a file name or anything else a user
sends). Presigning is SigV4 (``signature_version="s3v4"``) and computed locally, so a reply
that carries a thumbnail URL makes no S3 call. Local mode points the client at the embedded
moto server (the same endpoint as DynamoDB), path-style. Configured once by
app.bootstrap; the client is built on first use (a cold start that serves no receipt never
imports boto3's S3 model)."""
from __future__ import annotations

import threading
from datetime import datetime
from typing import NamedTuple, Optional

from app.logs import logger

IMAGE, THUMBNAIL = "image.jpg", "thumb.jpg"
# Uploads land under their own prefix, which the bucket's lifecycle rule expires after a
# day (so an upload never completed, or left behind by a crash, goes away by itself); the
# cleaned image and thumbnail live under PREFIX until the receipt is deleted.
PREFIX, UPLOADS = "receipts", "uploads"
UPLOAD = "upload"
POST_SECONDS = 5 * 60
GET_SECONDS = 15 * 60

_state: dict = {"bucket": None, "endpoint": None, "region": "us-east-1", "client": None}
_lock = threading.Lock()


def configure(*, bucket: str, endpoint: Optional[str], region: str) -> None:
    with _lock:
        _state.update(bucket=bucket, endpoint=endpoint, region=region, client=None)


def bucket() -> str:
    return _state["bucket"]


def client():
    with _lock:
        if _state["client"] is None:
            import boto3
            from botocore.config import Config

            style = {"addressing_style": "path"} if _state["endpoint"] else {}
            _state["client"] = boto3.client(
                "s3", endpoint_url=_state["endpoint"], region_name=_state["region"],
                config=Config(signature_version="s3v4", s3=style))
        return _state["client"]


def group_prefix(group_id: str, root: str = PREFIX) -> str:
    return f"{root}/{group_id}/"


def key(group_id: str, receipt_id: str, name: str) -> str:
    if name == UPLOAD:
        return f"{group_prefix(group_id, UPLOADS)}{receipt_id}"
    return f"{group_id_prefix(group_id, receipt_id)}{name}"


def group_id_prefix(group_id: str, receipt_id: str) -> str:
    return f"{group_prefix(group_id)}{receipt_id}/"


def presigned_post(group_id: str, receipt_id: str, content_type: str, max_bytes: int) -> dict:
    """``{url, fields}`` for one upload: the policy pins the key, the type and the size."""
    target = key(group_id, receipt_id, UPLOAD)
    return client().generate_presigned_post(
        bucket(), target, Fields={"Content-Type": content_type},
        Conditions=[{"Content-Type": content_type}, ["content-length-range", 1, max_bytes]],
        ExpiresIn=POST_SECONDS)


def presigned_get(group_id: str, receipt_id: str, name: str) -> str:
    return client().generate_presigned_url(
        "get_object", Params={"Bucket": bucket(), "Key": key(group_id, receipt_id, name)},
        ExpiresIn=GET_SECONDS)


def read(group_id: str, receipt_id: str, name: str, limit: int) -> Optional[Blob]:
    """The object's bytes and when it was written (None when absent); more than ``limit``
    bytes raises TooLarge without reading the rest."""
    s3 = client()
    try:
        head = s3.head_object(Bucket=bucket(), Key=key(group_id, receipt_id, name))
    except s3.exceptions.ClientError as error:
        if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
            return None
        raise
    if int(head["ContentLength"]) > limit:
        raise TooLarge(int(head["ContentLength"]))
    body = s3.get_object(Bucket=bucket(), Key=key(group_id, receipt_id, name))["Body"]
    data = body.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(len(data))
    return Blob(data, head["LastModified"])


class Blob(NamedTuple):
    data: bytes
    last_modified: datetime


class TooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes")
        self.size = size


def write(group_id: str, receipt_id: str, name: str, data: bytes, content_type: str) -> None:
    client().put_object(Bucket=bucket(), Key=key(group_id, receipt_id, name), Body=data,
                        ContentType=content_type)


def delete_names(group_id: str, receipt_id: str, names) -> None:
    objects = [{"Key": key(group_id, receipt_id, name)} for name in names]
    if objects:
        client().delete_objects(Bucket=bucket(), Delete={"Objects": objects, "Quiet": True})


def delete_receipt(group_id: str, receipt_id: str) -> int:
    """Every object of one receipt, its upload too (idempotent)."""
    delete_names(group_id, receipt_id, [UPLOAD])
    return delete_prefix(group_id_prefix(group_id, receipt_id))


def delete_group(group_id: str) -> int:
    """Every object of a group's receipts, uploads too (idempotent)."""
    return delete_prefix(group_prefix(group_id, UPLOADS)) + delete_prefix(group_prefix(group_id))


def delete_prefix(prefix: str) -> int:
    s3, removed = client(), 0
    try:
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket(), Prefix=prefix):
            objects = [{"Key": item["Key"]} for item in page.get("Contents", [])]
            if objects:
                s3.delete_objects(Bucket=bucket(), Delete={"Objects": objects, "Quiet": True})
                removed += len(objects)
    except s3.exceptions.NoSuchBucket:
        # No bucket, no objects: a stage (or a test) that never stored a receipt.
        logger.warning("receipts.no_bucket")
    return removed


def ensure_bucket() -> None:
    """Local mode: create the bucket on the embedded endpoint (again: no-op)."""
    s3 = client()
    try:
        s3.head_bucket(Bucket=bucket())
    except s3.exceptions.ClientError:
        s3.create_bucket(Bucket=bucket())
