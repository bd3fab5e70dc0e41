"""The document's links (app.api.openapi_links) are complete and every one of them resolves:
its target exists and takes what the link gives, and each expression reads a field the reply
has (or a parameter of the request)."""
from __future__ import annotations

import re

import pytest

from app.api.openapi_links import LINKS, UNLINKED

METHODS = ("get", "put", "post", "patch", "delete")
RESPONSE_BODY = re.compile(r"^\$response\.body#(/.*)$")
REQUEST_PARAMETER = re.compile(r"^\$request\.(path|query|header)\.([A-Za-z_][\w-]*)$")


@pytest.fixture(scope="module")
def document(_session_app):
    return _session_app.test_client().get("/openapi.json").get_json()


def _operations(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method], item.get("parameters", []) + item[method].get(
                    "parameters", [])


def _resolve(document, schema):
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _field(document, schema, pointer):
    """The schema at a JSON pointer into a body of ``schema``, or None when it names no field."""
    for token in pointer.lstrip("/").split("/"):
        schema = _resolve(document, schema)
        token = token.replace("~1", "/").replace("~0", "~")
        if token.isdigit() and "items" in schema:
            schema = schema["items"]
        elif token in schema.get("properties", {}):
            schema = schema["properties"][token]
        else:
            return None
    return _resolve(document, schema)


def _created(operation):
    content = operation["responses"].get("201", {}).get("content", {})
    return content.get("application/json", {}).get("schema")


def test_every_operation_has_a_unique_operation_id(document):
    ids = [operation.get("operationId") for _, _, operation, _ in _operations(document)]
    assert None not in ids
    assert len(ids) == len(set(ids))


def test_every_create_that_answers_an_id_links_to_where_it_goes(document):
    missing = []
    for path, method, operation, _ in _operations(document):
        schema = _created(operation)
        if method != "post" or schema is None:
            continue
        fields = _resolve(document, schema).get("properties", {})
        answers_id = any(name.endswith(("Id", "_id")) for name in fields)
        if answers_id and operation["operationId"] not in UNLINKED and not operation[
                "responses"]["201"].get("links"):
            missing.append(f"POST {path} ({operation['operationId']})")
    assert not missing, "add them to app.api.openapi_links.LINKS: " + ", ".join(missing)


def test_every_link_names_a_real_target_parameter_and_field(document):
    by_id = {operation["operationId"]: (path, method, operation, parameters)
             for path, method, operation, parameters in _operations(document)}
    assert set(LINKS) <= set(by_id), set(LINKS) - set(by_id)
    problems = []
    for source, targets in LINKS.items():
        path, _, operation, source_parameters = by_id[source]
        links = operation["responses"]["201"]["links"]
        assert {link["operationId"] for link in links.values()} == set(targets)
        reply = _created(operation)
        for link in links.values():
            target = link["operationId"]
            if target not in by_id:
                problems.append(f"{source} -> {target}: no such operation")
                continue
            _, _, _, target_parameters = by_id[target]
            taken = {parameter["name"] for parameter in target_parameters}
            required = {parameter["name"] for parameter in target_parameters
                        if parameter.get("in") == "path"}
            given = set(link["parameters"])
            if given - taken or required - given:
                problems.append(f"{source} -> {target}: gives {sorted(given)}, "
                                f"takes {sorted(taken)}, needs {sorted(required)}")
            request_body = (by_id[target][2].get("requestBody", {}).get("content", {})
                            .get("application/json", {}).get("schema"))
            for field in link.get("requestBody", {}):
                if request_body is None or _field(document, request_body, "/" + field) is None:
                    problems.append(f"{source} -> {target}: its body has no field {field}")
            for parameter, expression in [*link["parameters"].items(),
                                          *link.get("requestBody", {}).items()]:
                body = RESPONSE_BODY.match(expression)
                request = REQUEST_PARAMETER.match(expression)
                if body and _field(document, reply, body.group(1)) is not None:
                    continue
                if request and any(p["in"] == request.group(1) and p["name"] == request.group(2)
                                   for p in source_parameters):
                    continue
                problems.append(f"{source} -> {target}: {parameter} = {expression} names nothing")
    assert not problems, problems


def test_the_field_check_refuses_a_field_the_reply_does_not_have(document):
    reply = _created(document["paths"]["/groups"]["post"])
    assert _field(document, reply, "/groupId") is not None
    assert _field(document, reply, "/groupID") is None
