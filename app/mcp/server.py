"""The MCP Streamable HTTP endpoint, stateless: one POST in, one JSON reply out.

No session: every request carries its bearer token and stands alone, so any instance can
answer it (a ``Mcp-Session-Id`` a client sends is accepted and ignored; none is issued).
Replies are ``application/json``, never an SSE stream: nothing here outlives its request.
Protocol versions: those of the initialize handshake (see SUPPORTED_VERSIONS); ``initialize``
answers the client's version when supported, else the newest; later requests name theirs in
``MCP-Protocol-Version`` (absent: 2025-03-26, as the transport spec says). JSON-RPC batches
are accepted for the versions that had them (before 2025-06-18)."""
from __future__ import annotations

import json
import logging
from typing import Any, Optional, Tuple

from flask import current_app, g, request

from app.mcp import auth, origin, registry
from app.mcp.jsonrpc import (INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
                             PARSE_ERROR, HttpRpcError, RpcError, error_body, http_error)
from app.auth.principal import Principal

log = logging.getLogger("tailspend.mcp")

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
DEFAULT_VERSION = "2025-03-26"  # what a request without MCP-Protocol-Version speaks
BATCH_VERSIONS = frozenset({"2025-03-26", "2024-11-05"})
SERVER_INFO = {"name": "tailspend", "title": "TailSpend", "version": "1.0.0"}
INSTRUCTIONS = ("TailSpend splits group expenses. Money is shown in minor units and formatted; "
                "send amounts as decimal strings in the group currency. Start with list_groups "
                "(or create_group), then get_group for participant ids; get_balances shows who "
                "owes whom and settle_up records its plan. A failed call's text says what to "
                "fix.")


def handle():
    """POST /mcp: the Origin, then authenticate, then answer the JSON-RPC message (or batch)."""
    origin.check()
    _check_accept()
    principal = auth.authenticate()
    version = request.headers.get("MCP-Protocol-Version") or DEFAULT_VERSION
    if version not in SUPPORTED_VERSIONS:
        raise http_error(400, INVALID_REQUEST, f"Unsupported MCP-Protocol-Version {version!r}; "
                                               f"supported: {', '.join(SUPPORTED_VERSIONS)}.")
    message = _parse_body()
    if isinstance(message, list):
        if not message:
            return _reply(error_body(None, INVALID_REQUEST, "An empty batch is not a request."))
        if version not in BATCH_VERSIONS:
            return _reply(error_body(None, INVALID_REQUEST,
                                     f"JSON-RPC batches are not part of MCP {version}."))
        answers = [a for a in (_answer(m, principal, in_batch=True) for m in message) if a]
        reply = _reply(answers) if answers else _accepted()
    else:
        answer = _answer(message, principal, in_batch=False)
        reply = _reply(answer) if answer else _accepted()
    _record_usage(reply)
    return reply


def _check_accept() -> None:
    if request.headers.get("Accept") and not request.accept_mimetypes.best_match(
            ["application/json"]):
        raise http_error(406, INVALID_REQUEST,
                         "Accept must include application/json (text/event-stream is never sent).")


def _parse_body() -> Any:
    data = request.get_data(cache=True)
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise http_error(400, PARSE_ERROR, "The body is not valid JSON.") from None


def _answer(message: Any, principal: Principal, *, in_batch: bool) -> Optional[dict]:
    """The response to one message, or None for a notification or a client's response."""
    ident = message.get("id") if isinstance(message, dict) else None
    if not _valid_id(ident):
        ident = None
    try:
        method, params, is_request = _envelope(message)
    except RpcError as error:
        return error_body(ident, error.code, error.message, error.data)
    if not is_request:
        return None  # notifications (e.g. notifications/initialized) and responses: no reply
    try:
        return {"jsonrpc": "2.0", "id": ident,
                "result": _dispatch(method, params, principal, in_batch=in_batch)}
    except (HttpRpcError, auth.Challenge):
        raise  # refuses the whole HTTP request (e.g. 403 insufficient_scope)
    except RpcError as error:
        return error_body(ident, error.code, error.message, error.data)
    except Exception:  # a bug, not bad input: logged, answered without internals
        log.exception("mcp_internal_error", extra={"method": method})
        return error_body(ident, INTERNAL_ERROR, "Internal error.")


def _valid_id(ident: Any) -> bool:
    return isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool))


def _envelope(message: Any) -> Tuple[Optional[str], dict, bool]:
    """(method, params, is a request) of a well-formed message, else RpcError -32600/-32602."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, "Not a JSON-RPC 2.0 message.")
    if "method" not in message:
        if "id" in message and ("result" in message or "error" in message):
            return None, {}, False  # a response to a server request (we send none): ignore
        raise RpcError(INVALID_REQUEST, "A request needs a method.")
    method = message["method"]
    if not isinstance(method, str):
        raise RpcError(INVALID_REQUEST, "method must be a string.")
    if "id" in message and not _valid_id(message["id"]):
        raise RpcError(INVALID_REQUEST, "id must be a string or an integer (never null).")
    params = message.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise RpcError(INVALID_PARAMS, "params must be an object.")
    return method, params, "id" in message


def _dispatch(method: str, params: dict, principal: Principal, *, in_batch: bool) -> dict:
    if method == "initialize":
        if in_batch:
            raise RpcError(INVALID_REQUEST, "initialize must not be part of a batch.")
        return _initialize(params)
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": registry.listing()}
    if method == "tools/call":
        return _call_tool(params, principal)
    raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}.")


def _initialize(params: dict) -> dict:
    requested = params.get("protocolVersion")
    if not isinstance(requested, str):
        raise RpcError(INVALID_PARAMS, "initialize needs params.protocolVersion (a string).")
    version = requested if requested in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
    return {"protocolVersion": version, "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": SERVER_INFO, "instructions": INSTRUCTIONS}


def _call_tool(params: dict, principal: Principal) -> dict:
    tool = registry.find(params.get("name"))
    if tool is None:
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {params.get('name')!r}.",
                       {"tools": sorted(registry.TOOLS)})
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, "arguments must be an object.")
    return registry.call(tool, principal, arguments)


def _reply(payload: Any):
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return current_app.response_class(body, status=200, mimetype="application/json")


def _accepted():
    """202 with no body and so no Content-Type (Flask would label the empty body text/html,
    which some clients then try to parse)."""
    response = current_app.response_class(status=202)
    del response.headers["Content-Type"]
    return response


def _record_usage(response) -> None:
    """Each tool call's usage row (tokenId = grant id, name = client), after the reply is sent."""
    pending = g.pop("mcp_usage", None)
    if not pending:
        return
    from app.developer import usage

    def write() -> None:
        for user_id, grant_id, name, created, failed in pending:
            usage.record(user_id, grant_id, name=name or None, create=created, error=failed)

    response.call_on_close(write)
