"""app/local/engine.py and engine_wire.py patch six moto functions and copy the rules of more; this
fails loudly when moto changes any of them.

engine.py's transaction body is a copy of moto's with only the backup/rollback replaced, and
its Query and stream hooks wrap moto's own: after a moto upgrade that changes any of them, the
copy would silently diverge. Re-read each changed function, bring engine.py in line with it,
then pin the new fingerprints here."""
from __future__ import annotations

import ast
import hashlib
import importlib
import inspect

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
