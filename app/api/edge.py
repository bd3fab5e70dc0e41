"""Input checks that hold for every route, run once before any view or schema sees the request.

Each class of hostile input is refused here, in one place, instead of per schema:
- text that is not valid Unicode (a lone UTF-16 surrogate, from a JSON ``\\ud800`` escape or a
  server that hands us decoded text) cannot be stored as UTF-8: 400, whether it sits in the
  body (a value or a key, at any depth), the query string or a path segment;
- a body that is not JSON: 415 (never "field missing" errors for a body we did not read);
- a body over the cap, chunked or not: 413 (werkzeug's limited stream raises while we read);
- JSON nested past ``MAX_DEPTH``, integer literals past Python's digit limit, NaN/Infinity and
  malformed JSON: 400, before a parser can recurse or raise something that is not a 4xx."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator, Optional, Tuple

from flask import current_app, request
from webargs.core import is_json

from werkzeug.exceptions import LengthRequired, RequestEntityTooLarge

from app.api import needs
from app.errors import Invalid, UnsupportedMediaType

MAX_DEPTH = 32  # our deepest schema (expense -> items -> splits -> split) needs 5
BODYLESS_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORM = "application/x-www-form-urlencoded"
BAD_TEXT = "tailspend.bad_text"  # environ flag set by the WSGI guard below

_SURROGATE = re.compile("[\ud800-\udfff]")
# Unrolled ("normal* (special normal*)*"): the same strings as "(?:[^"\\]|\\.)*" without
# one alternation per character, ~12x faster on the 5 MB bodies POST /imports takes.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_NOT_UNICODE = "Must be valid Unicode text (no lone surrogates)."


def guard_wsgi_text(wsgi_app):
    """WSGI wraps the app: PATH_INFO and QUERY_STRING must be byte strings (latin-1 text).

    aws-wsgi passes API Gateway's decoded path as it is, so a path with any character past
    U+00FF made werkzeug raise before our error handlers existed. Such text is re-encoded the
    way a WSGI server would send it; text that is not even UTF-8-encodable (a lone surrogate) is
    flagged, replaced by something harmless, and refused with a 400 by :func:`check_request`."""

    def middleware(environ, start_response):
        for key in ("PATH_INFO", "QUERY_STRING"):
            value = environ.get(key)
            if not isinstance(value, str):
                continue
            try:
                value.encode("latin-1")
                continue
            except UnicodeEncodeError:
                pass
            try:
                environ[key] = value.encode("utf-8").decode("latin-1")
            except UnicodeEncodeError:
                environ[BAD_TEXT] = "path" if key == "PATH_INFO" else "query"
                environ[key] = "/" if key == "PATH_INFO" else ""
        return wsgi_app(environ, start_response)

    return middleware


def check_request() -> None:
    """before_request (after authentication): refuse bad text, media types and bodies."""
    flagged = request.environ.get(BAD_TEXT)
    if flagged:
        raise Invalid("The request has invalid fields.", details={f"_{flagged}": [_NOT_UNICODE]})
    if request.url_rule is None:
        return  # routing answers 404/405 on its own
    for values in (request.view_args or {}, request.args):
        for name, value in _pairs(values):
            if _SURROGATE.search(name) or _SURROGATE.search(value):
                raise Invalid("The request has invalid fields.",
                              details={_printable(name): [_NOT_UNICODE]})
    if request.method in BODYLESS_METHODS or not _has_body():
        return
    declared = needs.of(current_app.view_functions.get(request.endpoint or ""))
    if declared.max_body_bytes:
        request.max_content_length = declared.max_body_bytes  # Flask 3.1: a per-request cap
    if declared.form_body and request.mimetype == FORM:
        return
    if not is_json(request.mimetype):
        raise UnsupportedMediaType("Send the body as JSON with Content-Type: application/json.",
                                   details={"Content-Type": [request.mimetype or "(none)"]})
    if request.content_length is None and "wsgi.input_terminated" not in request.environ:
        # A chunked body the server does not de-chunk would read as empty: never guess.
        raise LengthRequired("Send a Content-Length, or use a server that de-chunks bodies.")
    data = request.get_data(cache=True)  # a Content-Length past the cap raised 413 already
    cap = request.max_content_length
    if request.content_length is None and cap is not None and len(data) >= cap:
        # werkzeug's reader stops silently at the cap for a streamed body: what it returns is a
        # truncated prefix, so a streamed body that reaches the cap is refused like a long one.
        raise RequestEntityTooLarge()
    parse_json(data)


def parse_json(data: bytes) -> Any:
    """The body's JSON value, or Invalid for anything a 400 should answer."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("The request body is not valid JSON.") from None
    if _depth(text) > MAX_DEPTH:
        raise Invalid(f"The request body is nested more than {MAX_DEPTH} levels deep.")
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError:
        raise Invalid("The request body is not valid JSON.") from None
    except (ValueError, RecursionError):  # e.g. an integer past the 4,300-digit limit
        raise Invalid("The request body holds a number that is out of range.") from None
    bad = next(_surrogate_paths(value), None)
    if bad is not None:
        raise Invalid("The request has invalid fields.", details={bad: [_NOT_UNICODE]})
    return value


def _has_body() -> bool:
    if request.content_length:
        return True
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def _depth(text: str) -> int:
    """Deepest bracket nesting outside string literals, counted without recursing."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def _surrogate_paths(value: Any) -> Iterator[str]:
    """Dotted paths (``items.0.name``) of strings or keys holding a lone surrogate."""
    stack: list = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                yield _printable(path or "_body")
        elif isinstance(node, dict):
            for key, child in node.items():
                child_path = f"{path}.{key}" if path else str(key)
                if _SURROGATE.search(key):
                    yield _printable(child_path)
                stack.append((child_path, child))
        elif isinstance(node, list):
            stack.extend((f"{path}.{i}" if path else str(i), child) for i, child in enumerate(node))


def _pairs(values) -> Iterator[Tuple[str, str]]:
    items = values.items(multi=True) if hasattr(values, "getlist") else values.items()
    for name, value in items:
        yield str(name), value if isinstance(value, str) else ""


def _printable(name: Optional[str]) -> str:
    return _SURROGATE.sub("\ufffd", name or "_")
