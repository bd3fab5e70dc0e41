"""What app/limits.py and app/errors.py promise, "declared once", kept true (issue 43 §5)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.platform.test_architecture import KERNEL

ROOT = Path(__file__).resolve().parents[2]
LIMIT_NAME = re.compile(r"^(?:MAX|MIN)_[A-Z0-9_]+$|^[A-Z0-9_]+_(?:MAX|LIMIT)$")
# A comment naming where the value really lives ("# app.ledger.comments.MAX_BODY"): a copy.
POINTS_ELSEWHERE = re.compile(r"#.*\bapp\.[a-z_]+\.[A-Za-z_.]+")


def _literal(node: ast.AST):
    """The number a constant expression (``5 * 1024 * 1024``) is, or None if it names anything."""
    if not all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
               for n in ast.walk(node)):
        return None
    value = eval(compile(ast.Expression(node), "<limit>", "eval"))  # numbers only, checked above
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def limit_declarations(root: Path = ROOT) -> list:
    """(module, name, value, line) of every module-level limit constant given a literal."""
    found = []
    for path in sorted((root / "app").rglob("*.py")):
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.parse(text).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name) and LIMIT_NAME.match(node.targets[0].id):
                value = _literal(node.value)
                if value is not None:
                    found.append((str(path.relative_to(root)), node.targets[0].id, value,
                                  lines[node.lineno - 1]))
    return found


def limits_declared_twice(root: Path = ROOT) -> list:
    """Each limit written a second time: a name app/limits.py declares given a value again, one
    (name, value) in two modules, or a value whose comment says it mirrors another module's."""
    declared = limit_declarations(root)
    catalogue = {name for module, name, _, _ in declared if module == "app/limits.py"}
    seen: dict = {}
    twice = []
    for module, name, value, line in declared:
        if module == "app/limits.py":
            continue
        if name in catalogue or POINTS_ELSEWHERE.search(line):
            twice.append(f"{module}: {line.strip()}")
        if (name, value) in seen:
            twice.append(f"{module}: {name} = {value}, as in {seen[(name, value)]}")
        seen.setdefault((name, value), module)
    return twice


def test_every_limit_is_declared_once():
    assert len(limit_declarations()) > 40  # the walk reads the code
    assert limits_declared_twice() == []


def test_the_limit_check_finds_each_way_to_declare_one_twice(tmp_path):
    (tmp_path / "app" / "a").mkdir(parents=True)
    (tmp_path / "app" / "limits.py").write_text("MAX_NOTE = 500\nMAX_BODY = 2000\n")
    (tmp_path / "app" / "a" / "one.py").write_text(
        "MAX_NOTE = 500\nMAX_TRIES = 2\nMAX_TEXT = 2000  # app.ledger.comments.MAX_BODY\n"
        "MAX_SIZE = 5 * 1024\n")
    (tmp_path / "app" / "a" / "two.py").write_text(
        "from app.limits import MAX_BODY\nMAX_TRIES = 2\nMAX_SIZE = 6 * 1024\nMAX_ALIAS = MAX_BODY\n")
    assert [hit.split(":")[0] + ":" + hit.split(":")[1].split("=")[0].strip()
            for hit in limits_declared_twice(tmp_path)] == [
        "app/a/one.py:MAX_NOTE", "app/a/one.py:MAX_TEXT", "app/a/two.py:MAX_TRIES"]


def _is_errors_module(path: Path) -> bool:
    return path.name == "errors.py"


def _code_attribute(node: ast.AST) -> bool:
    """``error.code`` or ``getattr(error, "code", ...)``."""
    return (isinstance(node, ast.Attribute) and node.attr == "code") or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id == "getattr" and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant) and node.args[1].value == "code")


ERROR_CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{4,}$")


def _text(node: ast.AST) -> bool:
    """A string shaped as our error codes are (UPPER_SNAKE; DynamoDB's reason codes such as
    ``ConditionalCheckFailed`` are not ours)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(
        ERROR_CODE.match(node.value))


def code_literals(source: str) -> list:
    """(line, code) of each error code written as a string: ``code="X"`` given to a call,
    ``code = "X"`` in a class, ``"code": "X"`` in a hand-built envelope, or ``"X"`` compared
    with an error's ``code``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            found += [(k.value.lineno, k.value.value) for k in node.keywords
                      if k.arg == "code" and _text(k.value)]
        elif isinstance(node, ast.ClassDef):
            found += [(s.lineno, s.value.value) for s in node.body
                      if isinstance(s, ast.Assign) and _text(s.value) and any(
                          isinstance(t, ast.Name) and t.id == "code" for t in s.targets)]
        elif isinstance(node, ast.Dict):
            found += [(v.lineno, v.value) for k, v in zip(node.keys, node.values, strict=True)
                      if isinstance(k, ast.Constant) and k.value == "code" and _text(v)]
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_code_attribute(side) for side in sides):
                found += [(side.lineno, side.value) for side in sides if _text(side)]
    return sorted(found)


def test_every_error_code_is_written_in_an_errors_module():
    """app/errors.py (the base classes and the errors several areas raise) and each area's
    errors.py name every error with its status and code; code elsewhere raises or compares
    those names, never a code string a typo could break."""
    offenders = {str(path.relative_to(ROOT)): code_literals(path.read_text())
                 for path in sorted((ROOT / "app").rglob("*.py")) if not _is_errors_module(path)}
    assert {name: found for name, found in offenders.items() if found} == {}
    declared = [code for path in (ROOT / "app").rglob("errors.py")
                for _, code in code_literals(path.read_text())]
    assert len(declared) > 60  # the check reads the errors modules' way of writing a code


def test_the_code_check_finds_each_way_to_write_a_code():
    planted = ('raise Conflict("x", code="GONE")\n'
               'class Lost(Conflict):\n    code = "LOST"\n'
               'body = {"error": {"code": "FORBIDDEN", "message": "no"}}\n'
               'if error.code != "NOT_PENDING":\n    pass\n'
               'if getattr(error, "code", None) == "SOLE_OWNER":\n    pass\n'
               'if error.code == LastOwner.code or reason.kind == "X":\n    pass\n')
    assert code_literals(planted) == [(1, "GONE"), (3, "LOST"), (4, "FORBIDDEN"),
                                      (5, "NOT_PENDING"), (7, "SOLE_OWNER")]


def _place(path: Path, root: Path) -> str:
    """The area a module of app/ belongs to, or "kernel" for everything else (core, api,
    money, auth, local, the handlers, the top-level modules): those cannot import an area."""
    parts = path.relative_to(root / "app").parts
    return parts[0] if len(parts) > 1 and parts[0] not in KERNEL else "kernel"


def _names_used(tree: ast.AST) -> set:
    """The app.errors names a module uses: imported by name, or read off the module
    (``from app import errors`` / ``import app.errors``, then ``errors.x``)."""
    used, aliases = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == "app.errors":
                used.update(alias.name for alias in node.names)
            elif node.module == "app":
                aliases.update(a.asname or a.name for a in node.names if a.name == "errors")
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.name == "app.errors" and a.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
                isinstance(node.value, ast.Name) and node.value.id in aliases
                or isinstance(node.value, ast.Attribute) and node.value.attr == "errors"
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "app"):
            used.add(node.attr)
    return used


def shared_error_places(root: Path = ROOT) -> dict:
    """{name: the places (areas, "kernel") that use it} for each class and function of
    app/errors.py; a name another of its names uses counts that one's places too (the class
    a shared function raises is as shared as the function)."""
    catalogue = {node.name: node for node in ast.parse((root / "app" / "errors.py").read_text()).body
                 if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    places = {name: set() for name in catalogue}
    for path in sorted((root / "app").rglob("*.py")):
        if path != root / "app" / "errors.py":
            for name in _names_used(ast.parse(path.read_text())) & set(catalogue):
                places[name].add(_place(path, root))
    users_in_catalogue = {name: {other for other, node in catalogue.items() if other != name and any(
        isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))} for name in catalogue}
    changed = True
    while changed:  # until every name has the places of the names that use it
        changed = False
        for name, users in users_in_catalogue.items():
            grown = places[name].union(*(places[user] for user in users))
            changed |= grown != places[name]
            places[name] = grown
    return places


def errors_of_one_area(root: Path = ROOT) -> dict:
    """{name: its places} for each error app/errors.py holds that the kernel does not use and
    at most one area does: it belongs in that area's errors.py (or, used by none, nowhere)."""
    return {name: sorted(found) for name, found in shared_error_places(root).items()
            if "kernel" not in found and len(found) < 2}


def test_app_errors_holds_only_errors_the_kernel_or_several_areas_use():
    assert len(shared_error_places()) > 25  # the walk reads the catalogue
    assert errors_of_one_area() == {}


def test_the_shared_error_check_finds_an_error_of_one_area_and_an_unused_one(tmp_path):
    for folder in ("core", "groups", "people"):
        (tmp_path / "app" / folder).mkdir(parents=True)
    (tmp_path / "app" / "errors.py").write_text(
        "class DomainError(Exception):\n    pass\n"
        "class Conflict(DomainError):\n    pass\n"
        "class LastOwner(Conflict):\n    pass\n"
        "def last_owner():\n    return LastOwner()\n"
        "def for_kernel():\n    return Conflict()\n"
        "def for_two():\n    return Conflict()\n"
        "def for_people():\n    return for_two()\n"
        "def unused():\n    return Conflict()\n")
    (tmp_path / "app" / "core" / "x.py").write_text("from app.errors import for_kernel\n")
    (tmp_path / "app" / "groups" / "a.py").write_text("from app.errors import last_owner, for_two\n")
    (tmp_path / "app" / "groups" / "errors.py").write_text("from app import errors\n"
                                                           "errors.LastOwner\n")
    (tmp_path / "app" / "people" / "b.py").write_text(
        "import app.errors\n\ndef f():\n    from app.errors import for_two\n"
        "    return app.errors.for_people()\n")
    assert errors_of_one_area(tmp_path) == {"LastOwner": ["groups"], "last_owner": ["groups"],
                                            "for_people": ["people"], "unused": []}
