"""The PynamoDB models and template.yaml describe the same tables, keys and indexes."""
from __future__ import annotations

import pytest
import yaml

import models
from app.local import template_tables
from app.local.template_tables import load_table_specs, load_template, ttl_attributes
from models.base import physical_name

STAGE = "agree"
SPECS = load_table_specs(STAGE)
MODELS = models.registered_tables()
TEMPLATE = load_template()


def _keys(key_schema) -> dict:
    return {entry["KeyType"]: entry["AttributeName"] for entry in key_schema}


def _model_indexes(model) -> dict:
    return {index["index_name"]: index for index in
            model._get_schema().get("global_secondary_indexes", [])}


def _projection(projection: dict) -> tuple:
    return projection["ProjectionType"], frozenset(projection.get("NonKeyAttributes", []))


def test_every_template_table_has_a_model_and_back():
    assert set(SPECS) == set(MODELS) == {"users", "identities", "groups", "developer-tokens",
                                         "people", "notifications", "rate-limits", "fx-rates"}


@pytest.mark.parametrize("table", sorted(SPECS))
def test_table_names_follow_the_stage_pattern(table):
    assert SPECS[table]["TableName"] == physical_name(table, STAGE) == f"tailspend-{STAGE}-{table}"


@pytest.mark.parametrize("table", sorted(SPECS))
def test_primary_keys_agree(table):
    schema = MODELS[table]._get_schema()
    assert _keys(schema["key_schema"]) == _keys(SPECS[table]["KeySchema"])


@pytest.mark.parametrize("table", sorted(SPECS))
def test_key_attribute_types_agree(table):
    model_types = {a["AttributeName"]: a["AttributeType"]
                   for a in MODELS[table]._get_schema()["attribute_definitions"]}
    template_types = {a["AttributeName"]: a["AttributeType"]
                      for a in SPECS[table]["AttributeDefinitions"]}
    assert model_types == template_types


@pytest.mark.parametrize("table", sorted(SPECS))
def test_indexes_agree_in_keys_and_projection(table):
    model_indexes = _model_indexes(MODELS[table])
    template_indexes = {i["IndexName"]: i for i in SPECS[table].get("GlobalSecondaryIndexes", [])}
    assert set(model_indexes) == set(template_indexes)
    for name, index in template_indexes.items():
        model_index = model_indexes[name]
        assert _keys(model_index["key_schema"]) == _keys(index["KeySchema"]), name
        assert _projection(model_index["projection"]) == _projection(index["Projection"]), name


def test_include_indexes_project_the_discriminator():
    """PynamoDB filters polymorphic queries on EntityType: an INCLUDE index without it is empty."""
    for table, spec in SPECS.items():
        for index in spec.get("GlobalSecondaryIndexes", []):
            kind, attrs = _projection(index["Projection"])
            if kind == "INCLUDE":
                assert "EntityType" in attrs, (table, index["IndexName"])


def test_ttl_attributes_exist_on_the_models():
    for table, attribute in ttl_attributes(STAGE).items():
        assert attribute == "ExpiresAt"
        base = MODELS[table]
        declared = set(base.get_attributes())
        for sub in base.__subclasses__():
            declared |= set(sub.get_attributes())
        assert attribute in declared, table


def test_only_the_notifications_and_groups_tables_stream():
    # notifications: the outbox worker; groups: the realtime publisher (issue 36).
    streaming = {t for t, spec in SPECS.items() if spec.get("StreamSpecification")}
    assert streaming == {"notifications", "groups"}
    assert SPECS["notifications"]["StreamSpecification"]["StreamViewType"] == "NEW_IMAGE"
    assert SPECS["groups"]["StreamSpecification"]["StreamViewType"] == "NEW_IMAGE"


def _table_logical_ids() -> dict:
    """Short table name -> the table's logical id in the template."""
    return {resource["Properties"]["TableName"]["Fn::Sub"].removeprefix("tailspend-${Stage}-"): logical_id
            for logical_id, resource in TEMPLATE["Resources"].items()
            if resource["Type"] == "AWS::DynamoDB::Table"}


def _throttle_metrics(logical_id: str) -> dict:
    """Metric name -> the metric-math ids that sum into a throttle alarm of this table."""
    found = {}
    for alarm in TEMPLATE["Resources"].values():
        if alarm["Type"] != "AWS::CloudWatch::Alarm" or "Metrics" not in alarm["Properties"]:
            continue
        queries = alarm["Properties"]["Metrics"]
        (total,) = [q for q in queries if q.get("ReturnData")]
        for query in queries:
            metric = query.get("MetricStat", {}).get("Metric", {})
            tables = [d["Value"] for d in metric.get("Dimensions", []) if d["Name"] == "TableName"]
            if tables == [{"Ref": logical_id}] and query["Id"] in total["Expression"]:
                found.setdefault(metric["MetricName"], []).append(
                    (alarm["Properties"]["AlarmActions"], alarm["Properties"]["Threshold"]))
    return found


@pytest.mark.parametrize("table", sorted(MODELS))
def test_every_model_table_has_read_and_write_throttle_alarms(table):
    metrics = _throttle_metrics(_table_logical_ids()[table])

    assert {"ReadThrottleEvents", "WriteThrottleEvents"} <= set(metrics)
    for name in ("ReadThrottleEvents", "WriteThrottleEvents"):
        for actions, threshold in metrics[name]:
            assert actions == [{"Ref": "AlarmTopic"}], name
            assert threshold == 0, name


def test_the_template_is_read_by_libyaml_and_as_the_pure_python_loader_reads_it():
    """libyaml reads the template in an eighth of the time (every `serve` start pays it);
    the pure-Python safe loader with the same intrinsics must build the very same data."""
    assert issubclass(template_tables._CloudFormationLoader, yaml.CSafeLoader)

    class PurePython(yaml.SafeLoader):
        pass

    PurePython.add_multi_constructor("!", template_tables._construct_intrinsic)
    text = template_tables.TEMPLATE_PATH.read_text(encoding="utf-8")
    assert yaml.load(text, Loader=PurePython) == TEMPLATE
    assert TEMPLATE["Resources"]["ApiFunction"]["Properties"]["Handler"]  # parsed, not empty
