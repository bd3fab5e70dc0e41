"""Live updates: the subscribe token's reply."""
from __future__ import annotations

from marshmallow import fields

from app.api.schemas import Schema


class RealtimeTokenSchema(Schema):
    """Where to connect and the token to connect with (docs/realtime.md)."""

    endpoint = fields.String(required=True, metadata={
        "description": "The realtime host: connect to ws(s)://<endpoint>/event/realtime "
                       "(AppSync Events in AWS, local mode's server locally)"})
    url = fields.String(required=True, metadata={
        "description": "The full WebSocket URL (wss:// in AWS, ws:// in local mode)"})
    host = fields.String(required=True, metadata={
        "description": "The `host` the header auth carries, with `Authorization: <token>`"})
    token = fields.String(required=True, metadata={"description": "Valid 15 minutes"})
    expiresAt = fields.String(required=True, attribute="expires_at",
                              metadata={"description": "ISO 8601 instant (UTC)"})
    channels = fields.List(fields.String(), required=True, metadata={
        "description": "/groups/{groupId} for each of the caller's groups, then /users/{userId}"})
