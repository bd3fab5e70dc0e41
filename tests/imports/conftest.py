"""Fixtures for the import tests: a signed-in importer and the calls an importing client makes."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from app.core import handoff
from models.groups import GroupItem
from models.users import UserItem

FIXTURES = Path(__file__).with_name("fixtures")


def fixture_text(name: str) -> str:
    # newline="": the files' own line endings (CRLF or LF) reach the importer as they are.
    with open(FIXTURES / name, encoding="utf-8", newline="") as handle:
        return handle.read()


@dataclass
class Importer:
    client: object
    headers: dict
    user_id: str

    def start(self, file_format: str, content: str, headers: Optional[dict] = None, **options):
        return self.client.post("/imports", json={"format": file_format, "content": content,
                                                  **options},
                                headers={**self.headers, **(headers or {})})

    def status(self, import_id: str) -> dict:
        reply = self.client.get(f"/imports/{import_id}", headers=self.headers)
        assert reply.status_code == 200, reply.get_json()
        return reply.get_json()

    def run(self, file_format: str, content: str, **options) -> dict:
        """Start an import (the worker runs inline in tests) and return its final status."""
        reply = self.start(file_format, content, **options)
        assert reply.status_code == 202, reply.get_json()
        return self.status(reply.get_json()["importId"])

    def nets(self, group_id: str) -> Dict[str, int]:
        """displayName -> net, as GET /groups/{groupId}/balances shows them."""
        reply = self.client.get(f"/groups/{group_id}/balances", headers=self.headers)
        assert reply.status_code == 200, reply.get_json()
        return {row["displayName"]: row["net"] for row in reply.get_json()["balances"]}

    def export(self, group_id: str, file_format: str = "json"):
        reply = self.client.get(f"/groups/{group_id}/export?format={file_format}",
                                headers=self.headers)
        assert reply.status_code == 200
        return reply.get_json() if file_format == "json" else reply.get_data(as_text=True)


@pytest.fixture
def importer(client, sign_in) -> Importer:
    headers, user_id = sign_in("importer@example.com", display_name="Ima Porter")
    return Importer(client, headers, user_id)


def group_rows(group_id: str) -> List[str]:
    """Every sort key left in a group's partition."""
    return [sk for page in GroupItem.raw_pages(group_id, keys_only=True) for _, sk in page]


def all_group_keys() -> set:
    """Every (GroupId, SK) in the table (tests' tables are tiny)."""
    keys, start = set(), None
    while True:
        items, start = GroupItem.raw_scan_page(attributes=["GroupId", "SK"], start=start)
        keys |= {(item["GroupId"]["S"], item["SK"]["S"]) for item in items}
        if not start:
            return keys


def user_rows(user_id: str) -> List[str]:
    return [sk for page in UserItem.raw_pages(user_id, keys_only=True) for _, sk in page]


@pytest.fixture
def held_imports():
    """Imports handed off but not run (the queue holding them): a list of (groupId, importId)."""
    held: list = []
    handoff.use_local_runner("import", lambda m: held.append((m["groupId"], m["importId"])))
    yield held
    handoff.use_local_runner("import", None)
