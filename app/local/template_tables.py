"""DynamoDB table shapes read from template.yaml, so local mode and tests build what deploys."""
from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

import yaml

TEMPLATE_PATH = Path(__file__).resolve().parents[2] / "template.yaml"

_TABLE_TYPE = "AWS::DynamoDB::Table"
_SUB_VARIABLE = re.compile(r"\$\{([^}!]+)\}")


# libyaml's safe loader when PyYAML was built with it (its wheels are): the template's ~1,300
# mappings took 0.2 s in the pure-Python scanner and 0.025 s in libyaml, on every `serve` start
# and in every test process that builds tables. Both build the same data.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CloudFormationLoader(_SafeLoader):
    """A safe loader that reads short-form intrinsics (`!Sub x`) as their long form."""


def _construct_intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    name = suffix if suffix in ("Ref", "Condition") else f"Fn::{suffix}"
    return {name: value}


_CloudFormationLoader.add_multi_constructor("!", _construct_intrinsic)


@functools.lru_cache(maxsize=8)
def _parse(path: str, mtime_ns: int) -> dict:
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_CloudFormationLoader)  # a safe loader's subclass


def load_template(template_path: Path = TEMPLATE_PATH) -> dict:
    """The whole template as plain data, short-form intrinsics in their long form."""
    path = Path(template_path)
    return copy.deepcopy(_parse(str(path), path.stat().st_mtime_ns))


def _tables(template_path: Path) -> dict[str, dict]:
    return {
        logical_id: resource.get("Properties", {})
        for logical_id, resource in load_template(template_path).get("Resources", {}).items()
        if resource.get("Type") == _TABLE_TYPE
    }


def _resolve(value: Any, stage: str) -> str:
    """Resolve a literal, `!Ref Stage` or `!Sub` over Stage; anything else is an error."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and value == {"Ref": "Stage"}:
        return stage
    if isinstance(value, dict) and "Fn::Sub" in value:
        text = value["Fn::Sub"]
        if isinstance(text, list):
            text = text[0]

        def substitute(match: re.Match) -> str:
            if match.group(1) != "Stage":
                raise ValueError(f"cannot resolve ${{{match.group(1)}}} in {text!r} locally")
            return stage

        return _SUB_VARIABLE.sub(substitute, text)
    raise ValueError(f"cannot resolve {value!r} locally")


def _short_name(table_name: str, stage: str) -> str:
    prefix = f"tailspend-{stage}-"
    return table_name[len(prefix):] if table_name.startswith(prefix) else table_name


def _index(index: dict) -> dict:
    return {
        "IndexName": index["IndexName"],
        "KeySchema": index["KeySchema"],
        "Projection": index["Projection"],
    }


def _create_table_kwargs(properties: dict, stage: str) -> dict:
    kwargs: dict[str, Any] = {
        "TableName": _resolve(properties["TableName"], stage),
        "KeySchema": properties["KeySchema"],
        "AttributeDefinitions": properties["AttributeDefinitions"],
        "BillingMode": properties.get("BillingMode", "PAY_PER_REQUEST"),
    }
    if "ProvisionedThroughput" in properties:
        kwargs["ProvisionedThroughput"] = properties["ProvisionedThroughput"]
    for key in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        if properties.get(key):
            kwargs[key] = [_index(index) for index in properties[key]]
    stream = properties.get("StreamSpecification")
    if stream:
        kwargs["StreamSpecification"] = {
            "StreamEnabled": True,
            "StreamViewType": stream["StreamViewType"],
        }
    return kwargs


def load_table_specs(stage: str, template_path: Path = TEMPLATE_PATH) -> dict[str, dict]:
    """Map each table's short name ("groups") to boto3 `create_table` keyword arguments."""
    specs = {}
    for properties in _tables(Path(template_path)).values():
        kwargs = _create_table_kwargs(properties, stage)
        specs[_short_name(kwargs["TableName"], stage)] = kwargs
    return specs


def ttl_attributes(stage: str, template_path: Path = TEMPLATE_PATH) -> dict[str, str]:
    """Map each table with TTL enabled to its TTL attribute name."""
    result = {}
    for properties in _tables(Path(template_path)).values():
        ttl = properties.get("TimeToLiveSpecification") or {}
        if ttl.get("Enabled") in (True, "true", "True"):
            name = _short_name(_resolve(properties["TableName"], stage), stage)
            result[name] = ttl["AttributeName"]
    return result


def _existing_tables(client) -> set[str]:
    names: set[str] = set()
    for page in client.get_paginator("list_tables").paginate():
        names.update(page["TableNames"])
    return names


def _ensure_ttl(client, table_name: str, attribute: str) -> None:
    description = client.describe_time_to_live(TableName=table_name)["TimeToLiveDescription"]
    if description.get("TimeToLiveStatus") in ("ENABLED", "ENABLING"):
        return
    client.update_time_to_live(
        TableName=table_name,
        TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute},
    )


def create_tables(client, stage: str, template_path: Path = TEMPLATE_PATH) -> list[str]:
    """Create the template's missing tables (and their TTL); return the names created.

    Existing tables are left alone apart from switching TTL on when it is off, so running
    this at every start-up is safe.
    """
    specs = load_table_specs(stage, template_path)
    ttl = ttl_attributes(stage, template_path)
    existing = _existing_tables(client)
    created = []
    for short_name, kwargs in specs.items():
        table_name = kwargs["TableName"]
        if table_name not in existing:
            client.create_table(**kwargs)
            client.get_waiter("table_exists").wait(
                TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 60}
            )
            created.append(table_name)
        if short_name in ttl:
            _ensure_ttl(client, table_name, ttl[short_name])
    return created
