"""The embedded DynamoDB endpoint: moto's server in-process, one request at a time, persisted.

Serialized on purpose: measured here, moto's plain threaded server lets two conflicting
TransactWriteItems both succeed and throws HTTP 500s under concurrency; holding one lock
around the WSGI app makes every call atomic, as each call is on DynamoDB.

Contents are snapshotted to ``<data_dir>/dynamodb/<table>.jsonl`` (DynamoDB JSON, one item a
line) on clean shutdown and periodically after writes, and loaded back on the next start."""
from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Iterable, Optional

import boto3
from werkzeug.serving import make_server

from app.local.template_tables import create_tables

log = logging.getLogger("tailspend.local.dynamodb")
_READ_ONLY = ("GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable", "ListTables",
              "DescribeTimeToLive", "TransactGetItems", "DescribeStream", "GetRecords",
              "GetShardIterator", "ListStreams", "DescribeContinuousBackups", "ListTagsOfResource")
_BATCH = 25


class EmbeddedDynamoDB:
    """A DynamoDB-compatible endpoint on 127.0.0.1 with tables from template.yaml."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 8000, stage: str = "dev",
                 data_dir: Optional[str] = None, region: str = "us-east-1",
                 snapshot_seconds: float = 10.0) -> None:
        self.host, self.port, self.stage, self.region = host, port, stage, region
        self.snapshot_dir = Path(data_dir) / "dynamodb" if data_dir else None
        self.snapshot_seconds = snapshot_seconds
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._server = None
        self._threads: list = []

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    # --- serving -----------------------------------------------------------------------------

    def _wsgi(self):
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

        moto_app = DomainDispatcherApplication(create_backend_app)

        def serialized(environ, start_response):
            target = environ.get("HTTP_X_AMZ_TARGET", "")
            with self._lock:
                result = moto_app(environ, start_response)
                try:
                    body = b"".join(result)
                finally:
                    getattr(result, "close", lambda: None)()
            if target and not target.endswith(_READ_ONLY):
                self._dirty.set()
            return [body]

        return serialized

    def start(self) -> "EmbeddedDynamoDB":
        """Serve, create the template's tables, then restore the last snapshot."""
        from moto.moto_server.werkzeug_app import MotoRequestHandler

        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self._server = make_server(self.host, self.port, self._wsgi(), threaded=True,
                                   request_handler=MotoRequestHandler)
        self.port = self._server.server_address[1]
        self._spawn(self._server.serve_forever)
        client = self.client()
        create_tables(client, self.stage)
        self._restore(client)
        self._dirty.clear()
        if self.snapshot_dir and self.snapshot_seconds > 0:
            self._spawn(self._snapshot_loop)
        return self

    def stop(self) -> None:
        """Save a final snapshot, then stop serving."""
        self._stopping.set()
        self.snapshot()
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def client(self):
        return boto3.client("dynamodb", endpoint_url=self.endpoint, region_name=self.region,
                            aws_access_key_id="local", aws_secret_access_key="local")

    def _spawn(self, target) -> None:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        self._threads.append(thread)

    # --- persistence -------------------------------------------------------------------------

    def _snapshot_loop(self) -> None:
        while not self._stopping.wait(self.snapshot_seconds):
            if self._dirty.is_set():
                try:
                    self.snapshot()
                except Exception:  # noqa: BLE001 — a failed snapshot must not kill the server
                    log.exception("local.snapshot_failed")

    def snapshot(self) -> None:
        """Write every table's items, taken under the request lock so they are consistent."""
        if not self.snapshot_dir:
            return
        with self._lock:
            self._dirty.clear()
            tables = {name: [item.to_json()["Attributes"] for item in table.all_items()]
                      for name, table in _moto_tables()}
        self.snapshot_dir.mkdir(parents=True, exist_ok=True)
        for name, items in tables.items():
            path = self.snapshot_dir / f"{name}.jsonl"
            partial = path.with_suffix(".jsonl.tmp")
            with open(partial, "w", encoding="utf-8") as handle:
                for item in items:
                    handle.write(json.dumps(item, separators=(",", ":")) + "\n")
            os.replace(partial, path)  # atomic: a crash leaves the previous snapshot intact

    def _restore(self, client) -> None:
        if not self.snapshot_dir or not self.snapshot_dir.is_dir():
            return
        existing = set(client.list_tables()["TableNames"])
        for path in sorted(self.snapshot_dir.glob("*.jsonl")):
            if path.stem not in existing:
                continue
            with open(path, encoding="utf-8") as handle:
                items = [json.loads(line) for line in handle if line.strip()]
            _write_all(client, path.stem, items)
            log.info("local.restored", extra={"table": path.stem, "items": len(items)})


def _moto_tables() -> Iterable[tuple]:
    from moto.dynamodb.models import dynamodb_backends

    for regions in dynamodb_backends.values():
        for backend in regions.values():
            yield from backend.tables.items()


def _write_all(client, table_name: str, items: list) -> None:
    for start in range(0, len(items), _BATCH):
        pending = {table_name: [{"PutRequest": {"Item": item}}
                                for item in items[start:start + _BATCH]]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
