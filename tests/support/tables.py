"""Tables for tests, created from template.yaml (the single source of truth for their shapes)."""
from __future__ import annotations

import contextlib

import boto3
from moto import mock_aws

import models
from app.local.template_tables import create_tables


def create_all_tables(stage: str) -> None:
    create_tables(boto3.client("dynamodb", region_name="us-east-1"), stage)


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
