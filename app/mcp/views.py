"""POST /mcp: the MCP server (Streamable HTTP, stateless JSON-RPC 2.0) for AI assistants.

This module is imported at every cold start, so it holds only the route; the protocol,
the tools and their schemas load on the first /mcp request (app.mcp.server)."""
from __future__ import annotations

from flask import current_app
from werkzeug.exceptions import HTTPException

from app.mcp.jsonrpc import HttpRpcError
from app.api.needs import needs
from app.api.spec import Blueprint
from app.errors import DomainError, RateLimited

blp = Blueprint("mcp", __name__, description="MCP connector: AI assistants acting for a user")

_RPC_ERROR = {"type": "object", "required": ["jsonrpc", "id", "error"], "properties": {
    "jsonrpc": {"type": "string", "enum": ["2.0"]},
    # null when the request's id could not be read (a 401, a parse error). OAS 3.0 honours
    # nullable only beside a type in the same schema, so it sits on one branch.
    "id": {"oneOf": [{"type": "string", "nullable": True}, {"type": "integer"}]},
    "error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer"}, "message": {"type": "string"}, "data": {}}}}}
_MESSAGE = {"type": "object", "required": ["jsonrpc"], "properties": {
    "jsonrpc": {"type": "string", "enum": ["2.0"]},
    "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "method": {"type": "string"}, "params": {"type": "object"}}}


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


DOC = {
    "summary": "MCP server: initialize, ping, tools/list, tools/call (JSON-RPC 2.0)",
    "description": (
        "Streamable HTTP, stateless, JSON replies. Takes only MCP access tokens (OAuth, "
        "audience <base>/mcp); app sign-ins and personal access tokens get 401. Tool failures "
        "are tool results with isError; protocol errors are JSON-RPC errors. See docs/mcp.md."),
    "requestBody": {"required": True, "content": {"application/json": {"schema": {
        "oneOf": [_MESSAGE, {"type": "array", "items": _MESSAGE}]}}}},
    "responses": {
        "200": _json("A JSON-RPC response (or a batch of them)", {"oneOf": [
            {"type": "object"}, {"type": "array", "items": {"type": "object"}}]}),
        "202": {"description": "Only notifications or responses were sent: nothing to answer"},
        "400": _json("Not JSON (-32700) or an unsupported MCP-Protocol-Version (-32600)",
                     _RPC_ERROR),
        "401": _json("No, bad or expired MCP token, or one for another resource; "
                     "WWW-Authenticate names the resource metadata", _RPC_ERROR),
        "403": _json("An untrusted browser Origin (a request without Origin is allowed), or "
                     "the connection lacks the tool's scope: WWW-Authenticate "
                     "error=\"insufficient_scope\" and the scope to ask for", _RPC_ERROR),
        "406": _json("Accept does not include application/json", _RPC_ERROR),
        "413": _json("The body is over 64 KiB", _RPC_ERROR),
        "415": _json("The body is not application/json", _RPC_ERROR),
    },
}


@blp.route("/mcp", methods=["POST"])
@needs(own_auth=True)
@blp.doc(**DOC)
def mcp():
    from app.mcp import server  # the protocol and the tools: loaded on first use

    return server.handle()


@blp.errorhandler(DomainError)
def _domain_error(error: DomainError):
    """Refusals of the whole request (auth, media type, body) as JSON-RPC errors with id null."""
    from app.mcp import auth

    if error.status == 401 and not isinstance(error, auth.Challenge):
        error = auth.challenge(error)
    headers = {}
    if isinstance(error, auth.Challenge):
        headers["WWW-Authenticate"] = error.www_authenticate
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(error.retry_after)
    code = -32700 if error.status == 400 else -32600
    data = {"error": {"code": error.code, "message": error.message, "details": error.details}}
    return _rpc_error(error.status, code, error.message, data, headers)


@blp.errorhandler(HttpRpcError)
def _rpc_refusal(error: HttpRpcError):
    return _rpc_error(error.status, error.code, error.message, error.data)


@blp.errorhandler(HTTPException)
def _http_error(error: HTTPException):
    status = error.code or 500
    if status >= 500:
        return _rpc_error(500, -32603, "Internal error.")
    return _rpc_error(status, -32600, error.description or "Request refused.")


def _rpc_error(status: int, code: int, message: str, data=None, headers=None):
    from app.mcp.jsonrpc import error_body

    response = current_app.json.response(error_body(None, code, message, data))
    response.status_code = status
    response.headers.update(headers or {})
    return response
