"""AppSync Events' Lambda authorizer: connect and subscribe with our realtime token.

AppSync calls it with ``authorizationToken`` (the bare token from the header auth) and a
``requestContext`` naming the ``operation`` (EVENT_CONNECT, EVENT_SUBSCRIBE, EVENT_PUBLISH)
and, for a subscribe, the ``channel``. Connect needs a valid token; subscribe also needs the
channel listed in it, never a wildcard (app/services/realtime/channels.py, the same check
local mode's server makes); publish is never ours to allow (the publisher signs with IAM).
Nothing is cached (ttlOverride 0): the answer depends on the channel, and a token's expiry
must bite at the next subscribe."""
from __future__ import annotations

from app.logs import logger
from app.services.realtime.channels import ChannelRefused, check_subscribe
from app.services.realtime.tokens import TokenRefused, verify

CONNECT, SUBSCRIBE = "EVENT_CONNECT", "EVENT_SUBSCRIBE"


def _refused(reason: str) -> dict:
    logger.info("realtime.refused", extra={"reason": reason})
    return {"isAuthorized": False, "ttlOverride": 0}


def lambda_handler(event, context):
    request = (event or {}).get("requestContext") or {}
    operation = request.get("operation")
    try:
        grant = verify((event or {}).get("authorizationToken"))
    except TokenRefused as refusal:
        return _refused(str(refusal))
    if operation == SUBSCRIBE:
        try:
            check_subscribe(grant.channels, request.get("channel"))
        except ChannelRefused as refusal:
            return _refused(str(refusal))
    elif operation != CONNECT:
        return _refused(f"{operation} is not allowed with a realtime token")
    return {"isAuthorized": True, "ttlOverride": 0, "handlerContext": {"userId": grant.user_id}}
