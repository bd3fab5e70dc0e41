"""Find where a source file patches a third-party library: an attribute of something imported
from it assigned (``BaseClient._make_api_call = ...``), or handed to ``setattr`` /
``monkeypatch.setattr`` / ``mock.patch.object`` / ``mock.patch("lib.x")``. Our own packages
and the standard library are not third-party; patching those is a test's own business."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

OURS = {"app", "models", "tests", "bench"}
_SETTERS = {"setattr", "setitem", "object", "patch", "setenv"}


def _third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top not in OURS and top not in sys.stdlib_module_names and top != "__future__"


def _library_names(tree: ast.AST) -> dict:
    """Local name -> the library it stands for, for every import from a third-party package."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name):
                    names[(alias.asname or alias.name).split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if _third_party(node.module):
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _root(node: ast.AST):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def patches(source: str) -> list:
    """Each patch of a library in ``source``, as ``"line N: what"``."""
    tree = ast.parse(source)
    library = _library_names(tree)
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            targets = [t for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))]
        elif isinstance(node, ast.Call) and node.args:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", None)
            if name in _SETTERS:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    if "." in first.value and _third_party(first.value):
                        found.append(f"line {node.lineno}: {name}({first.value!r})")
                    continue
                targets = [first]
        for target in targets:
            root = _root(target)
            if root in library:
                found.append(f"line {node.lineno}: {ast.unparse(target)} ({library[root]})")
    return found


# Words that only a patch of botocore's or moto's internals would spell.
PRIVATE_WORDS = ("_make_api_call", "Loader._cache", "BotocoreStubber", "process_request")
# path -> the patches it may make, and why. aws_calls: moto's stubber, called under one lock
# (its test pins that); test_engine: app/local/engine's own moto adapter, counted from inside.
ALLOWED = {"tests/support/aws_calls.py": ["BUILTIN_HANDLERS["],
           "tests/local/test_engine.py": ["DynamoType (moto"]}


def offenders(root: Path) -> dict:
    """path -> its patches of a library (and private words), over tests/ and bench/."""
    found = {}
    for path in [p for tree in ("tests", "bench") for p in (root / tree).rglob("*.py")]:
        name = path.relative_to(root).as_posix()
        if {".venv", "node_modules", ".build"} & set(path.parts) or name in (
                "tests/platform/library_patches.py", "tests/platform/test_architecture.py"):
            continue
        text = path.read_text()
        hits = [word for word in PRIVATE_WORDS if word in text] + [
            hit for hit in patches(text) if "(flask.g)" not in hit  # g is meant to be set
            and not any(allowed in hit for allowed in ALLOWED.get(name, []))]
        if hits:
            found[name] = hits
    return found
