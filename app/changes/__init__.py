"""changes: the group's change feed (offline sync) and activity feed, read from CHANGE rows"""

# The modules other areas may import (tests/platform/test_architecture.py).
__all__: tuple = ()
