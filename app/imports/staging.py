"""The file between POST /imports and the worker: compressed chunks in the group partition.

A DynamoDB item holds at most 400 KB and an SQS message 256 KB, so a 5 MB file travels as
zlib-compressed, base64-encoded chunk rows (``IMPORT#CHUNK#0000`` ...) of CHUNK_BYTES of
compressed data (360 KB of text), written with BatchWriteItem before the head exists and
removed once the import has ended. Text rather than a binary attribute: local mode's
journal and snapshots store items as JSON. CSV and JSON exports compress 5-10x, so a 5 MB
file is usually 2-4 rows; even incompressible text is at most 20. The same rows work on AWS and on local mode's embedded DynamoDB (no bucket to
provision, nothing that outlives the group: a failed import's sweep takes them too)."""
from __future__ import annotations

import base64
import zlib

from models.groups import GroupItem, ImportChunk

CHUNK_BYTES = 270_000


def stage(group_id: str, content: str) -> int:
    """Write the file's chunks; returns how many."""
    data = zlib.compress(content.encode("utf-8"), 6)
    pieces = [data[start:start + CHUNK_BYTES] for start in range(0, len(data), CHUNK_BYTES)]
    with ImportChunk.batch_write() as batch:
        for seq, piece in enumerate(pieces):
            batch.save(ImportChunk(group_id, ImportChunk.sort_key(seq),
                                   Data=base64.b64encode(piece).decode("ascii")))
    return len(pieces)


def staged_text(group_id: str, count: int) -> str:
    """The file as staged; ValueError if a chunk is missing."""
    chunks = list(ImportChunk.of(group_id, consistent_read=True))
    if len(chunks) != count:
        raise ValueError(f"staged file has {len(chunks)} of {count} chunks")
    return zlib.decompress(b"".join(base64.b64decode(chunk.Data) for chunk in chunks)
                           ).decode("utf-8")


def unstage(group_id: str, count: int) -> None:
    GroupItem.raw_batch_delete([(group_id, ImportChunk.sort_key(seq)) for seq in range(count)])
