"""app/local/engine.py, engine_wire.py and engine_index.py patch ten moto functions and copy the
rules of more; this fails loudly when moto changes any of them, or writes items somewhere new.

engine.py's transaction body is a copy of moto's with only the backup/rollback replaced, and
its Query and stream hooks wrap moto's own: after a moto upgrade that changes any of them, the
copy would silently diverge. Re-read each changed function, bring engine.py in line with it,
then pin the new fingerprints here."""
from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
from pathlib import Path

import moto
import pytest

# (module, class, function) -> sha256 (first 16 hex) of the function's source text in moto.
PATCHED = {
    ("moto.dynamodb.models", "DynamoDBBackend", "transact_write_items"): "c3c395e934006404",
    ("moto.dynamodb.models.table", "Table", "query"): "7c7c449c0d26f159",
    ("moto.dynamodb.models.table", "Table", "all_items"): "98389d15573959bc",
    ("moto.dynamodb.models.table", "StreamShard", "add"): "498b08ea3de09288",
    # The AttributeValue writer replaces the first and reproduces the rest's rules.
    ("moto.core.serialize", "BaseJSONSerializer", "_serialize_type_structure"): "97fbd7964ee699f2",
    ("moto.core.serialize", "ResponseSerializer", "_serialize_type_structure"): "9ce02dd992df84a3",
    ("moto.core.serialize", "ResponseSerializer", "_serialize_structure_member"):
        "be021c9a914475d1",
    ("moto.core.serialize", "BaseJSONSerializer", "_serialize_type_map"): "c12fb175badd11b1",
    ("moto.core.serialize", "BaseJSONSerializer", "_serialize_type_list"): "f91ec0c582abc650",
    ("moto.core.serialize", "BaseJSONSerializer", "_serialize_type_string"): "8f5ae0962db58b73",
    ("moto.core.serialize", "ResponseSerializer", "_serialize_type_blob"): "f7aef6c1bfa08af0",
    # The kept condition parse wraps parse and rebuilds the parser from __init__'s arguments.
    ("moto.dynamodb.comparisons", "ConditionExpressionParser", "parse"): "3634b2bc002a08a9",
    ("moto.dynamodb.comparisons", "ConditionExpressionParser", "__init__"): "895f351cc1ed0615",
    # The kept update-expression parse wraps make; its users only read the tree (the response
    # and the transaction check names, the backend's update_item validates a deep copy).
    ("moto.dynamodb.parsing.expressions", "UpdateExpressionParser", "make"): "64c08be4650ed404",
    ("moto.dynamodb.parsing.validators", "Validator", "__init__"): "dfd8cf0e78950531",
    ("moto.dynamodb.responses", "DynamoHandler", "update_item"): "b99bd1628a4d300f",
    ("moto.dynamodb.responses", "DynamoHandler", "transact_write_items"): "8df54bdc4fd9fa46",
    # engine_index: the write paths it follows, and DynamoType's equality its keys copy.
    ("moto.dynamodb.models.table", "Table", "put_item"): "5f3a6f3029297f91",
    ("moto.dynamodb.models.table", "Table", "delete_item"): "a684a6566b67c750",
    ("moto.dynamodb.models", "DynamoDBBackend", "update_item"): "d8e4e02a421005da",
    ("moto.dynamodb.models.dynamo_type", "DynamoType", "__hash__"): "d40bf069715b41f8",
    ("moto.dynamodb.models.dynamo_type", "DynamoType", "__eq__"): "da9d10a79dcab0cf",
}
MOTO_VERSION = "5.2.5"


def fingerprint(module: str, cls: str, function: str) -> str:
    """From moto's source file, not the class: engine.install() may have replaced it."""
    source = inspect.getsource(importlib.import_module(module))
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == function:
                    text = ast.get_source_segment(source, item)
                    return hashlib.sha256(text.encode()).hexdigest()[:16]
    raise AssertionError(f"moto {moto.__version__} has no {module}.{cls}.{function}: "
                         "app/local/engine.py patches it")


@pytest.mark.parametrize("target", sorted(PATCHED), ids=".".join)
def test_the_moto_functions_engine_patches_are_the_ones_it_was_written_against(target):
    assert fingerprint(*target) == PATCHED[target], (
        f"moto {moto.__version__} (engine.py was written against {MOTO_VERSION}) changed "
        f"{'.'.join(target)}: re-check app/local/engine.py against it, then update PATCHED")


# Every function of moto's DynamoDB that writes a table's items, an item's attributes, or calls
# a write of either, and how engine_index.py sees what it does. A new one fails the test below.
WRITERS = {
    "models/__init__.py DynamoDBBackend.put_item": "Table.put_item",
    "models/__init__.py DynamoDBBackend.update_item": "patched",
    "models/__init__.py DynamoDBBackend.delete_item": "Table.delete_item",
    "models/__init__.py DynamoDBBackend.transact_write_items": "replaced by engine.py's",
    "models/__init__.py DynamoDBBackend.execute_statement": "Table.put_item/delete_item",
    "models/dynamo_type.py Item.__init__": "a new item, not yet in a table",
    "models/dynamo_type.py Item.__deepcopy__": "a copy, not in a table",
    "models/dynamo_type.py Item.update_with_attribute_updates": "only from update_item",
    "models/table.py StreamShard.__init__": "stream records, not items",
    "models/table.py StreamShard.add": "stream records, not items",
    "models/table.py Table.__init__": "a new table: its maps are built on first Query",
    "models/table.py Table.put_item": "patched",
    "models/table.py Table.delete_item": "patched",
    "models/table.py RestoredTable.__init__": "a new table: its maps are built on first Query",
    "models/table.py RestoredPITTable.__init__": "a new table: its maps are built on first Query",
    "models/table_import.py TableImport.__init__": "the import's own attributes, not items",
    "models/table_import.py TableImport._process_s3_files": "Table.put_item",
    "responses.py DynamoHandler.put_item": "DynamoDBBackend.put_item",
    "responses.py DynamoHandler.batch_write_item": "DynamoDBBackend.put_item/delete_item",
    "responses.py DynamoHandler.delete_item": "DynamoDBBackend.delete_item",
    "responses.py DynamoHandler.update_item": "DynamoDBBackend.update_item",
}
_WRITE_CALLS = {"put_item", "delete_item", "update_item", "update_with_attribute_updates",
                "UpdateExpressionExecutor"}


def _reaches(node, attribute: str) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute) and node.attr == attribute:
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _writes(function) -> bool:
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        if any(_reaches(t, name) for t in targets for name in ("items", "attrs")
               if isinstance(t, (ast.Attribute, ast.Subscript))):
            return True
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", None)
            if name in _WRITE_CALLS:
                return True
            if name in ("pop", "update", "clear", "setdefault", "popitem") and \
                    isinstance(node.func, ast.Attribute) and \
                    any(_reaches(node.func.value, n) for n in ("items", "attrs")):
                return True
    return False


def moto_item_writers() -> set:
    root = Path(moto.__file__).parent / "dynamodb"
    found = set()

    def visit(node, path: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, path, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _writes(child):
                    found.add(f"{path} {prefix}{child.name}")
                visit(child, path, f"{prefix}{child.name}.")

    for source in sorted(root.rglob("*.py")):
        visit(ast.parse(source.read_text()), source.relative_to(root).as_posix(), "")
    return found


def test_engine_index_follows_every_place_moto_writes_items():
    assert moto_item_writers() == set(WRITERS), (
        f"moto {moto.__version__} writes items in other places than engine_index.py follows: "
        "make it see each new one (or say why it need not), then update WRITERS")


@pytest.mark.parametrize("body, writes", [
    ("t.items[h][r] = x", True), ("t.items.pop(h)", True), ("del item.attrs[k]", True),
    ("item.attrs.update(u)", True), ("backend.put_item(n, i)", True),
    ("UpdateExpressionExecutor(a, i, n).execute()", True),
    ("x = t.items[h]", False), ("t.items.get(h)", False), ("shard.other = 1", False)])
def test_the_writer_survey_tells_a_write_from_a_read(body, writes):
    assert _writes(ast.parse(f"def f():\n    {body}\n").body[0]) is writes
