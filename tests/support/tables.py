"""Tables for tests, created from template.yaml (the single source of truth for their shapes)."""
from __future__ import annotations

import contextlib
import copy

import boto3
from moto import mock_aws

import models
from app.local.template_tables import create_tables, load_table_specs

REGION = "us-east-1"
# stage -> (account id, {table name: the moto Table as create_tables left it, still empty})
_pristine: dict[str, tuple[str, dict]] = {}


def create_all_tables(stage: str) -> None:
    """The template's tables in the active in-process moto (inside ``mock_aws``).

    The first call per stage creates them through DynamoDB's API (create_table, waiter, TTL:
    ~25 calls, most of a test's set-up) and keeps a copy of the empty tables moto built; later
    calls, each in a freshly reset moto, put copies of those in place: the same tables in the
    same state, at a fraction of the cost. tests/deploy/test_fresh_tables.py proves a copy
    describes exactly as created tables do and shares no state with the tables of a test before."""
    from moto.dynamodb.models import dynamodb_backends

    if stage in _pristine:
        account, tables = _pristine[stage]
        backend = dynamodb_backends[account][REGION]
        for name, table in tables.items():
            if name not in backend.tables:  # as create_tables: existing tables are left alone
                backend.tables[name] = copy.deepcopy(table)
        return
    names = [spec["TableName"] for spec in load_table_specs(stage).values()]
    create_tables(boto3.client("dynamodb", region_name=REGION), stage)
    for account in list(dynamodb_backends):
        backend = dynamodb_backends[account][REGION]
        if all(name in backend.tables for name in names) and \
                not any(backend.tables[name].items for name in names):
            _pristine[stage] = (account, {name: copy.deepcopy(backend.tables[name])
                                          for name in names})
            return


@contextlib.contextmanager
def shared_moto_tables(stage: str):
    """One moto DynamoDB for a whole module: yields (raw client, {table: key attribute names}).

    Modules that share it empty the tables between tests (:func:`empty_tables`) instead of
    recreating them, which is most of what makes moto tests slow."""
    with mock_aws():
        models.configure(stage=stage, region="us-east-1", host=None)
        create_all_tables(stage)
        client = boto3.client("dynamodb", region_name="us-east-1")
        key_names = {}
        for name in client.list_tables()["TableNames"]:
            schema = client.describe_table(TableName=name)["Table"]["KeySchema"]
            key_names[name] = [part["AttributeName"] for part in schema]
        yield client, key_names


def scan_all(client, table: str) -> list:
    """Every item of a table (consistent), following LastEvaluatedKey."""
    items, kwargs = [], {"TableName": table, "ConsistentRead": True}
    while True:
        page = client.scan(**kwargs)
        items.extend(page["Items"])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def empty_tables(client, key_names: dict) -> None:
    for table, keys in key_names.items():
        for row in scan_all(client, table):
            client.delete_item(TableName=table, Key={k: row[k] for k in keys})
