"""The AWS transport: AppSync Events' HTTP publish API, SigV4-signed with the function's role.

``POST https://<Dns.Http>/event`` with ``{"channel", "events": [<JSON string>, ...]}``, signed
for the ``appsync`` service through botocore's public signer (botocore.auth.SigV4Auth on an
AWSRequest) and sent with urllib3, which botocore already brings into the package: no new HTTP
stack. A reply other than 200, or one listing any event as failed, raises, so the publisher
reports the record and Lambda retries it."""
from __future__ import annotations

import json
from typing import List, Optional

import urllib3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest

from app.config import Settings

SERVICE = "appsync"
TIMEOUT_S = 5.0


class PublishFailed(RuntimeError):
    pass


class AppSyncTransport:
    def __init__(self, http_host: str, region: str, credentials=None,
                 pool: Optional[urllib3.PoolManager] = None) -> None:
        if not http_host:
            raise RuntimeError("REALTIME_HTTP_ENDPOINT is not set (the Event API's Dns.Http)")
        self.url = f"https://{http_host}/event"
        self.region = region
        self._credentials = credentials
        self._pool = pool or urllib3.PoolManager(timeout=urllib3.Timeout(total=TIMEOUT_S),
                                                 retries=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> "AppSyncTransport":
        return cls(settings.realtime_http_endpoint or "", settings.region)

    def _creds(self):
        if self._credentials is None:
            import boto3

            self._credentials = boto3.Session().get_credentials()
        return self._credentials.get_frozen_credentials()

    def signed(self, channel: str, events: List[str]) -> AWSRequest:
        body = json.dumps({"channel": channel, "events": events})
        request = AWSRequest(method="POST", url=self.url, data=body,
                             headers={"Content-Type": "application/json"})
        SigV4Auth(self._creds(), SERVICE, self.region).add_auth(request)
        return request

    def publish(self, channel: str, events: List[str]) -> None:
        request = self.signed(channel, events)
        reply = self._pool.request("POST", request.url, body=request.body,
                                   headers=dict(request.headers.items()))
        if reply.status != 200:
            raise PublishFailed(f"AppSync publish answered {reply.status}")
        try:
            failed = json.loads(reply.data or b"{}").get("failed") or []
        except ValueError:
            raise PublishFailed("AppSync publish answered no JSON") from None
        if failed:
            raise PublishFailed(f"AppSync refused {len(failed)} of {len(events)} events")
