"""JSON-RPC 2.0 error codes and shapes for /mcp (the spec's codes; nothing of our own)."""
from __future__ import annotations

from typing import Any, Optional

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


class RpcError(Exception):
    """A JSON-RPC error answered in the body (HTTP 200), tied to the request's id."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class HttpRpcError(RpcError):
    """A refusal of the whole HTTP request (4xx), its body a JSON-RPC error with id null."""

    def __init__(self, status: int, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.status = status


def http_error(status: int, code: int, message: str, data: Any = None) -> HttpRpcError:
    return HttpRpcError(status, code, message, data)


def error_body(ident: Any, code: int, message: str, data: Optional[Any] = None) -> dict:
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": error}
