"""The cursor key in AWS: read from Secrets Manager at run time (CURSOR_SECRET_ARN), once per
container and only when a cursor is first signed or checked; CURSOR_SECRET still works for
local mode and tests."""
from __future__ import annotations

import hashlib
import hmac

import boto3
from botocore.exceptions import ClientError
import pytest
from moto import mock_aws

from app import config
from app.bootstrap import bootstrap
from app.config import Settings
from app.core import paging
from tests.support import aws_calls


@pytest.fixture
def restore_paging():
    saved = dict(paging._key)
    config.forget_secrets()
    yield
    paging._key.clear()
    paging._key.update(saved)
    config.forget_secrets()


def _signature(key: bytes, scope: str, cursor_payload: bytes) -> bytes:
    return hmac.new(key, scope.encode() + b"\x00" + cursor_payload, hashlib.sha256).digest()[:16]


def test_the_cursor_key_is_read_from_secrets_manager_once_on_first_use(restore_paging):
    with mock_aws():
        arn = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
            Name="tailspend-test/cursor", SecretString="k" * 48)["ARN"]
        settings = Settings.from_env({"CURSOR_SECRET_ARN": arn, "TAILSPEND_STAGE": "test"})
        assert settings.cursor_secret == b"" and settings.cursor_key_arn == arn
        with aws_calls.recorded() as made:
            bootstrap(settings)
            assert made == []  # a cold start that lists nothing never reads it
            cursors = [paging.encode({"PK": {"S": f"G#{n}"}}, "groups:u1") for n in range(3)]
            assert paging.decode(cursors[0], "groups:u1") == {"PK": {"S": "G#0"}}
        assert made == ["GetSecretValue"]
    # Signed with the secret's value: every container of the stage accepts every cursor.
    import base64
    raw = base64.urlsafe_b64decode(cursors[1] + "=" * (-len(cursors[1]) % 4))
    assert raw[:16] == _signature(b"k" * 48, "groups:u1", raw[16:])


def test_a_failed_read_is_an_error_and_is_tried_again(restore_paging):
    with mock_aws():
        sm = boto3.client("secretsmanager", region_name="us-east-1")
        arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:tailspend-test/later-AbCdEf"
        bootstrap(Settings.from_env({"CURSOR_SECRET_ARN": arn, "TAILSPEND_STAGE": "test"}))
        with pytest.raises(ClientError):  # no such secret yet
            paging.encode({"PK": {"S": "x"}}, "s")
        arn = sm.create_secret(Name="tailspend-test/later", SecretString="v" * 40)["ARN"]
        bootstrap(Settings.from_env({"CURSOR_SECRET_ARN": arn, "TAILSPEND_STAGE": "test"}))
        assert paging.decode(paging.encode({"PK": {"S": "x"}}, "s"), "s") == {"PK": {"S": "x"}}


def test_cursor_secret_in_the_environment_still_wins(restore_paging):
    with aws_calls.recorded() as made:
        bootstrap(Settings.from_env({"CURSOR_SECRET": "plain-local-key", "TAILSPEND_STAGE": "test",
                                     "CURSOR_SECRET_ARN": "arn:unused"}))
        cursor = paging.encode({"PK": {"S": "x"}}, "s")
    assert made == []
    import base64
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    assert raw[:16] == _signature(b"plain-local-key", "s", raw[16:])


def test_the_secret_arn_is_not_a_secret_but_the_value_never_shows():
    settings = Settings.from_env({"CURSOR_SECRET_ARN": "arn:aws:secretsmanager:x", "CURSOR_SECRET": "v"})
    assert "arn:aws:secretsmanager:x" in repr(settings) and "'v'" not in repr(settings)
