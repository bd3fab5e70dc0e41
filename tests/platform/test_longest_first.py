"""tests/conftest.py's LONGEST: every entry still names a test, and those tests run first."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import LONGEST, pytest_collection_modifyitems

ROOT = Path(__file__).resolve().parents[2]


def test_every_entry_names_a_test_module_and_function_that_exist():
    """A renamed or removed test would leave its entry ordering nothing, silently."""
    for entry in LONGEST:
        path, _, name = entry.partition("::")
        module = ROOT / path
        assert module.is_file(), entry
        if name:
            assert re.search(rf"^(?:async )?def {re.escape(name)}", module.read_text(),
                             re.MULTILINE), entry


def test_the_longest_run_first_in_their_order_and_the_rest_keep_theirs():
    nodeids = ["tests/a/test_a.py::test_one", LONGEST[1] + "::test_x",
               "tests/b/test_b.py::test_two", LONGEST[0] + "[part]"]
    items = [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]
    pytest_collection_modifyitems(items)
    assert [item.nodeid for item in items] == [
        LONGEST[0] + "[part]", LONGEST[1] + "::test_x", "tests/a/test_a.py::test_one",
        "tests/b/test_b.py::test_two"]
