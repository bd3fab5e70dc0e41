"""Single-item conditional writes: the one place a failed condition becomes an answer.

A write whose condition fails either raises the domain error the caller names (``on_fail``)
or returns False for the caller to act on; any other failure propagates. Multi-item changes
use :class:`Transaction`, whose guards do the same per item."""
from __future__ import annotations

from typing import Callable, Optional

from pynamodb.exceptions import DeleteError, PutError, UpdateError

from app.errors import DomainError

CONDITION_FAILED = "ConditionalCheckFailedException"


def _attempt(write: Callable[[], object], on_fail: Optional[DomainError]) -> bool:
    try:
        write()
        return True
    except (PutError, UpdateError, DeleteError) as error:
        if error.cause_response_code != CONDITION_FAILED:
            raise
        if on_fail is not None:
            raise on_fail from None
        return False


def put_if(row, condition, *, on_fail: Optional[DomainError] = None) -> bool:
    """Save ``row`` if ``condition`` holds; True when written."""
    return _attempt(lambda: row.save(condition=condition), on_fail)


def update_if(row, actions: list, condition, *, on_fail: Optional[DomainError] = None) -> bool:
    """Apply ``actions`` to ``row`` if ``condition`` holds (``row`` is refreshed); True when written."""
    return _attempt(lambda: row.update(actions=actions, condition=condition), on_fail)


def delete_if(row, condition, *, on_fail: Optional[DomainError] = None) -> bool:
    """Delete ``row`` if ``condition`` holds; True when deleted."""
    return _attempt(lambda: row.delete(condition=condition), on_fail)
