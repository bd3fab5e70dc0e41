"""Shared fixtures: moto-backed tables built from template.yaml, a fresh app per test."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.pop("DYNAMODB_ENDPOINT", None)
os.environ.pop("AWS_PROFILE", None)

from moto import mock_aws  # noqa: E402

import models  # noqa: E402
from app import create_app  # noqa: E402
from app.config import Settings  # noqa: E402
from tests.support.tables import create_all_tables  # noqa: E402

STAGE = "test"


@pytest.fixture
def aws():
    """A fresh in-process DynamoDB (moto) with every table of the template."""
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(stage=STAGE, region="us-east-1", local_mode=True, data_dir=str(tmp_path),
                    cursor_secret=b"test-cursor-secret")


@pytest.fixture
def app(aws, settings):
    return create_app(settings)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sign_in(client):
    """sign_in(email, admin=False) -> (headers, user_id) through POST /dev/tokens."""

    def _sign_in(email: str, *, admin: bool = False, display_name: str | None = None):
        body = {"email": email, "admin": admin}
        if display_name:
            body["displayName"] = display_name
        reply = client.post("/dev/tokens", json=body)
        assert reply.status_code == 201, reply.get_json()
        data = reply.get_json()
        return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

    return _sign_in
