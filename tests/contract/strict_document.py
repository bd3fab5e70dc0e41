"""Judge a real reply against the served /openapi.json as strictly as OAS 3.0 allows.

A reply is valid when its status is documented for its operation, a 204/304 has no body, and
a JSON body validates (openapi-schema-validator's OAS 3.0 strict validator, formats checked)
against the documented schema made strict: an object schema with `properties` admits no other
field unless it says so (additionalProperties), and a typeless schema admits no null unless
it declares nullable. Nulls elsewhere already fail: OAS 3.0 allows null only beside `nullable:
true` in a schema with a `type`. Generic: it walks whatever the document has."""
from __future__ import annotations

import copy
import re

from openapi_schema_validator import OAS30StrictValidator, oas30_strict_format_checker

COMBINATORS = ("$ref", "anyOf", "oneOf", "allOf", "not")
NO_BODY = {204, 304}
# Object-valued keywords of a Schema Object (each holds subschemas); x- extensions are
# annotations, never walked.
SUBSCHEMA_MAPS = ("properties",)
SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf")
SUBSCHEMA_ONE = ("items", "not", "additionalProperties")


def strict_schema(schema):
    """A copy of ``schema`` closed to undeclared fields and undeclared nulls."""
    if not isinstance(schema, dict):
        return schema
    out = {key: value for key, value in schema.items()}
    for key in SUBSCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {name: strict_schema(sub) for name, sub in out[key].items()}
    for key in SUBSCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [strict_schema(sub) for sub in out[key]]
    for key in SUBSCHEMA_ONE:
        if isinstance(out.get(key), dict):
            out[key] = strict_schema(out[key])
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if "type" not in out and not any(key in out for key in COMBINATORS) and (
            not out.get("nullable")):
        out["not"] = {"enum": [None]}  # any value, but not an undeclared null
    return out


def strict_document(document: dict) -> dict:
    strict = copy.deepcopy(document)
    schemas = strict.get("components", {}).get("schemas", {})
    for name in list(schemas):
        schemas[name] = strict_schema(schemas[name])
    for item in strict["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for reply in operation.get("responses", {}).values():
                for media in (reply.get("content") or {}).values():
                    if "schema" in media:
                        media["schema"] = strict_schema(media["schema"])
    return strict


def documented_path(app, method: str, path: str) -> str:
    """The document's path template of the Flask rule that serves ``path``."""
    rule, _ = app.url_map.bind("localhost").match(path.split("?")[0], method,
                                                  return_rule=True)
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)  # <uuid:groupId> -> {groupId}


def reply_problems(document: dict, template: str, method: str, status: int,
                   content_type: str, body) -> list[str]:
    """Why this reply breaks the (strict) document; [] when it is valid."""
    label = f"{method} {template} -> {status}"
    operation = document["paths"].get(template, {}).get(method.lower())
    if operation is None:
        return [f"{label}: the operation is not documented"]
    reply = operation["responses"].get(str(status)) or operation["responses"].get(
        f"{str(status)[0]}XX")
    if reply is None:
        return [f"{label}: the status is not documented"]
    content = reply.get("content") or {}
    if status in NO_BODY or not content:
        return [] if body in (None, b"", "") else [f"{label}: a body where none is documented"]
    media = content.get((content_type or "").split(";")[0].strip())
    if media is None:
        return [f"{label}: {content_type} is not a documented media type ({list(content)})"]
    if "schema" not in media or not (content_type or "").startswith("application/json"):
        return []
    schema = {**media["schema"], "components": document.get("components", {})}
    validator = OAS30StrictValidator(schema, format_checker=oas30_strict_format_checker)
    return [f"{label}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}"
            for error in validator.iter_errors(body)]
