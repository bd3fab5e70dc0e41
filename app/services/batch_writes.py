"""Unconditional batched deletes on GroupData, retried until DynamoDB has processed them all.

Deletes carry no condition, so running the same batch again is a no-op: every cascade that
uses this (group sweep, expense comment sweep) can simply be re-run after a failure."""
from __future__ import annotations

import time
from typing import List

from app.services.paging import chunked
from models.groups import GroupItem

BATCH_WRITE_LIMIT = 25
UNPROCESSED_RETRIES = 8


class UnprocessedItemsLeft(Exception):
    """DynamoDB kept items unprocessed past every retry; the caller's cascade can be re-run."""


def delete_keys(keys: List[dict], *, retries: int = UNPROCESSED_RETRIES) -> None:
    """Delete raw (GroupId, SK) keys in batches of 25, backing off on UnprocessedItems."""
    connection = GroupItem._get_connection()
    table_name = GroupItem.Meta.table_name
    for pending in chunked(keys, BATCH_WRITE_LIMIT):
        for attempt in range(retries + 1):
            reply = connection.batch_write_item(delete_items=pending)
            unprocessed = (reply.get("UnprocessedItems") or {}).get(table_name) or []
            pending = [request["DeleteRequest"]["Key"] for request in unprocessed]
            if not pending:
                break
            if attempt == retries:
                raise UnprocessedItemsLeft(f"{len(pending)} rows still unprocessed")
            time.sleep(min(0.05 * 2 ** attempt, 1.0))  # throttled: back off, then retry the rest
