"""docs/api.md and the served /openapi.json name the same built routes, in both directions.

docs/api.md is the team's contract text: every route row says whether it is built. A route
built without updating the page, or marked built but not served, fails here."""
from __future__ import annotations

import inspect
import re
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"
METHOD = r"(?:GET|POST|PUT|PATCH|DELETE)"
ROW = re.compile(rf"^\| ({METHOD}(?:, {METHOD})*) (/\S*) \| (yes|not yet) \|")
SERVED_OUTSIDE_DOCUMENT = {("GET", "/openapi.json"), ("GET", "/docs")}  # the document itself
# The web app's pages (app/web): for browsers, not API clients, so outside the document too;
# tests/web/test_serving.py checks what they answer.
PAGES_OUTSIDE_DOCUMENT = {("GET", "/"), ("GET", "/app/{path}")}


def contract_routes() -> dict[tuple[str, str], bool]:
    """(METHOD, path) -> built, from every route row of docs/api.md."""
    routes = {}
    for line in API_MD.read_text().splitlines():
        match = ROW.match(line)
        if match:
            for method in match.group(1).split(", "):
                key = (method, match.group(2))
                assert key not in routes, f"{key} is listed twice in docs/api.md"
                routes[key] = match.group(3) == "yes"
    return routes


def served_operations(client) -> set[tuple[str, str]]:
    document = client.get("/openapi.json").get_json()
    return {(method.upper(), path) for path, item in document["paths"].items()
            for method in item if method in {"get", "put", "post", "patch", "delete"}}


def test_every_route_row_is_parsed():
    """A row the pattern misses would silently drop out of the comparison."""
    rows = [line for line in API_MD.read_text().splitlines()
            if re.match(rf"^\| {METHOD}\b", line)]
    assert rows and all(ROW.match(line) for line in rows), [r for r in rows if not ROW.match(r)]


def test_built_routes_in_docs_are_exactly_the_served_operations(client):
    routes = contract_routes()
    built = {key for key, is_built in routes.items() if is_built}
    served = served_operations(client)
    assert built - SERVED_OUTSIDE_DOCUMENT - PAGES_OUTSIDE_DOCUMENT == served, {
        "marked built in docs/api.md but not in /openapi.json": sorted(
            built - served - SERVED_OUTSIDE_DOCUMENT - PAGES_OUTSIDE_DOCUMENT),
        "served but not marked built in docs/api.md": sorted(served - built)}
    for method, path in SERVED_OUTSIDE_DOCUMENT:
        assert client.open(path, method=method).status_code == 200


def test_every_contract_route_is_built_and_routes_marked_not_yet_answer_404(client, sign_in):
    """Every route of the contract is built now; a route marked `not yet` again later must
    really be absent from the server, not only from the document."""
    headers, _ = sign_in("reader@example.com")
    ids = {"groupId", "participantId", "recurringId", "userId", "deviceId", "tokenId",
           "grantId"}
    pending = [key for key, is_built in contract_routes().items() if not is_built]
    assert contract_routes() and pending == [], f"not built yet: {pending}"
    for method, path in pending:
        concrete = re.sub(r"\{(\w+)\}", lambda m: "1b4e28ba-2fa1-4d2b-a0c5-4f3c0d2e1a90"
                          if m.group(1) in ids else m.group(1), path)
        status = client.open(concrete, method=method, headers=headers, json={}).status_code
        assert status in (404, 405), f"{method} {path} answers {status} but is marked not yet"


def test_every_route_documents_the_errors_it_can_answer(client, app):
    """401 wherever a token is needed, 403 wherever the view demands a role."""
    document = client.get("/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in {"get", "put", "post", "patch", "delete"}:
                continue
            where = f"{method.upper()} {path}"
            assert operation.get("summary"), f"{where} has no summary"
            responses = operation["responses"]
            if operation.get("security") != []:
                assert "401" in responses, f"{where} does not document 401"
            if "requestBody" in operation:
                assert {"400", "413"} <= set(responses), f"{where}: body errors undocumented"
    for rule in app.url_map.iter_rules():
        view = inspect.unwrap(app.view_functions[rule.endpoint])
        try:
            source = inspect.getsource(view)
        except (OSError, TypeError):
            continue
        if re.search(r"group_access\(.*\"(MEMBER|OWNER)\"", source):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                responses = document["paths"][path][method.lower()]["responses"]
                assert "403" in responses, f"{method} {path} demands a role but omits 403"


def test_expense_create_documents_rounding_and_required_fields(client):
    document = client.get("/openapi.json").get_json()
    operation = document["paths"]["/groups/{groupId}/expenses"]["post"]
    assert "fractional" in operation["description"]
    assert "within one minor unit" in operation["description"]
    schemas = document["components"]["schemas"]
    assert set(schemas["ExpenseCreate"]["required"]) == {"description", "payments"}
    rule = schemas["ExpenseCreate"]["x-body-rule"]  # the schema itself stays a plain object
    assert [sorted(branch["required"]) for branch in rule["anyOf"]] == [
        ["items"], ["amount", "splitMode", "splits"], ["amount"]]
    # The amount alone (no splitMode, no splits): the group's defaultSplit shares it.
    assert rule["anyOf"][2]["not"] == {"anyOf": [{"required": ["splitMode"]},
                                                 {"required": ["splits"]}]}
    assert set(schemas["SettlementCreate"]["required"]) == {"payerId", "payeeId", "amount"}
    assert "fractional" in schemas["ExpenseCreate"]["description"]
    # Every body schema stays closed: unknown fields are 400s (apispec drops this for a schema
    # whose Meta has a description, so descriptions go in OPENAPI_EXTRA instead).
    for name in ("ExpenseCreate", "ExpensePatch", "SettlementCreate", "JoinRequestCreate",
                 "ProfilePatch"):
        assert schemas[name]["additionalProperties"] is False, name


def test_docs_with_a_trailing_slash_lands_on_docs(client):
    """/docs/ was a 404; it redirects (relative, so a stage prefix is kept) to the page."""
    reply = client.get("/docs/")
    assert (reply.status_code, reply.headers["Location"]) == (308, "../docs")
    # Resolved as RFC 3986 says (werkzeug's test client keeps the "..": /../docs).
    landing = urljoin("http://localhost/docs/", reply.headers["Location"])
    assert landing == "http://localhost/docs" and client.get("/docs").status_code == 200
