"""The one Amazon SES v2 client the sender (ses.py) and the feedback handler (feedback.py) use.
What each may call is its function's grant, not the client's; this module calls nothing, so
a function reaches only the calls of the module it imports (tests/deploy/code_needs.py)."""
from __future__ import annotations

import boto3

_client: dict = {}


def client():
    if "sesv2" not in _client:
        _client["sesv2"] = boto3.client("sesv2")
    return _client["sesv2"]


def use(stub_client) -> None:
    """Tests: a botocore-stubbed client instead of the real one."""
    _client["sesv2"] = stub_client
