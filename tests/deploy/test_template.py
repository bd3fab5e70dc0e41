"""template.yaml: validators run clean, tables build from it, and its production wiring holds."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from app.local.template_tables import (
    TEMPLATE_PATH,
    create_tables,
    load_table_specs,
    load_template,
    ttl_attributes,
)

REPO = Path(__file__).resolve().parents[2]
EVENTS = REPO / "events"
SAM = REPO / ".venv-sam" / "bin" / "sam"

TABLES = ["users", "identities", "groups", "developer-tokens", "people", "notifications", "rate-limits"]

# short name -> (key schema, {index: (key attributes, projection type, non-key attributes)})
TABLE_SHAPES = {
    "users": (["UserId", "SK"], {"ScanRecoveryIndex": (["RecoveryState", "RecoveryDueAt"], "KEYS_ONLY", None)}),
    "identities": (["IdentityKey"], {"UserIdentitiesIndex": (["UserId", "CreatedAt"], "ALL", None)}),
    "groups": (["GroupId", "SK"], {
        "PendingJoinRequestsIndex": (["PendingKey", "CreatedAt"], "ALL", None),
        "UserPendingJoinRequestsIndex": (["UserPendingKey", "GroupId"], "ALL", None),
        "GroupExpensesIndex": (["GroupId", "ExpenseSortKey"], "ALL", None),
        "ExpenseIdIndex": (["ExpenseId"], "KEYS_ONLY", None),
        "UserParticipantsIndex": (["UserId", "GroupId"], "INCLUDE", {"EntityType", "ParticipantId", "Role"}),
        "DueRecurringExpensesIndex": (["DueBucket", "NextRunAt"], "ALL", None),
    }),
    "developer-tokens": (["TokenId", "SK"], {
        "OwnerTokensIndex": (["UserId", "CreatedAt"], "INCLUDE", {
            "EntityType", "Name", "Scopes", "ExpiresAt", "RevokedAt", "LastUsedAt", "Prefix"}),
    }),
    "people": (["PK", "SK"], {
        "DirectoryIndex": (["DirKey", "DirSort"], "INCLUDE", {"EntityType", "UserId", "DisplayName", "Handle"}),
        "GroupInvitesIndex": (["GroupId", "InviteeUserId"], "ALL", None),
    }),
    "notifications": (["PK", "SK"], {"PendingEventsIndex": (["PendingKey", "CreatedAt"], "ALL", None)}),
    "rate-limits": (["Key"], {}),
}

HANDLERS = {
    "ApiFunction": "app.handlers.api.lambda_handler",
    "ProvisioningFunction": "app.handlers.provisioning.lambda_handler",
    "HourlyTickFunction": "app.handlers.hourly.lambda_handler",
    "NotificationWorkerFunction": "app.handlers.notifications.lambda_handler",
    "MaintenanceFunction": "app.handlers.maintenance.lambda_handler",
}


def _resources(kind: str) -> dict[str, dict]:
    return {name: r for name, r in load_template()["Resources"].items() if r["Type"] == kind}


def _tool_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("AWS_PROFILE", "AWS_SESSION_TOKEN")}
    env.update(
        SAM_CLI_TELEMETRY="0",
        AWS_DEFAULT_REGION="us-east-1",
        AWS_REGION="us-east-1",
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
    )
    return env


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=REPO, env=_tool_env(), capture_output=True, text=True, timeout=300, check=False
    )


def _sam() -> str:
    if not SAM.exists():
        pytest.fail(
            f"aws-sam-cli not found at {SAM}; `make test` installs it "
            "(python3 -m venv .venv-sam && .venv-sam/bin/pip install aws-sam-cli==1.170.0)"
        )
    return str(SAM)


def _cfn_lint() -> str:
    beside_python = Path(sys.executable).parent / "cfn-lint"
    found = str(beside_python) if beside_python.exists() else shutil.which("cfn-lint")
    if not found:
        pytest.fail("cfn-lint not found next to the test interpreter; install requirements-dev.txt")
    return found


# ---------------------------------------------------------------- validators


def test_sam_validate_lint_is_clean():
    result = _run([_sam(), "validate", "--lint", "--template-file", str(TEMPLATE_PATH)])
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "is a valid SAM Template" in output, output


def test_sam_validate_translator_is_clean():
    result = _run([_sam(), "validate", "--region", "us-east-1", "--template-file", str(TEMPLATE_PATH)])
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "is a valid SAM Template" in output, output


def test_cfn_lint_reports_nothing():
    # cfn-lint exits non-zero for errors (2), warnings (4) and informational findings (8).
    result = _run([_cfn_lint(), str(TEMPLATE_PATH)])
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- tables from the template


def test_load_table_specs_names_every_table_for_the_stage():
    specs = load_table_specs("test")

    assert sorted(specs) == sorted(TABLES)
    assert {short: spec["TableName"] for short, spec in specs.items()} == {
        short: f"tailspend-test-{short}" for short in TABLES
    }
    assert {spec["BillingMode"] for spec in specs.values()} == {"PAY_PER_REQUEST"}


def test_table_specs_have_the_designed_keys_and_sparse_indexes():
    specs = load_table_specs("test")

    for short, (keys, indexes) in TABLE_SHAPES.items():
        spec = specs[short]
        assert [k["AttributeName"] for k in spec["KeySchema"]] == keys, short
        actual = {
            index["IndexName"]: (
                [k["AttributeName"] for k in index["KeySchema"]],
                index["Projection"]["ProjectionType"],
                set(index["Projection"]["NonKeyAttributes"]) if "NonKeyAttributes" in index["Projection"] else None,
            )
            for index in spec.get("GlobalSecondaryIndexes", [])
        }
        assert actual == indexes, short
        declared = {a["AttributeName"]: a["AttributeType"] for a in spec["AttributeDefinitions"]}
        used = set(keys) | {name for key_names, _, _ in indexes.values() for name in key_names}
        assert declared == dict.fromkeys(used, "S"), short


def test_only_notifications_streams_new_images():
    specs = load_table_specs("test")

    streams = {short: spec["StreamSpecification"] for short, spec in specs.items() if "StreamSpecification" in spec}
    assert streams == {"notifications": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}}


@pytest.fixture
def dynamodb(monkeypatch):
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "DYNAMODB_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        yield boto3.client("dynamodb", region_name="us-east-1")


def test_create_tables_builds_all_seven_with_their_indexes(dynamodb):
    created = create_tables(dynamodb, "test")

    assert sorted(created) == sorted(f"tailspend-test-{short}" for short in TABLES)
    for short, (_, indexes) in TABLE_SHAPES.items():
        table = dynamodb.describe_table(TableName=f"tailspend-test-{short}")["Table"]
        assert {i["IndexName"] for i in table.get("GlobalSecondaryIndexes", [])} == set(indexes), short
    notifications = dynamodb.describe_table(TableName="tailspend-test-notifications")["Table"]
    assert notifications["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}


def test_create_tables_is_idempotent(dynamodb):
    create_tables(dynamodb, "test")

    assert create_tables(dynamodb, "test") == []
    assert len(dynamodb.list_tables()["TableNames"]) == len(TABLES)


def test_create_tables_enables_ttl_where_the_template_says(dynamodb):
    create_tables(dynamodb, "test")

    expected = ttl_attributes("test")
    assert expected == {
        "users": "ExpiresAt", "developer-tokens": "ExpiresAt",
        "notifications": "ExpiresAt", "rate-limits": "ExpiresAt",
    }
    for short in TABLES:
        ttl = dynamodb.describe_time_to_live(TableName=f"tailspend-test-{short}")["TimeToLiveDescription"]
        if short in expected:
            assert ttl["TimeToLiveStatus"] == "ENABLED", short
            assert ttl["AttributeName"] == expected[short], short
        else:
            assert ttl["TimeToLiveStatus"] == "DISABLED", short


# ---------------------------------------------------------------- production wiring


def test_every_table_is_retained_encrypted_and_recoverable():
    tables = _resources("AWS::DynamoDB::Table")

    assert len(tables) == len(TABLES)
    for name, table in tables.items():
        props = table["Properties"]
        assert table["DeletionPolicy"] == "Retain", name
        assert table["UpdateReplacePolicy"] == "Retain", name
        assert props["BillingMode"] == "PAY_PER_REQUEST", name
        assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}, name
        assert props["SSESpecification"] == {"SSEEnabled": True}, name


def test_functions_point_at_the_fixed_handler_modules():
    functions = _resources("AWS::Serverless::Function")

    assert {name: f["Properties"]["Handler"] for name, f in functions.items()} == HANDLERS
    for handler in HANDLERS.values():
        module = handler.rsplit(".", 1)[0]
        assert (REPO / (module.replace(".", "/") + ".py")).is_file(), handler


def test_every_function_has_a_log_group_with_the_retention_parameter():
    functions = _resources("AWS::Serverless::Function")
    log_groups = {
        g["Properties"]["LogGroupName"]["Fn::Sub"]: g["Properties"]
        for g in _resources("AWS::Logs::LogGroup").values()
    }

    for name, function in functions.items():
        function_name = function["Properties"]["FunctionName"]["Fn::Sub"]
        assert function_name.startswith("tailspend-${Stage}-"), name
        group = log_groups[f"/aws/lambda/{function_name}"]
        assert group["RetentionInDays"] == {"Ref": "LogRetentionDays"}, name


def test_provisioning_function_does_not_reference_the_user_pool():
    # The pool's LambdaConfig points at this function; a reference back is a circular dependency.
    provisioning = _resources("AWS::Serverless::Function")["ProvisioningFunction"]

    assert "UserPool" not in json.dumps(provisioning)


def test_stream_mapping_bisects_retries_a_bounded_number_of_times_and_filters_events():
    worker = _resources("AWS::Serverless::Function")["NotificationWorkerFunction"]["Properties"]
    (stream,) = [e["Properties"] for e in worker["Events"].values() if e["Type"] == "DynamoDB"]

    assert stream["Stream"] == {"Fn::GetAtt": ["NotificationsTable", "StreamArn"]}
    assert stream["StartingPosition"] == "LATEST"
    assert stream["BisectBatchOnFunctionError"] is True
    assert stream["MaximumRetryAttempts"] == 3
    assert stream["MaximumRecordAgeInSeconds"] == 3600
    assert stream["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert stream["DestinationConfig"]["OnFailure"] == {
        "Type": "SQS",
        "Destination": {"Fn::GetAtt": ["NotificationFailuresQueue", "Arn"]},
    }
    (pattern,) = [json.loads(f["Pattern"]) for f in stream["FilterCriteria"]["Filters"]]
    assert pattern == {"eventName": ["INSERT"], "dynamodb": {"NewImage": {"EntityType": {"S": ["EVENT"]}}}}


def _matches(pattern: dict, record: dict) -> bool:
    """The subset of EventBridge-style filter matching the stream filter uses: exact values."""
    for key, expected in pattern.items():
        if key not in record:
            return False
        if isinstance(expected, dict):
            if not isinstance(record[key], dict) or not _matches(expected, record[key]):
                return False
        elif record[key] not in expected:
            return False
    return True


def test_canned_stream_event_passes_the_deployed_filter():
    worker = _resources("AWS::Serverless::Function")["NotificationWorkerFunction"]["Properties"]
    pattern = json.loads(worker["Events"]["NotificationsStream"]["Properties"]["FilterCriteria"]["Filters"][0]["Pattern"])
    records = json.loads((EVENTS / "notifications_stream.json").read_text())["Records"]

    assert len(records) == 2
    assert all(_matches(pattern, record) for record in records)
    modified = {**records[0], "eventName": "MODIFY"}
    history_row = json.loads(json.dumps(records[0]))
    history_row["dynamodb"]["NewImage"]["EntityType"] = {"S": "NOTIFICATION"}
    assert not _matches(pattern, modified)
    assert not _matches(pattern, history_row)


def test_local_env_vars_are_declared_in_the_template():
    # `sam local --env-vars` silently drops variables the template does not declare.
    declared = load_template()["Globals"]["Function"]["Environment"]["Variables"]
    overrides = json.loads((EVENTS / "env-local.json").read_text())["Parameters"]

    assert set(overrides) <= set(declared)
    assert declared["DYNAMODB_ENDPOINT"] == "" and declared["TAILSPEND_LOCAL"] == ""


def test_canned_events_are_valid_json():
    files = sorted(EVENTS.glob("*.json"))

    assert len(files) >= 12
    for path in files:
        assert isinstance(json.loads(path.read_text()), dict), path.name
