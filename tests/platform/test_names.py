"""Names tell the truth (issue 43 §5): ``worker.py`` is only a queue or stream message's entry."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _public_names(path: Path) -> set:
    """Functions and classes a module defines at its top level, private ones left out."""
    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and not node.name.startswith("_")}


def _worker_calls(path: Path) -> set:
    """``<name>.<attr>`` named inside a handler's ``handle_record``, or in the message entry it
    hands app.handlers.queue.queue_handler (its first argument)."""
    for node in ast.walk(ast.parse(path.read_text())):
        entry = (node if isinstance(node, ast.FunctionDef) and node.name == "handle_record"
                 else node.args[0] if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                 and node.func.id == "queue_handler" and node.args else None)
        if entry is not None:
            return {f"{ref.value.id}.{ref.attr}" for ref in ast.walk(entry)
                    if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name)}
    return set()


def _worker_modules(root: Path = ROOT) -> list:
    return sorted((root / "app").rglob("worker.py"))


def _handlers(root: Path = ROOT) -> list:
    """The per-record handlers: their own ``handle_record``, or the queue entry written once
    (app/handlers/queue.py, itself left out)."""
    return [path for path in sorted((root / "app" / "handlers").glob("*.py"))
            if path.name != "queue.py" and ("def handle_record" in path.read_text()
                                            or "queue_handler(" in path.read_text())]


def test_every_worker_module_holds_only_the_per_message_entry():
    """A worker.py defines ``handle(message)`` and nothing else public: a hand-off, a sweep or
    a use case lives in a module named for it."""
    assert _worker_modules(), "no worker.py found: the walk is broken"
    assert {str(p.relative_to(ROOT)): _public_names(p) for p in _worker_modules()} == {
        str(p.relative_to(ROOT)): {"handle"} for p in _worker_modules()}


def test_every_per_record_handler_calls_its_area_worker():
    """Each queue or stream handler feeds one record to ``worker.handle``, imported from
    its area, so "the worker" means the same module everywhere."""
    assert len(_handlers()) >= 6
    for path in _handlers():
        assert "worker.handle" in _worker_calls(path), path.name
        imports = {(node.module, alias.name) for node in ast.parse(path.read_text()).body
                   if isinstance(node, ast.ImportFrom) for alias in node.names}
        assert any(module.startswith("app.") and name == "worker" for module, name in imports), \
            path.name
