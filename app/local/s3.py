"""Local mode's receipts bucket on the embedded moto server (never packaged for Lambda)."""
from __future__ import annotations

from app import blobs


def ensure_bucket() -> None:
    """Create the bucket on the embedded endpoint (again: no-op)."""
    import boto3

    s3 = boto3.client("s3", **blobs.client_options())
    try:
        s3.head_bucket(Bucket=blobs.bucket())
    except s3.exceptions.ClientError:
        s3.create_bucket(Bucket=blobs.bucket())
