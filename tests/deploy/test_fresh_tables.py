"""The tests' fast fresh tables (copies of moto's first-built empty tables) equal built ones."""
from __future__ import annotations

import boto3
from moto import mock_aws

from tests.support.tables import create_all_tables

REGION = "us-east-1"
_USER = {"UserId": {"S": "u1"}, "SK": {"S": "PROFILE"}}
_VOLATILE = {"CreationDateTime", "LatestStreamLabel", "LatestStreamArn", "TableArn",
             "IndexArn", "TableId"}


def _described(client, stage: str) -> dict:
    """Every table of a stage as DescribeTable, TTL and tags show it, stage and clocks elided."""
    def scrub(value):
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items() if k not in _VOLATILE}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value.replace(f"-{stage}-", "-STAGE-") if isinstance(value, str) else value

    result = {}
    for name in client.list_tables()["TableNames"]:
        if name.startswith(f"tailspend-{stage}-"):
            table = client.describe_table(TableName=name)["Table"]
            arn = table["TableArn"]
            result[scrub(name)] = scrub({
                "table": table,
                "ttl": client.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
                "tags": client.list_tags_of_resource(ResourceArn=arn).get("Tags", []),
                "stream": bool(table.get("LatestStreamArn"))})
    return result


def test_copied_tables_describe_exactly_as_tables_built_through_the_api():
    with mock_aws():
        create_all_tables("copied")  # the first call for a stage builds through the API
    with mock_aws():
        create_all_tables("copied")  # a later one copies
        client = boto3.client("dynamodb", region_name=REGION)
        from app.local.template_tables import create_tables
        create_tables(client, "built")
        copied, built = _described(client, "copied"), _described(client, "built")
    assert len(copied) == 8
    assert copied == built


def test_a_copy_starts_empty_whatever_the_tables_before_it_held():
    with mock_aws():
        create_all_tables("leaky")
        client = boto3.client("dynamodb", region_name=REGION)
        client.put_item(TableName="tailspend-leaky-users", Item=_USER)
    for _ in range(2):  # the second copy proves the first one's write stayed in the first
        with mock_aws():
            create_all_tables("leaky")
            client = boto3.client("dynamodb", region_name=REGION)
            assert client.scan(TableName="tailspend-leaky-users")["Items"] == []
            client.put_item(TableName="tailspend-leaky-users", Item=_USER)
            assert client.describe_table(
                TableName="tailspend-leaky-users")["Table"]["ItemCount"] == 1


def test_existing_tables_are_left_alone_as_create_tables_leaves_them():
    with mock_aws():
        create_all_tables("again")
    with mock_aws():
        create_all_tables("again")
        client = boto3.client("dynamodb", region_name=REGION)
        client.put_item(TableName="tailspend-again-users", Item=_USER)
        create_all_tables("again")
        assert len(client.scan(TableName="tailspend-again-users")["Items"]) == 1
