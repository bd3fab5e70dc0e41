"""The embedded DynamoDB endpoint: moto's server in-process, one request at a time, durable.

Serialized on purpose: measured here, moto's plain threaded server lets two conflicting
TransactWriteItems both succeed and throws HTTP 500s under concurrency; holding one lock
around the WSGI app makes every call atomic, as each call is on DynamoDB.

Durable: every mutating call is appended to a journal and fsynced inside the lock, before its
response leaves, so an acknowledged write survives kill -9. Every mutating call is journaled,
failed ones too: a call that fails may still have changed state (moto's BatchWriteItem applies
the items before a bad one), and replaying the same calls in the same order on the same state
through the same moto code reproduces each outcome, so nothing is lost or invented. On start
the last snapshot is loaded and the journals after it replayed (see journal.py). Snapshots
(compaction) run in the background once the journal has grown, and on a clean stop."""
from __future__ import annotations

import base64
import io
import logging
import threading
import time
from pathlib import Path
from typing import Iterable, Optional

import boto3
from werkzeug.serving import make_server

from app.local import engine, engine_wire
from app.local.in_process import InProcess
from app.local.journal import Store, read_journal
from app.local.template_tables import create_tables

log = logging.getLogger("tailspend.local.dynamodb")
_READ_ONLY = ("GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable", "ListTables",
              "DescribeTimeToLive", "TransactGetItems", "DescribeStream", "GetRecords",
              "GetShardIterator", "ListStreams", "DescribeContinuousBackups", "ListTagsOfResource",
              "DescribeEndpoints", "DescribeLimits")
_BATCH = 25
_STREAM_RETENTION = 1000  # local mode reads no streams; moto would keep every record forever


class EmbeddedDynamoDB:
    """A DynamoDB-compatible endpoint on 127.0.0.1 with tables from template.yaml."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 8000, stage: str = "dev",
                 data_dir: Optional[str] = None, region: str = "us-east-1",
                 snapshot_seconds: float = 10.0, compact_bytes: int = 4 << 20) -> None:
        self.host, self.port, self.stage, self.region = host, port, stage, region
        self.snapshot_dir = Path(data_dir) / "dynamodb" if data_dir else None
        self.snapshot_seconds = snapshot_seconds
        self.compact_bytes = compact_bytes
        self._lock = threading.Lock()
        self._compacting = threading.Lock()
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._server = None
        self._store: Optional[Store] = None
        self._journaling = False
        self._moto_app = None
        self.wsgi = None
        self._threads: list = []

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    # --- serving -----------------------------------------------------------------------------

    def _wsgi(self):
        self._moto_app = moto_app = engine_wire.dispatcher()

        def serialized(environ, start_response):
            target = environ.get("HTTP_X_AMZ_TARGET", "")
            mutating = bool(target) and not target.endswith(_READ_ONLY)
            body = b""
            if mutating and self._journaling:
                length = int(environ.get("CONTENT_LENGTH") or 0)
                body = environ["wsgi.input"].read(length) if length else b""
                environ["wsgi.input"] = io.BytesIO(body)
            with self._lock:
                status = []

                def recording(code, headers, exc_info=None):
                    status.append(code)
                    return start_response(code, headers, exc_info)

                result = moto_app(environ, recording)
                try:
                    reply = b"".join(result)
                finally:
                    getattr(result, "close", lambda: None)()
                if mutating and self._journaling:
                    # Before the response leaves: what the client is told happened is on disk.
                    self._store.journal.append({
                        "t": target, "b": body.decode("utf-8"),
                        "a": environ.get("HTTP_AUTHORIZATION", ""),
                        "s": int(status[0].split()[0]) if status else 0})
            if mutating:
                self._dirty.set()
            return [reply]

        return serialized

    def start(self) -> "EmbeddedDynamoDB":
        """Serve, create the template's tables, restore the snapshot, replay the journal."""
        from moto.moto_server.werkzeug_app import MotoRequestHandler

        engine.install(stream_retention=_STREAM_RETENTION)
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.wsgi = self._wsgi()  # what the socket serves; app.local.in_process calls it too
        self._server = make_server(self.host, self.port, self.wsgi, threaded=True,
                                   request_handler=MotoRequestHandler)
        self.port = self._server.server_address[1]
        self._spawn(self._server.serve_forever)
        # The start's own calls need no socket (app/local/in_process.py): ~30 to make the
        # tables, plus a BatchWriteItem per 25 items of a snapshot's restore.
        client = self.client()
        client.meta.events.register("before-send", InProcess(self))
        create_tables(client, self.stage)
        if self.snapshot_dir:
            self._store = Store(self.snapshot_dir)
            self._restore(client)
            self._store.open_journal()
            self._journaling = True
        self._dirty.clear()
        if self.snapshot_dir and self.snapshot_seconds > 0:
            self._spawn(self._snapshot_loop)
        return self

    def stop(self) -> None:
        """Stop serving, then save a final snapshot (the journal already holds every write)."""
        self.wsgi = None  # in-process callers (app.local.in_process) go to the socket now
        self._stopping.set()
        if self._server:
            self._server.shutdown()
            self._server.server_close()
        if self._store:
            self.snapshot()
            self._store.close()

    def client(self):
        return boto3.client("dynamodb", endpoint_url=self.endpoint, region_name=self.region,
                            aws_access_key_id="local", aws_secret_access_key="local")

    def _spawn(self, target) -> None:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        self._threads.append(thread)

    # --- persistence -------------------------------------------------------------------------

    def _snapshot_loop(self) -> None:
        last = time.monotonic()
        while not self._stopping.wait(self.snapshot_seconds):
            # The journal makes writes durable; compaction only bounds its length (and the
            # replay time), so it runs when the journal has grown or has aged a minute.
            grown = self._store.journal.size >= self.compact_bytes
            aged = time.monotonic() - last >= max(60.0, self.snapshot_seconds)
            if self._dirty.is_set() and (grown or aged):
                try:
                    self.snapshot()
                    last = time.monotonic()
                except Exception:  # a failed snapshot must not kill the server
                    log.exception("local.snapshot_failed")

    def snapshot(self) -> None:
        """Compact: capture every table and switch journals in one step under the request lock,
        then write the snapshot and retire the older journal outside it."""
        if not self._store:
            return
        with self._compacting:
            with self._lock:
                self._dirty.clear()
                tables = {name: [_wire(item.to_json()["Attributes"])
                                 for item in table.all_items()]
                          for name, table in _moto_tables()}
                generation = self._store.rotate()
            self._store.commit_snapshot(generation, tables)

    def _restore(self, client) -> None:
        existing = set(client.list_tables()["TableNames"])
        for name, items in self._store.snapshot_tables().items():
            if name in existing:
                _write_all(client, name, items)
                log.info("local.restored", extra={"table": name, "items": len(items)})
        replayed = 0
        for path in self._store.journals():
            for record in read_journal(path):
                status = self._replay(record)
                if record.get("s") and status != record["s"]:
                    log.warning("local.replay_diverged",
                                extra={"target": record["t"], "was": record["s"], "now": status})
                replayed += 1
        if replayed:
            log.info("local.replayed", extra={"calls": replayed})

    def _replay(self, record: dict) -> int:
        """Apply one journaled call through the same moto app, as its request did."""
        from werkzeug.test import Client

        headers = {"X-Amz-Target": record["t"], "Content-Type": "application/x-amz-json-1.0",
                   "Host": f"127.0.0.1:{self.port}"}
        if record.get("a"):
            headers["Authorization"] = record["a"]
        with self._lock:
            reply = Client(self._moto_app).post("/", data=record["b"].encode("utf-8"),
                                                headers=headers)
            status = reply.status_code
            reply.close()
        return status


def _moto_tables() -> Iterable[tuple]:
    from moto.dynamodb.models import dynamodb_backends

    for regions in dynamodb_backends.values():
        for backend in regions.values():
            yield from backend.tables.items()


def _wire(item: dict) -> dict:
    """An item as DynamoDB's JSON wire format has it: binaries as base64 text. moto's
    ``to_json`` encodes a B value but leaves a binary set's members as bytes, which neither
    JSON nor a restore could carry."""
    return {name: _wire_value(value) for name, value in item.items()}


def _wire_value(value: dict) -> dict:
    (kind, inner), = value.items()
    if kind == "B":
        return {"B": _b64(inner)}
    if kind == "BS":
        return {"BS": [_b64(member) for member in inner]}
    if kind == "M":
        return {"M": _wire(inner)}
    if kind == "L":
        return {"L": [_wire_value(member) for member in inner]}
    return value


def _b64(data) -> str:
    return base64.b64encode(data).decode() if isinstance(data, (bytes, bytearray)) else data


def _native(value: dict) -> dict:
    """A wire-format value as boto3's client takes it: binaries as bytes (it encodes them)."""
    (kind, inner), = value.items()
    if kind == "B":
        return {"B": base64.b64decode(inner)}
    if kind == "BS":
        return {"BS": [base64.b64decode(member) for member in inner]}
    if kind == "M":
        return {"M": {name: _native(member) for name, member in inner.items()}}
    if kind == "L":
        return {"L": [_native(member) for member in inner]}
    return value


def _write_all(client, table_name: str, items: list) -> None:
    items = [{name: _native(value) for name, value in item.items()} for item in items]
    for start in range(0, len(items), _BATCH):
        pending = {table_name: [{"PutRequest": {"Item": item}}
                                for item in items[start:start + _BATCH]]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
