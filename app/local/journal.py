"""The write-ahead journal and the snapshot set of the embedded DynamoDB endpoint.

Layout of ``<data_dir>/dynamodb/``::

    CURRENT                  the generation G of the last complete snapshot (atomic rename)
    snapshot-G/<table>.jsonl that snapshot: DynamoDB JSON, one item a line
    journal-G.log, -G+1 ...  every mutating call applied since snapshot G, in applied order

Recovery loads ``snapshot-G`` and replays every journal of generation >= G in order. A
snapshot is taken under the request lock: the items are captured and new calls start going to
``journal-(G+1)`` at the same instant, so ``snapshot-(G+1)`` + ``journal-(G+1)`` is the whole
state. Only once ``snapshot-(G+1)`` is fsynced and ``CURRENT`` renamed onto it are the older
files deleted; a crash at any point leaves either the old generation with both journals or
the new one with its own, each complete.

A record is one line ``<crc32 hex> <json>``; a torn last line (crash mid-write) fails its
check, ends the replay and is cut off so appends continue cleanly."""
from __future__ import annotations

import json
import os
import re
import shutil
import zlib
from pathlib import Path
from typing import Iterator, Optional

_JOURNAL = re.compile(r"^journal-(\d+)\.log$")


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """Append-only, fsynced before each append returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle = open(path, "ab")
        self.size = self._handle.tell()
        fsync_dir(path.parent)  # the file's own entry must be durable before any record

    def append(self, record: dict) -> None:
        payload = json.dumps(record, separators=(",", ":")).encode()
        line = b"%08x " % zlib.crc32(payload) + payload + b"\n"
        self._handle.write(line)
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.size += len(line)

    def close(self) -> None:
        self._handle.close()


def read_journal(path: Path) -> Iterator[dict]:
    """Yield each intact record; cut the file at the first torn or corrupt one."""
    good = 0
    with open(path, "rb") as handle:
        for line in handle:
            if not line.endswith(b"\n") or len(line) < 10:
                break
            crc, payload = line[:8], line[9:-1]
            try:
                if int(crc, 16) != zlib.crc32(payload):
                    break
                record = json.loads(payload)
            except ValueError:
                break
            good += len(line)
            yield record
    if good != path.stat().st_size:
        with open(path, "r+b") as handle:
            handle.truncate(good)
            os.fsync(handle.fileno())


class Store:
    """The snapshot generations and journals under one directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.generation = self._current()
        self.journal: Optional[Journal] = None

    def _current(self) -> int:
        try:
            return int((self.root / "CURRENT").read_text().strip())
        except (FileNotFoundError, ValueError):
            return 0

    def snapshot_tables(self) -> dict[str, list]:
        """The last complete snapshot's items per table ({} before the first)."""
        folder = self.root / f"snapshot-{self.generation}"
        if self.generation == 0:
            # The single-file snapshots written before the journal existed: kept, because a
            # developer's data directory outlives upgrades of their checkout.
            folder = self.root
        tables = {}
        for path in sorted(folder.glob("*.jsonl")):
            with open(path, encoding="utf-8") as handle:
                tables[path.stem] = [json.loads(line) for line in handle if line.strip()]
        return tables

    def journals(self) -> list[Path]:
        """Journals of the current generation and later, oldest first."""
        found = []
        for path in self.root.iterdir():
            match = _JOURNAL.match(path.name)
            if match and int(match.group(1)) >= self.generation:
                found.append((int(match.group(1)), path))
        return [path for _, path in sorted(found)]

    def open_journal(self) -> None:
        """Appends go to a journal after every existing one (replayed ones stay until compacted)."""
        existing = [int(_JOURNAL.match(p.name).group(1)) for p in self.journals()]
        self._next = max(existing + [self.generation]) + 1 if existing else self.generation
        self.journal = Journal(self.root / f"journal-{self._next}.log")

    def rotate(self) -> int:
        """Under the request lock: later appends go to a new journal; returns its generation."""
        self.journal.close()
        self._next += 1
        self.journal = Journal(self.root / f"journal-{self._next}.log")
        return self._next

    def commit_snapshot(self, generation: int, tables: dict[str, list]) -> None:
        """Outside the lock: write snapshot-`generation`, make it CURRENT, drop older files."""
        folder = self.root / f"snapshot-{generation}"
        shutil.rmtree(folder, ignore_errors=True)  # a half-written one from a crash
        folder.mkdir()
        for name, items in tables.items():
            with open(folder / f"{name}.jsonl", "w", encoding="utf-8") as handle:
                for item in items:
                    handle.write(json.dumps(item, separators=(",", ":")) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        fsync_dir(folder)
        partial = self.root / "CURRENT.tmp"
        with open(partial, "w") as handle:
            handle.write(f"{generation}\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, self.root / "CURRENT")
        fsync_dir(self.root)
        self.generation = generation
        self._drop_older(generation)

    def _drop_older(self, generation: int) -> None:
        for path in self.root.iterdir():
            match = _JOURNAL.match(path.name)
            if match and int(match.group(1)) < generation:
                path.unlink()
            elif path.name.startswith("snapshot-") and path.name != f"snapshot-{generation}":
                shutil.rmtree(path, ignore_errors=True)
            elif path.suffix == ".jsonl":
                path.unlink()  # pre-journal snapshot files, now superseded

    def close(self) -> None:
        if self.journal:
            self.journal.close()
            self.journal = None
