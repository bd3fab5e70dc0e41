"""A receipt's objects: read one back, write one, delete them all (known keys, no listing).

Deletes are idempotent (S3 deletes of absent keys succeed)."""
from __future__ import annotations

from datetime import datetime
from typing import NamedTuple, Optional

from app import blobs


def _s3():
    import boto3

    return blobs.cached("objects", lambda: boto3.client("s3", **blobs.client_options()))


class TooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes")
        self.size = size


class Blob(NamedTuple):
    data: bytes
    last_modified: datetime


def read(group_id: str, receipt_id: str, name: str, limit: int) -> Optional[Blob]:
    """The object's bytes and when it was written (None when absent); more than ``limit``
    bytes raises TooLarge without reading the rest."""
    s3 = _s3()
    target = blobs.key(group_id, receipt_id, name)
    # A listing, not a HEAD: absent is an empty page (a HEAD without ListBucket is a 403).
    listed = s3.list_objects_v2(Bucket=blobs.bucket(), Prefix=target, MaxKeys=1)
    found = [item for item in listed.get("Contents", []) if item["Key"] == target]
    if not found:
        return None
    if int(found[0]["Size"]) > limit:
        raise TooLarge(int(found[0]["Size"]))
    data = s3.get_object(Bucket=blobs.bucket(), Key=target)["Body"].read(limit + 1)
    if len(data) > limit:
        raise TooLarge(len(data))
    return Blob(data, found[0]["LastModified"])


def write(group_id: str, receipt_id: str, name: str, data: bytes, content_type: str) -> None:
    _s3().put_object(Bucket=blobs.bucket(), Key=blobs.key(group_id, receipt_id, name),
                     Body=data, ContentType=content_type)


def delete(group_id: str, receipt_id: str, names=blobs.NAMES) -> None:
    """The named objects of one receipt (default: every one it can have)."""
    objects = [{"Key": blobs.key(group_id, receipt_id, name)} for name in names]
    if objects:
        _s3().delete_objects(Bucket=blobs.bucket(), Delete={"Objects": objects, "Quiet": True})
