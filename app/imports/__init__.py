"""Import: a whole group's history from another app's export, all or nothing.

``parse`` turns a file of any supported format into one neutral :class:`Parsed` model;
``jobs`` starts an import (the group head IMPORTING, the file staged) and reports on it;
``run_import`` writes the rows, checks the balances and turns the group ACTIVE, or removes
what it wrote (``worker`` is its queue message's entry). See docs/import.md."""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
