"""The layout holds: no import cycles, layers import one way, areas meet only through core."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "models")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


MODULES = _modules()


def _imports(path: Path) -> set:
    """Every project module this file imports, at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in MODULES)
    return found


GRAPH = {name: _imports(path) for name, path in MODULES.items()}


def _cycle() -> list:
    """One import cycle among project modules (package __init__ re-exports included), or []."""
    state: dict = {}
    stack: list = []

    def visit(node: str) -> list:
        state[node] = "open"
        stack.append(node)
        for dep in sorted(GRAPH[node]):
            if dep == node or node.startswith(dep + "."):
                continue  # a module importing its own package is not a cycle of ours
            if state.get(dep) == "open":
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return []

    for name in sorted(GRAPH):
        if name not in state:
            cycle = visit(name)
            if cycle:
                return cycle
    return []


def test_project_modules_import_without_cycles():
    assert _cycle() == []


def test_the_cycle_detector_finds_a_planted_cycle(monkeypatch):
    monkeypatch.setitem(GRAPH, "app.core.clock",
                        GRAPH["app.core.clock"] | {"app.core.paging"})
    monkeypatch.setitem(GRAPH, "app.core.paging",
                        GRAPH["app.core.paging"] | {"app.core.clock"})
    assert _cycle()


def _third_party(path: Path) -> set:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


# The shared kernel; every other folder under app/ is an area (style.md).
KERNEL = ("api", "core", "money", "auth", "local", "handlers")
AREAS = sorted(p.name for p in (ROOT / "app").iterdir()
               if p.is_dir() and (p / "__init__.py").exists() and p.name not in KERNEL)
# An area's HTTP face: its views and schemas, and the few modules that are pages or protocol
# servers rather than use cases (the OAuth consent pages, the developer gate's Flask hooks,
# the MCP server).
EDGE_PACKAGES = ("app.oauth.ui", "app.mcp")
EDGE_MODULES = {"app.oauth.cognito", "app.developer.gate"}


def _area(name: str):
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "app" and parts[1] in AREAS else None


def _is_edge(name: str) -> bool:
    return (name.rsplit(".", 1)[-1] in ("views", "schemas") or name in EDGE_MODULES
            or any(name == p or name.startswith(p + ".") for p in EDGE_PACKAGES))


# The use cases: every area module but its HTTP face, and the core.
SERVICES = {n: p for n, p in MODULES.items()
            if (_area(n) and not _is_edge(n)) or n.startswith("app.core.")}


def test_the_layout_is_one_folder_per_area():
    assert {"ledger", "groups", "people", "users", "account", "recurring", "notifications",
            "currencies", "changes", "insight", "imports", "receipts", "chat", "realtime",
            "developer", "oauth", "mcp"} <= set(AREAS)
    assert len(SERVICES) > 150  # the checks below walk them all


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_services_never_import_flask_or_the_http_layer(name):
    assert not _third_party(SERVICES[name]) & {"flask", "flask_smorest", "marshmallow", "werkzeug"}
    assert not {m for m in GRAPH[name] if m.startswith(("app.api", "app.handlers", "app.factory"))
                or _is_edge(m)}


def _environment_reads(source: str) -> list:
    """Each place the code reads the process environment: ``os.environ``, ``os.getenv``,
    ``environ`` imported from os."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb"):
            found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and {
                a.name for a in node.names} & {"environ", "getenv", "environb"}:
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_services_take_every_setting_from_settings(name):
    """Settings are read once (app.config.Settings, installed by bootstrap); a service that
    read os.environ would see what a test or the CLI set after start-up, and tests/deploy's
    check that each function is given exactly the settings its code reads would miss it."""
    assert not _environment_reads(SERVICES[name].read_text()), SERVICES[name]


def test_the_environment_check_finds_each_way_to_read_it():
    for planted in ("import os\nx = os.environ.get('A')", "import os\nx = os.getenv('A')",
                    "from os import environ", "from os import getenv as g"):
        assert _environment_reads(planted), planted
    assert not _environment_reads("settings = config.current()\nx = settings.environment")


# An area's value types: what its schemas load a request into and its use cases take (the
# ledger's one ExpenseInput). A schema may import them, so each must stay a leaf.
VALUE_MODULES = {"app.ledger.expense_input"}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.endswith(".schemas")))
def test_schemas_import_no_services(name):
    assert not {m for m in GRAPH[name] if m in SERVICES and m not in VALUE_MODULES}


@pytest.mark.parametrize("name", sorted(VALUE_MODULES))
def test_value_types_import_no_service_and_no_model(name):
    assert not {m for m in GRAPH[name] if m in SERVICES or m.startswith("models")}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("models")))
def test_models_import_nothing_from_the_app(name):
    assert not {m for m in GRAPH[name] if m.startswith("app")}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("app.core")))
def test_core_uses_no_area(name):
    assert not {m for m in GRAPH[name] if _area(m)}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("app.handlers")))
def test_handlers_touch_no_models(name):
    assert not {m for m in GRAPH[name] if m.startswith("models")}


def test_services_never_reach_into_pynamodb_private_connections():
    offenders = [n for n, p in SERVICES.items() if "_get_connection(" in p.read_text()]
    assert offenders == []


# Private parts of Flask, werkzeug, flask-smorest, marshmallow and PynamoDB this code once used.
FRAMEWORK_PRIVATES = ("_compile_builder", "error_handler_spec", "deferred_functions",
                      "_blueprints", "before_request_funcs", "after_request_funcs",
                      "view_functions[", "_init_spec", "_register_error_handlers",
                      "blp_name_to_api", "__deepcopy__", "_get_connection", "_hash_keyname",
                      "_range_keyname", "_connection = None", "_get_schema", "_meta_table",
                      "_validated(")
# The one module allowed each reach (its doc says why; its own test pins the shape), and local
# mode's moto adapter.
PRIVATE_ADAPTERS = ("models.pynamodb_adapter",)


def test_only_the_adapters_reach_into_framework_internals():
    offenders = {name: [word for word in FRAMEWORK_PRIVATES if word in path.read_text()]
                 for name, path in MODULES.items()
                 if name not in PRIVATE_ADAPTERS and not name.startswith("app.local")}
    assert {name: words for name, words in offenders.items() if words} == {}


def test_tests_and_benches_patch_no_library_internals():
    """They reach botocore, moto and PynamoDB as the code does, through public hooks
    (tests/support/aws_calls.py registers botocore events), never patching a library."""
    from tests.platform.library_patches import offenders

    assert offenders(ROOT) == {}


def test_the_library_patch_check_finds_each_way_to_patch():
    from tests.platform.library_patches import patches

    planted = ("from botocore.client import BaseClient\nimport pynamodb.connection.base as b\n"
               "from moto.core import botocore_stubber as s\nfrom app import config\n"
               "BaseClient._make_api_call = f\nb.get_session = f\n"
               "monkeypatch.setattr(s, 'enabled', 1)\nmock.patch('botocore.x.y', f)\n"
               "config.x = 1\nmonkeypatch.setattr(config, 'x', 1)\n")
    assert [hit.split(":")[0] for hit in patches(planted)] == [
        "line 5", "line 6", "line 7", "line 8"]


def test_condition_failures_are_read_in_one_place():
    """Services name the error a failed condition means; core decides what failed."""
    allowed = {"app.core.conditional", "app.core.transactions"}
    offenders = [n for n, p in SERVICES.items()
                 if n not in allowed and "ConditionalCheckFailed" in p.read_text()]
    assert offenders == []


WRITE_ERRORS = re.compile(r"except\b[^:]*\b(PutError|UpdateError|DeleteError)\b")


def test_single_item_write_failures_are_caught_only_in_core():
    """A bare ``except DeleteError`` swallows throttling as if the condition failed;
    services use core.conditional's put_if/update_if/delete_if instead."""
    allowed = {"app.core.conditional", "app.core.transactions"}
    offenders = [n for n, p in SERVICES.items()
                 if n not in allowed and WRITE_ERRORS.search(p.read_text())]
    assert offenders == []
    assert WRITE_ERRORS.search("    except DeleteError:  # already gone\n")


def _view_builders(source: str) -> list:
    """Functions named ``*_view``: the hand-built camelCase reply dicts the schemas replaced."""
    return [node.name for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_view")]


def test_services_leave_reply_shapes_to_the_response_schemas():
    """Services return rows or small dataclasses; each area's schemas.py maps them to the wire."""
    offenders = {n: _view_builders(p.read_text()) for n, p in SERVICES.items()}
    assert {n: names for n, names in offenders.items() if names} == {}


def test_the_view_builder_check_finds_a_planted_view():
    planted = "def expense_view(row):\n    return {'expenseId': row.ExpenseId}\n"
    assert _view_builders(planted) == ["expense_view"]


# --- One definition of each thing -----------------------------------------------------------

def _event_type_lists(source: str) -> list:
    """Line numbers of collection literals (tuple, list, set, dict keys) naming 3+ event types."""
    from models.notifications import EVENT_TYPES

    found = []
    for node in ast.walk(ast.parse(source)):
        items = (node.keys if isinstance(node, ast.Dict) else
                 node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else ())
        names = {item.value for item in items
                 if isinstance(item, ast.Constant) and item.value in EVENT_TYPES}
        if len(names) >= 3:
            found.append(node.lineno)
    return found


def test_event_types_are_listed_only_by_the_event_model():
    """The outbox, the renderer and the API schemas all read models.notifications.EVENT_TYPES."""
    offenders = {n: _event_type_lists(p.read_text()) for n, p in MODULES.items()
                 if n != "models.notifications"}
    assert {n: lines for n, lines in offenders.items() if lines} == {}


def test_the_event_type_check_finds_a_planted_list():
    planted = 'KINDS = ["EXPENSE_ADDED", "MENTION", "FRIEND_REQUEST"]\n'
    assert _event_type_lists(planted) == [1]


def test_the_api_documents_exactly_the_outbox_event_types(client):
    from app.core import outbox

    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    assert schemas["Notification"]["properties"]["type"]["enum"] == list(outbox.EVENT_TYPES)
    assert sorted(schemas["NotificationTypes"]["properties"]) == sorted(outbox.EVENT_TYPES)


# Key prefixes and fixed sort keys are the models'. A literal of this shape ("USER#", "PAT#")
# or one of the fixed sort keys below, anywhere in app/, is a key spelled outside its model.
KEY_PREFIX_SHAPE = re.compile(r"^[A-Z][A-Z0-9_]*#")
FIXED_SORT_KEYS = {"PROFILE", "PREFS", "META", "TOKEN", "TOKENS", "BALANCE#v1", "CLAIM",
                   "INVITE", "CODE", "REFRESH", "REQUEST", "CLIENT", "SWEEP"}
# Each allowed literal, with why it is not (or cannot be) the model's.
KEY_LITERAL_ALLOWED = {
    # The app credential id is built on every sign-in before models.developer_tokens is
    # loaded (that module stays off the API's cold import); test_app_credential_is_the_model_s
    # ties the two spellings together.
    ("app.auth.principal", "APP#"),
}


def _docstrings(tree: ast.AST) -> set:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _key_literals(source: str) -> list:
    """String literals (f-string parts included, docstrings not) shaped like a table key."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return sorted({node.value for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and id(node) not in docs
                   and (KEY_PREFIX_SHAPE.match(node.value) or node.value in FIXED_SORT_KEYS)})


def test_key_prefixes_are_spelled_only_in_the_models():
    offenders = {n: [word for word in _key_literals(p.read_text())
                     if (n, word) not in KEY_LITERAL_ALLOWED]
                 for n, p in MODULES.items() if n.startswith("app")}
    assert {n: words for n, words in offenders.items() if words} == {}


def test_the_key_literal_check_finds_planted_keys():
    planted = ('"""USER# in a docstring is prose."""\n'
               'def f(user_id):\n    return f"USER#{user_id}", "PROFILE", "pending"\n')
    assert _key_literals(planted) == ["PROFILE", "USER#"]


def test_every_allowed_key_literal_is_still_there():
    """An allow-list entry whose literal is gone must go too (no silent exemptions)."""
    for name, word in KEY_LITERAL_ALLOWED:
        assert word in _key_literals(MODULES[name].read_text()), (name, word)


def test_app_credential_is_the_model_s():
    from app.auth.principal import app_credential
    from models.developer_tokens import IdempotencyRecord

    assert app_credential("u-1") == IdempotencyRecord.app_credential("u-1")


def _reaches_authorize(source: str) -> bool:
    """Whether the module can call ``app.core.access.authorize`` itself: it imports
    the function, or the access module whose attribute it is."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = {alias.name for alias in node.names}
            if (node.module == "app.core.access" and "authorize" in names
                    or node.module == "app.core" and "access" in names):
                return True
        if isinstance(node, ast.Import) and any(
                alias.name == "app.core.access" for alias in node.names):
            return True
    return False


# Every view, the MCP tools under app/mcp included, reaches a group through
# ``group_access`` (a view's ``@needs(role=...)`` calls it); none may call ``authorize`` by
# hand as the views once did.
def test_views_authorize_in_a_group_only_through_group_access():
    """One way: ``group_access`` (cached per request, shared with the idempotency guard),
    never a view's own ``authorize(...)`` that could read the guard row twice."""
    edge = [n for n in MODULES if n.startswith("app.api.") or _is_edge(n)]
    assert "app.ledger.views" in edge and "app.mcp.tools_read" in edge
    offenders = [n for n in edge if n != "app.api.context"
                 and _reaches_authorize(MODULES[n].read_text())]
    assert offenders == []


def test_the_authorize_check_finds_each_way_to_reach_it():
    assert _reaches_authorize("from app.core.access import Access, authorize\n")
    assert _reaches_authorize("from app.core import access\n")
    assert _reaches_authorize("import app.core.access\n")
    assert not _reaches_authorize("from app.api.context import group_access\n")
