"""What app/limits.py and app/errors.py promise, "declared once", kept true (issue 43 §5)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

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
