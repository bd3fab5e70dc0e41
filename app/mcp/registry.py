"""The tool registry: what each tool is, its schemas, and how one call runs.

A tool names the REST view it stands for; its scope is that view's PAT scope
(app.api.pat), so a connection and a personal access token reach the same operations with
the same scopes. One call: scope (403 insufficient_scope, an HTTP answer), then the shared
daily developer budget and per-minute window (as a PAT spends them), then the arguments
(the tool's schema), then the same service functions as the REST route. Our 4xx errors
become tool results with ``isError`` so the assistant can read and fix them."""
from __future__ import annotations

import json
import logging
from typing import Any, Dict, Optional

from flask import g
from marshmallow import ValidationError

from app.mcp import auth, tools_insight, tools_read, tools_receipts, tools_write
from app.mcp.json_schema import with_formatted
from app.mcp.tool import Dumped, Tool
from app.auth.principal import Principal
from app.errors import DomainError, Invalid, RateLimited

log = logging.getLogger("tailspend.mcp")


TOOLS: Dict[str, Tool] = {tool.name: tool for tool in (*tools_read.TOOLS, *tools_receipts.TOOLS,
                                                        *tools_write.TOOLS,
                                                        *tools_insight.TOOLS)}
_listing: Optional[list] = None


def listing() -> list:
    """tools/list's ``tools``, built once per process (schema conversion is not free)."""
    global _listing
    if _listing is None:
        _listing = [tool.describe() for tool in TOOLS.values()]
    return _listing


def find(name: Any) -> Optional[Tool]:
    return TOOLS.get(name) if isinstance(name, str) else None


def call(tool: Tool, principal: Principal, arguments: dict) -> dict:
    """One tools/call: a CallToolResult (success or isError); HTTP-level refusals raise."""
    auth.require_scope(principal, tool.scope)  # 403 insufficient_scope: the client re-consents
    # Each call authorizes afresh (app.api.context.group_access caches per HTTP request): in
    # a batch, a call must not reuse an access, or a prefetched balance row, read before an
    # earlier call of the same batch wrote.
    g.pop("group_access", None)
    try:
        _spend(principal, create=tool.creates)
        loaded = _load(tool, arguments)
        schema = tool.result() if isinstance(tool.result, type) else tool.result
        result = tool.run(principal, loaded)
        structured = with_formatted(result if isinstance(result, Dumped) else schema.dump(result),
                                    group_currency=_group_currency(loaded))
    except DomainError as error:
        _count(principal, created=False, failed=True)
        return error_result(error)
    _count(principal, created=tool.creates, failed=False)
    return {"content": [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}],
            "structuredContent": structured, "isError": False}


def _group_currency(arguments: dict) -> Optional[str]:
    """The currency of the group the call authorized against (the request's cached group
    access, app.api.context.group_access), for groupAmount's formatted twin; None if none."""
    group_id = arguments.get("groupId")
    for (cached_id, *_), access in (g.get("group_access") or {}).items():
        if cached_id == str(group_id):
            return access.group.Currency
    return None


def error_result(error: DomainError) -> dict:
    """A tool failure as a result the assistant reads: ``isError`` and one text block
    ``CODE: message {details}``, with no ``structuredContent``.

    structuredContent must match the tool's outputSchema, and the TypeScript SDK checks that
    even on error results (typescript-sdk#1943: the host gets -32602 and the model never
    sees the error). Widening every outputSchema to admit the error shape would muddy the
    success schema the model reads (and a root anyOf is what some hosts refuse), so the
    error travels in the text content, which every SDK passes through."""
    details = dict(error.details)
    if isinstance(error, RateLimited):
        details["retryAfter"] = error.retry_after
    text = f"{error.code}: {error.message}"
    if details:
        text += " " + json.dumps(details, ensure_ascii=False)
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _load(tool: Tool, arguments: dict) -> dict:
    try:
        return tool.args().load(arguments)
    except ValidationError as error:
        raise Invalid("The arguments have invalid fields.",
                      details=_flat(error.messages)) from None


def _flat(messages: Any) -> dict:
    return messages if isinstance(messages, dict) else {"_": messages}


def _spend(principal: Principal, *, create: bool) -> None:
    """The caller's per-minute window and the owner's daily budget, one write (as for PATs).

    Over budget is a tool error (RATE_LIMITED with retryAfter), not an HTTP 429: MCP clients
    treat HTTP errors as transport failures, while a tool error reaches the assistant, which
    can tell its user when the budget resets."""
    from app.developer import gate as developer_gate

    developer_gate.runtime().limiter.spend_mcp(principal.credential_id, principal.user_id,
                                               create=create)


def _count(principal: Principal, *, created: bool, failed: bool) -> None:
    """Queue one usage row update (tokenId = grant id, name = client), written after the reply."""
    g.setdefault("mcp_usage", []).append((principal.user_id, principal.credential_id,
                                          g.get("mcp_client_name"), created, failed))
