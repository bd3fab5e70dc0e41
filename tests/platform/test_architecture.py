"""The layout holds: no import cycles, layers import one way, and areas meet only through
each other's public names or the kernel, in one order.

The area order, bottom up (an area imports only areas on a lower line; AREA_ORDER below,
docs/layout.md "Areas meet only through ..."):

    users, currencies, developer, notifications, realtime, credits, web
    ledger, oauth, health
    groups
    links
    people, recurring, chat
    insight, receipts, changes, imports
    account, mcp

The ledger is below groups: a membership change asks the ledger about money (a member with
a balance cannot leave, a transfer moves expenses) and home shows balances, while the ledger
reads the roster straight from the models. People (invitations, handles, the directory
search, my people) sits on groups and links (an invitation by e-mail carries a share link); insight, receipts, changes and imports read the ledger
and groups; account deletion and the MCP server reach everything. A delete that must reach
upward (an expense's receipt, a group's receipt objects, a removed guest's invitation) goes
through app.core.cascades, which the area above registers into."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "models")


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> ast.Module:
    """One parse per source text: ~600 checks read the same ~400 modules (only walked)."""
    return ast.parse(source)


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
    for node in ast.walk(_parsed(path.read_text())):
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
    for node in ast.walk(_parsed(path.read_text())):
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
    for node in ast.walk(_parsed(source)):
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
VALUE_MODULES = {"app.ledger.expense_input", "app.receipts.draft_input"}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.endswith(".schemas")))
def test_schemas_import_no_services(name):
    assert not {m for m in GRAPH[name] if m in SERVICES and m not in VALUE_MODULES}


@pytest.mark.parametrize("name", sorted(VALUE_MODULES))
def test_value_types_import_no_service_and_no_model(name):
    assert not {m for m in GRAPH[name] if m in SERVICES or m.startswith("models")}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("models")))
def test_models_import_nothing_from_the_app(name):
    assert not {m for m in GRAPH[name] if m.startswith("app")}


# --- Areas meet through public names, in one order ------------------------------------------

AREA_ORDER = (
    ("users", "currencies", "developer", "notifications", "realtime", "credits", "web"),
    ("ledger", "oauth", "health"),
    ("groups",),
    ("links",),
    ("people", "recurring", "chat"),
    ("insight", "receipts", "changes", "imports"),
    ("account", "mcp"),
)
# What wires areas together and so may import any of them: the app factory, the CLI, the
# Lambda handlers, the maintenance run, and local mode's servers for realtime and push.
COMPOSITION_ROOT = {"app.factory", "app.__main__", "app.maintenance", "app.local.realtime_server",
                    "app.local.vapid_key"}


def _kernel(name: str) -> bool:
    """Every other module of app/ outside the areas: core, money, auth, the HTTP kernel api,
    local's engine, and the shared top-level modules (errors, limits, config, bootstrap, ...)."""
    parts = name.split(".")
    if parts[0] != "app" or name in COMPOSITION_ROOT or name.startswith("app.handlers."):
        return False
    return len(parts) == 1 or parts[1] not in AREAS


def _layer(area: str) -> int:
    return next(n for n, layer in enumerate(AREA_ORDER) if area in layer)


def _area_reaches(source: str, own_area: str) -> list:
    """Each import of another area: (line, area, the name of it used), the name being the
    first part under the area (``ledger.balances`` of ``app.ledger.balances.Balances``, the
    imported name for ``from app.ledger import x``) or None for the bare package."""
    found = []
    for node in ast.walk(_parsed(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [(node.module.split("."), [alias.name for alias in node.names])]
        elif isinstance(node, ast.Import):
            targets = [(alias.name.split("."), []) for alias in node.names]
        else:
            continue
        for parts, names in targets:
            if parts[0] != "app":
                continue
            if len(parts) == 1:  # from app import ledger
                found += [(node.lineno, name, None) for name in names
                          if name in AREAS and name != own_area]
            elif parts[1] in AREAS and parts[1] != own_area:
                if len(parts) > 2:
                    found.append((node.lineno, parts[1], parts[2]))
                else:
                    found += [(node.lineno, parts[1], name) for name in names or [None]]
    return found


def _public_names(area: str):
    """The area's ``__all__`` (app/<area>/__init__.py), or None when it has none."""
    tree = _parsed((ROOT / "app" / area / "__init__.py").read_text())
    for node in tree.body:
        target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                  else node.target if isinstance(node, ast.AnnAssign) else None)
        if isinstance(target, ast.Name) and target.id == "__all__":
            return tuple(ast.literal_eval(node.value))
    return None


AREA_MODULES = {n: p for n, p in MODULES.items() if _area(n)}


def test_every_area_lists_its_public_names():
    """Each area's __init__ says what other areas may import (``__all__``, empty when nothing),
    and each name is one of its modules, so the list cannot name what is not there."""
    missing = [area for area in AREAS if _public_names(area) is None]
    assert missing == []
    unknown = {area: [name for name in _public_names(area)
                      if f"app.{area}.{name}" not in MODULES] for area in AREAS}
    assert {area: names for area, names in unknown.items() if names} == {}


def test_every_area_has_its_place_in_the_order():
    placed = [area for layer in AREA_ORDER for area in layer]
    assert sorted(placed) == AREAS  # each area once, none left out


def _private_reaches(modules: dict) -> dict:
    """{module: ["line 3: app.ledger.guards", ...]} for each import of another area's name
    that its __init__ does not list."""
    offenders = {}
    for name, path in modules.items():
        area = _area(name)
        bad = [f"line {line}: app.{target}" + (f".{used}" if used else " (the package itself)")
               for line, target, used in _area_reaches(path.read_text(), area)
               if used not in _public_names(target)]
        if bad:
            offenders[name] = bad
    return offenders


def test_areas_import_only_each_other_s_public_names():
    assert _private_reaches(AREA_MODULES) == {}


def test_the_public_name_check_finds_a_reach_into_a_private_module(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("from app.ledger.display import x\nfrom app.groups import membership\n"
                       "import app.ledger\n\ndef f():\n    from app.receipts import objects\n")
    assert "display" not in _public_names("ledger") and "objects" not in _public_names("receipts")
    assert _private_reaches({"app.insight.planted": planted}) == {"app.insight.planted": [
        "line 1: app.ledger.display", "line 3: app.ledger (the package itself)",
        "line 6: app.receipts.objects"]}


def _area_edges(modules: dict) -> set:
    """(importer area, imported area) for every import between two areas, function-level
    imports included."""
    return {(_area(name), target) for name, path in modules.items()
            for _, target, _ in _area_reaches(path.read_text(), _area(name))}


def _upward(edges: set) -> list:
    """The edges that do not go down the order: an area importing one on its own line or
    above (the way a cycle between areas starts)."""
    return sorted(f"{a} -> {b}" for a, b in edges if _layer(b) >= _layer(a))


def test_areas_import_only_areas_below_them():
    """So no two areas import each other, directly or round a longer circle."""
    assert _upward(_area_edges(AREA_MODULES)) == []


def test_the_order_check_finds_a_planted_edge_up_and_one_sideways():
    edges = _area_edges(AREA_MODULES) | {("groups", "people"), ("insight", "receipts")}
    assert _upward(edges) == ["groups -> people", "insight -> receipts"]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _kernel(n)))
def test_the_kernel_imports_no_area(name):
    """Core, money, auth, api, local's engine and the shared top-level modules serve every
    area and know none; only the composition root (COMPOSITION_ROOT, app.handlers) wires
    areas together."""
    assert not {m for m in GRAPH[name] if _area(m)}
    assert not _area_reaches(MODULES[name].read_text(), None)


def test_the_kernel_is_what_is_left_of_app():
    kernel = {n for n in MODULES if _kernel(n)}
    assert {"app.core.cascades", "app.api.needs", "app.money.settle", "app.auth.tokens",
            "app.local.engine", "app.errors", "app.bootstrap", "app"} <= kernel
    assert not kernel & (COMPOSITION_ROOT | {"app.handlers.api", "app.ledger.balances"})
    assert COMPOSITION_ROOT <= set(MODULES)


# What each entry point that can delete must have registered in app.core.cascades (at least),
# each loaded in a fresh interpreter (imports accumulate in this one). The API deletes expenses,
# groups and guests; the maintenance run and the account-deletion worker sweep groups.
CASCADES = {
    "from app import create_app; create_app(SETTINGS)": {
        "expense_deleting": ["app.receipts.cleanup.with_expense"],
        "expense_deleted": ["app.receipts.cleanup.after_expense"],
        "group_sweeping": ["app.receipts.cleanup.before_group_sweep"],
        "guest_removed": ["app.people.invitation_rows.drop_for_removed_guest"]},
    "import app.handlers.maintenance": {
        "group_sweeping": ["app.receipts.cleanup.before_group_sweep"]},
    "import app.handlers.account_deletion": {
        "group_sweeping": ["app.receipts.cleanup.before_group_sweep"]},
}


@pytest.mark.parametrize("entry", sorted(CASCADES))
def test_each_entry_point_that_deletes_has_the_cascades_of_the_areas_above(entry, tmp_path):
    """The ledger and groups delete without importing receipts or people: a receipt (row and
    objects) or a guest's invitation goes only if that area registered its cascade."""
    import json
    import os
    import subprocess
    import sys

    program = (
        "import json, sys\n"
        "from app.config import Settings\n"
        f"SETTINGS = Settings(stage='test', region='us-east-1', local_mode=True, "
        f"data_dir={str(tmp_path)!r}, cursor_secret=b'x')\n"
        f"{entry}\n"
        "from app.core import cascades\n"
        "print(json.dumps({h.name: h.registered() for h in cascades.HOOKS if h.registered()}))\n")
    env = {**os.environ, "TAILSPEND_STAGE": "test", "AWS_DEFAULT_REGION": "us-east-1",
           "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING"}
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    registered = json.loads(done.stdout.strip().splitlines()[-1])
    missing = {hook: [call for call in calls if call not in registered.get(hook, [])]
               for hook, calls in CASCADES[entry].items()}
    assert {hook: calls for hook, calls in missing.items() if calls} == {}


def test_the_layout_doc_states_the_area_order():
    text = (ROOT / "docs" / "layout.md").read_text()
    block = text.split("## Areas meet only through", 1)[1].split("```", 2)[1]
    lines = [tuple(a.strip() for a in line.split(",")) for line in block.strip().splitlines()]
    assert lines == list(AREA_ORDER)


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
PRIVATE_ADAPTERS = ("models.pynamodb_adapter", "app.api.smorest_adapter",
                    "app.api.werkzeug_adapter")


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
    return [node.name for node in ast.walk(_parsed(source))
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
    for node in ast.walk(_parsed(source)):
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
    tree = _parsed(source)
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
    for node in ast.walk(_parsed(source)):
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
