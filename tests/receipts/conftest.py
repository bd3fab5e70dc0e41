"""Fixtures for receipts: the bucket on in-process moto S3, a group of three, uploads."""
from __future__ import annotations

import pytest

import boto3

from app import blobs
from tests.support.trio import Trio


def s3():
    """A client of the test's own (the app's are built per module, on first use)."""
    return blobs.cached("tests", lambda: boto3.client("s3", **blobs.client_options()))


class Group(Trio):
    """The trio's group with its receipts."""

    def start(self, content_type: str = "image/jpeg", size: int = 100_000):
        return self.client.post(f"/groups/{self.group_id}/receipts",
                                json={"contentType": content_type, "size": size},
                                headers=self.headers)

    def upload(self, data: bytes, content_type: str = "image/jpeg", *, declared=None) -> str:
        """A receipt whose file is in the bucket (put straight, as the POST would)."""
        reply = self.start(content_type, declared or len(data))
        assert reply.status_code == 201, reply.get_json()
        receipt_id = reply.get_json()["receiptId"]
        s3().put_object(Bucket=blobs.bucket(),
                                  Key=reply.get_json()["upload"]["fields"]["key"], Body=data)
        return receipt_id

    def path(self, receipt_id: str, tail: str = "") -> str:
        return f"/groups/{self.group_id}/receipts/{receipt_id}{tail}"

    def complete(self, receipt_id: str):
        return self.client.post(self.path(receipt_id, "/complete"), headers=self.headers)

    def get(self, receipt_id: str) -> dict:
        reply = self.client.get(self.path(receipt_id), headers=self.headers)
        assert reply.status_code == 200, reply.get_json()
        return reply.get_json()

    def ready(self, data: bytes) -> str:
        receipt_id = self.upload(data)
        assert self.complete(receipt_id).status_code == 202
        assert self.get(receipt_id)["status"] == "READY"
        return receipt_id

    def expense(self, amount: int = 1200) -> dict:
        reply = self.client.post(f"/groups/{self.group_id}/expenses", json={
            "description": "Dinner", "amount": amount,
            "payments": [{"participantId": self.me, "amount": amount}],
            "splitMode": "EQUAL", "splits": [{"participantId": p, "value": 1} for p in
                                             (self.me, self.ann, self.bo)]},
            headers=self.headers)
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()


@pytest.fixture
def bucket(app):
    """The receipts bucket in this test's moto (the clients are kept: moto intercepts every
    client, and each test's moto starts empty)."""
    blobs.configure(bucket=blobs.bucket(), endpoint=None, region="us-east-1")
    s3().create_bucket(Bucket=blobs.bucket())
    return blobs.bucket()


def objects(group_id: str = "") -> list:
    page = s3().list_objects_v2(Bucket=blobs.bucket())
    return sorted(o["Key"] for o in page.get("Contents", []) if group_id in o["Key"])


@pytest.fixture
def group(client, sign_in, bucket) -> Group:
    return Group.signed_in(client, sign_in, "rita@example.com", "Rita")
