"""Local mode's mailbox (GET /dev/mail): what the embedded SMTP server received."""
from __future__ import annotations

from marshmallow import fields

from app.api.schemas import Strict


class SmtpAddressSchema(Strict):
    host = fields.String(required=True, metadata={"description": "The embedded server's host"})
    port = fields.Integer(required=True, metadata={"description": "Its port (serve --smtp-port)"})


class DevMailSchema(Strict):
    id = fields.String(required=True, metadata={"description": "Opaque id, newest highest"})
    receivedAt = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
    # "from" is a Python keyword: the attribute is named through data_key
    sender = fields.String(required=True, data_key="from", attribute="from",
                           metadata={"description": "The envelope's sender"})
    to = fields.List(fields.String(), required=True,
                     metadata={"description": "The envelope's recipients"})
    subject = fields.String(required=True, metadata={"description": "The Subject header"})
    headers = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                          metadata={"description": "Every header, by name"})
    text = fields.String(required=True, allow_none=True,
                         metadata={"description": "The text/plain part"})
    html = fields.String(required=True, allow_none=True,
                         metadata={"description": "The text/html part"})
    raw = fields.String(required=True, metadata={"description": "The message as received"})


class DevMailPageSchema(Strict):
    smtp = fields.Nested(SmtpAddressSchema, required=True, allow_none=True,
                         metadata={"description": "Where the app sends (null: not started)"})
    items = fields.List(fields.Nested(DevMailSchema), required=True)
    nextCursor = fields.String(required=True, allow_none=True)
