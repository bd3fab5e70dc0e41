"""What a Lambda handler's code can read, found by a static walk of the modules it loads.

For one handler module: the app/models modules it can reach, the environment variables those
read, the AWS API operations they call through boto3 clients (as IAM actions), and the tables
whose models they use. The walk follows what Python would run: every import of a module the
code names (at top level or inside a function: a lazy import runs when its function does), and
modules named by a string (``importlib.import_module``); a package loaded only as the parent of
a submodule contributes its top-level imports alone (``app/__init__`` keeps Flask lazy that way).

Coarse on purpose: a module counts as a whole, so a function is credited with everything its
modules can do. tests/deploy/test_function_needs.py lists, with a reason, the few reachable
things a function never does in AWS."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, Set

REPO = Path(__file__).resolve().parents[2]
_ROOTS = ("app", "models")
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")
# A parameter or variable holding the environment mapping (a bare `environ` is WSGI's dict;
# nothing here does `from os import environ`).
_ENV_OBJECTS = {"env"}
# IAM actions whose name differs from the API operation that needs them.
_IAM_ACTION = {"sqs:SendMessageBatch": "sqs:SendMessage", "sqs:DeleteMessageBatch": "sqs:DeleteMessage",
               # Bedrock's Converse API is authorised by the InvokeModel action.
               "bedrock:Converse": "bedrock:InvokeModel",
               # S3: a HEAD is authorised by GetObject, a multi-delete by DeleteObject, a
               # listing by ListBucket (on the bucket).
               "s3:HeadObject": "s3:GetObject", "s3:DeleteObjects": "s3:DeleteObject",
               "s3:ListObjectsV2": "s3:ListBucket"}


def module_path(name: str) -> Path | None:
    base = REPO / name.replace(".", "/")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _ours(name: str) -> bool:
    # app.local is never packaged (the build removes it): local mode only.
    return (name.split(".")[0] in _ROOTS and not (name + ".").startswith("app.local.")
            and module_path(name) is not None)


@functools.lru_cache(maxsize=None)
def _tree(name: str) -> ast.Module:
    return ast.parse(module_path(name).read_text(encoding="utf-8"))


def _top_level(tree: ast.Module) -> Iterable[ast.AST]:
    """Nodes run at import: the module body outside function and class bodies' functions."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


@functools.lru_cache(maxsize=None)  # each module's facts once: ~50 tests ask about them
def _imports(name: str, top_only: bool) -> FrozenSet[str]:
    tree = _tree(name)
    package = name if module_path(name).name == "__init__.py" else name.rpartition(".")[0]
    named: Set[str] = set()
    for node in (_top_level(tree) if top_only else ast.walk(tree)):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                named.add(sub if _ours(sub) else base)
        elif (not top_only and isinstance(node, ast.Constant) and isinstance(node.value, str)
              and "." in node.value and _ours(node.value)):
            # imported by name; a bare "app" is a word (Principal.kind), not importlib's
            named.add(node.value)
    return frozenset(n for n in named if _ours(n))


@functools.lru_cache(maxsize=None)
def reachable(root: str) -> FrozenSet[str]:
    """Every app/models module loading ``root`` can run, ``root`` included."""
    full: Set[str] = set()
    parents: Set[str] = set()
    todo = [(root, False)]
    while todo:
        name, parent_only = todo.pop()
        if name in full or (parent_only and name in parents):
            continue
        (parents if parent_only else full).add(name)
        parts = name.split(".")
        todo += [(".".join(parts[:i]), True) for i in range(1, len(parts))]
        todo += [(n, False) for n in _imports(name, top_only=parent_only)]
    return frozenset(full | parents)


# ---------------------------------------------------------------- environment


def _module_strings(tree: ast.Module) -> Dict[str, str]:
    return {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for target in node.targets if isinstance(target, ast.Name)}


def _is_environment(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in _ENV_OBJECTS
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _env_keys(tree: ast.Module, skip_functions: Set[str] = frozenset()) -> Set[str]:
    """Names read as ``env.get(K)``, ``env[K]``, ``os.environ...``, ``os.getenv(K)``, with K a
    literal or a module constant; in a function taking ``env``, also the env-shaped values of
    its dict literals (a table of optional settings)."""
    constants = _module_strings(tree)
    found: Set[str] = set()

    def key(node: ast.AST) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.Name) and node.id in constants:
            found.add(constants[node.id])

    skipped = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
               and f.name in skip_functions for n in ast.walk(f)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Subscript) and _is_environment(node.value):
            key(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if (node.func.attr in ("get", "setdefault", "pop") and _is_environment(node.func.value)) \
                    or node.func.attr == "getenv":
                key(node.args[0])
        elif isinstance(node, ast.FunctionDef) and "env" in {a.arg for a in node.args.args + node.args.kwonlyargs}:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Dict):
                    found.update(v.value for v in inner.values if isinstance(v, ast.Constant)
                                 and isinstance(v.value, str) and _ENV_NAME.match(v.value))
    return {k for k in found if _ENV_NAME.match(k)}


@functools.lru_cache(maxsize=None)
def settings_fields() -> Dict[str, Set[str]]:
    """Settings field or property -> the environment variables it comes from (app/config.py:
    each field's own declaration names them)."""
    from app.config import DECLARED

    tree = _tree("app.config")
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings"]
    fields: Dict[str, Set[str]] = {field: set(source.names) for field, (source, _) in DECLARED.items()}
    properties = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)
                  and any(isinstance(d, ast.Name) and d.id == "property" for d in n.decorator_list)}
    changed = True
    while changed:  # a property reads the fields (and properties) it names on self
        changed = False
        for name, prop in properties.items():
            reads = set().union(*[fields.get(a.attr, set()) for a in ast.walk(prop)
                                  if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name)
                                  and a.value.id == "self"])
            if not reads <= fields.get(name, set()):
                fields[name] = fields.get(name, set()) | reads
                changed = True
    return fields


def env_reads(root: str) -> Set[str]:
    """Environment variables the code loaded by ``root`` reads. Settings.from_env reads every
    setting for every process; a setting counts only where some module uses its field."""
    modules = reachable(root)
    found: Set[str] = set()
    for name in modules:
        found |= _module_env_keys(name)
    if "app.config" in modules:
        fields = settings_fields()
        used = set().union(*[_attributes(name) for name in modules if name != "app.config"])
        # Settings.from_env(env) itself reads the region: the runtime sets AWS_REGION.
        for field in used & set(fields):
            found |= fields[field]
    return found


@functools.lru_cache(maxsize=None)
def _module_env_keys(name: str) -> FrozenSet[str]:
    return frozenset(_env_keys(_tree(name), {"from_env"} if name == "app.config" else set()))


@functools.lru_cache(maxsize=None)
def _attributes(name: str) -> FrozenSet[str]:
    return frozenset(node.attr for node in ast.walk(_tree(name))
                     if isinstance(node, ast.Attribute))


# ---------------------------------------------------------------- AWS API calls


@functools.lru_cache(maxsize=None)
def _operations(service: str) -> Dict[str, str]:
    """boto3 method name -> IAM action, from botocore's model of the service."""
    import botocore.session
    from botocore import xform_name

    model = botocore.session.get_session().get_service_model(service)
    prefix = model.signing_name
    return {xform_name(op): _IAM_ACTION.get(f"{prefix}:{op}", f"{prefix}:{op}")
            for op in model.operation_names}


def aws_actions(root: str) -> Set[str]:
    """IAM actions of the boto3 calls the loaded code makes: in each module that creates a
    ``boto3.client(<service>)``, every method call named like one of that service's operations."""
    actions: Set[str] = set()
    for name in reachable(root):
        services, called = _clients_and_calls(name)
        for service in services:
            operations = _operations(service)
            actions |= {operations[method] for method in called if method in operations}
    return actions


@functools.lru_cache(maxsize=None)
def _clients_and_calls(name: str) -> tuple:
    """(services the module makes a ``boto3.client`` of, method names it calls)."""
    tree = _tree(name)
    services = frozenset(node.args[0].value for node in ast.walk(tree)
                         if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                         and node.func.attr == "client" and isinstance(node.func.value, ast.Name)
                         and node.func.value.id == "boto3" and node.args
                         and isinstance(node.args[0], ast.Constant))
    called = frozenset(node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call)
                       and isinstance(node.func, ast.Attribute))
    return services, called


# ---------------------------------------------------------------- tables


def tables(root: str) -> Set[str]:
    """Logical table names (``groups``, ...) whose model modules the loaded code imports."""
    import models
    from models import base

    models.registered_tables()
    by_module = {model.__module__: logical for logical, model in base.registered_tables().items()}
    return {logical for module, logical in by_module.items() if module in reachable(root)}
