"""Marshmallow schemas -> JSON Schema (2020-12) for tool input and output schemas.

The same converter that writes /openapi.json (apispec's), at OpenAPI 3.1 so nullable fields
come out as JSON Schema type lists, with nested schemas inlined (a tool schema is one
self-contained document). Imported only when a client lists or calls tools."""
from __future__ import annotations

import copy
from typing import Any, Dict, Mapping, Optional

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from app.money.currencies import format_minor

# Integer fields holding minor units, wherever they sit in a result; each gets a formatted
# twin "<name>Formatted" ("12.30 EUR") beside it.
MONEY_FIELDS = frozenset({"amount", "net", "myNet", "spent", "paid", "owed", "effect",
                          "runningNet", "total"})
FORMATTED_SUFFIX = "Formatted"
# Integer fields holding minor units of the GROUP currency whatever the row's currency is (a
# converted row's total and shares): their twin is formatted in the group currency.
GROUP_MONEY_FIELDS = frozenset({"groupAmount"})

_plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
APISpec("TailSpend MCP tools", "1", "3.1.0", plugins=[_plugin])


def json_schema(schema, *, extra: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The JSON Schema of a marshmallow schema (class or instance), nested schemas inlined."""
    instance = schema() if isinstance(schema, type) else schema
    document = copy.deepcopy(_plugin.converter.schema2jsonschema(instance))
    _drop_openapi_keywords(document)
    document.update(extra or {})
    return document


# Keywords some hosts refuse at an input schema's root (Anthropic's API rejects the whole tool
# list over one): a tool's arguments are a flat object, the rules its description states.
ROOT_COMBINATORS = ("anyOf", "oneOf", "allOf", "not")


def input_schema(schema, *, property_text: Mapping[str, str]) -> Dict[str, Any]:
    """A tool's inputSchema: a flat object whose every property is described (its field's
    own description, else the shared one for its name in ``property_text``)."""
    document = json_schema(schema)
    for keyword in ROOT_COMBINATORS:
        document.pop(keyword, None)
    _describe(document, property_text)
    return document


def _describe(node: Any, property_text: Mapping[str, str]) -> None:
    if isinstance(node, list):
        for item in node:
            _describe(item, property_text)
        return
    if not isinstance(node, dict):
        return
    for name, prop in (node.get("properties") or {}).items():
        if isinstance(prop, dict) and not prop.get("description") and name in property_text:
            prop["description"] = property_text[name]
    for child in node.values():
        _describe(child, property_text)


def output_schema(schema) -> Dict[str, Any]:
    """The result schema: the REST response schema plus a formatted twin of each money field."""
    document = json_schema(schema)
    _add_formatted(document)
    return document


def with_formatted(value: Any, currency: Optional[str] = None,
                   group_currency: Optional[str] = None) -> Any:
    """The dumped result with ``<money>Formatted`` beside each money field, in the currency
    named by the nearest enclosing ``currency`` field (or the one given); ``groupAmount``'s
    twin in ``group_currency`` (the group's of the call; none without one)."""
    if isinstance(value, list):
        return [with_formatted(item, currency, group_currency) for item in value]
    if not isinstance(value, dict):
        return value
    currency = value.get("currency") if isinstance(value.get("currency"), str) else currency
    result = {}
    for key, item in value.items():
        result[key] = with_formatted(item, currency, group_currency)
        code = (currency if key in MONEY_FIELDS
                else group_currency if key in GROUP_MONEY_FIELDS else None)
        if code and isinstance(item, int) and not isinstance(item, bool):
            result[key + FORMATTED_SUFFIX] = f"{format_minor(item, code)} {code}"
    return result


def _add_formatted(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _add_formatted(item)
        return
    if not isinstance(node, dict):
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name in [n for n in properties if n in MONEY_FIELDS]:
            properties[name + FORMATTED_SUFFIX] = {
                "type": "string", "description": f"{name}, formatted with the currency code"}
        for name in [n for n in properties if n in GROUP_MONEY_FIELDS]:
            properties[name + FORMATTED_SUFFIX] = {
                "type": "string", "description": f"{name}, formatted in the group currency"}
    for child in node.values():
        _add_formatted(child)


def _drop_openapi_keywords(node: Any) -> None:
    """``example`` is OpenAPI's; JSON Schema 2020-12 spells it ``examples`` (a list)."""
    if isinstance(node, list):
        for item in node:
            _drop_openapi_keywords(item)
    elif isinstance(node, dict):
        if "example" in node and not isinstance(node["example"], dict):
            node["examples"] = [node.pop("example")]
        for child in node.values():
            _drop_openapi_keywords(child)
