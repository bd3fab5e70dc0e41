"""template.yaml: validators run clean, tables build from it, and its production wiring holds."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from app import create_app
from app.config import Settings
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

TABLES = ["users", "identities", "groups", "developer-tokens", "people", "notifications", "rate-limits",
          "fx-rates"]

# short name -> (key schema, {index: (key attributes, projection type, non-key attributes)})
TABLE_SHAPES = {
    "users": (["UserId", "SK"], {"ScanRecoveryIndex": (["RecoveryState", "RecoveryDueAt"], "KEYS_ONLY", None)}),
    "identities": (["IdentityKey"], {"UserIdentitiesIndex": (["UserId", "CreatedAt"], "ALL", None)}),
    "groups": (["GroupId", "SK"], {
        "PendingJoinRequestsIndex": (["PendingKey", "CreatedAt"], "ALL", None),
        "UserPendingJoinRequestsIndex": (["UserPendingKey", "GroupId"], "ALL", None),
        # Every money row by date, then creation: the expense listing (expense and income
        # heads) and a participant's statement (issue 46: settlements and conversions too).
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
    "notifications": (["PK", "SK"], {}),
    "rate-limits": (["Key"], {}),
    "fx-rates": (["Key"], {}),
}

HANDLERS = {
    "ApiFunction": "app.handlers.api.lambda_handler",
    "ProvisioningFunction": "app.handlers.provisioning.lambda_handler",
    "HourlyTickFunction": "app.handlers.hourly.lambda_handler",
    "NotificationWorkerFunction": "app.handlers.notifications.lambda_handler",
    "MaintenanceFunction": "app.handlers.maintenance.lambda_handler",
    "RecurringBucketWorkerFunction": "app.handlers.recurring_bucket.lambda_handler",
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


def test_only_notifications_and_groups_stream_new_images():
    # notifications: the outbox's worker; groups: the realtime publisher (keys + new image).
    specs = load_table_specs("test")

    streams = {short: spec["StreamSpecification"] for short, spec in specs.items() if "StreamSpecification" in spec}
    assert streams == {"notifications": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
                       "groups": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}}


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
        "groups": "ExpiresAt",  # CHANGE rows (docs/changes.md)
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
    api = load_template()["Resources"]["ApiFunction"]["Properties"]["Environment"]["Variables"]
    overrides = json.loads((EVENTS / "env-local.json").read_text())["Parameters"]

    # SAM local overrides a variable in each function that declares it (globally or its own).
    assert set(overrides) <= set(declared) | set(api)
    assert declared["DYNAMODB_ENDPOINT"] == "" and declared["TAILSPEND_LOCAL"] == ""
    # `sam local start-api` has no CloudFront in front: no origin header to check.
    assert overrides["ORIGIN_VERIFY_SECRET_ARN"] == ""


def test_canned_events_are_valid_json():
    files = sorted(EVENTS.glob("*.json"))

    assert len(files) >= 12
    for path in files:
        assert isinstance(json.loads(path.read_text()), dict), path.name


# ---------------------------------------------------------------- hardening: alarms


def test_every_alarm_notifies_the_one_alarm_topic():
    alarms = _resources("AWS::CloudWatch::Alarm")
    # the other topic carries SES feedback to its function, never alarms
    (topic,) = set(_resources("AWS::SNS::Topic")) - {"MailFeedbackTopic"}

    assert len(alarms) >= 5 + len(TABLES) + 3
    assert {name: a["Properties"].get("AlarmActions") for name, a in alarms.items()} == dict.fromkeys(
        alarms, [{"Ref": topic}])


def test_alarm_email_subscription_exists_only_when_an_address_is_given():
    template = load_template()
    email = template["Parameters"]["AlarmEmail"]
    (subscription,) = _resources("AWS::SNS::Subscription").values()

    assert email["Default"] == ""
    assert template["Conditions"][subscription["Condition"]] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmEmail"}, ""]}]}
    assert subscription["Properties"] == {"TopicArn": {"Ref": "AlarmTopic"}, "Protocol": "email",
                                          "Endpoint": {"Ref": "AlarmEmail"}}


# scheduled function -> its on-failure queue
SCHEDULED_FAILURE_QUEUES = {
    "HourlyTickFunction": "HourlyTickFailuresQueue",
    "MaintenanceFunction": "MaintenanceFailuresQueue",
}


@pytest.mark.parametrize("function,queue", sorted(SCHEDULED_FAILURE_QUEUES.items()))
def test_scheduled_function_sends_failed_runs_to_its_own_queue(function, queue):
    props = _resources("AWS::Serverless::Function")[function]["Properties"]
    queues = _resources("AWS::SQS::Queue")

    assert {e["Type"] for e in props["Events"].values()} == {"Schedule"}
    invoke = props["EventInvokeConfig"]
    assert invoke["DestinationConfig"]["OnFailure"] == {
        "Type": "SQS", "Destination": {"Fn::GetAtt": [queue, "Arn"]}}
    assert 0 <= invoke["MaximumRetryAttempts"] <= 2
    assert 60 <= invoke["MaximumEventAgeInSeconds"] <= 6 * 3600
    assert queues[queue]["Properties"]["SqsManagedSseEnabled"] is True
    assert queues[queue]["Properties"]["MessageRetentionPeriod"] == 1209600


def test_scheduled_functions_are_exactly_the_ones_with_failure_queues():
    functions = _resources("AWS::Serverless::Function")
    scheduled = {name for name, f in functions.items()
                 if any(e["Type"] == "Schedule" for e in f["Properties"].get("Events", {}).values())}

    assert scheduled == set(SCHEDULED_FAILURE_QUEUES)


WORK_QUEUES = {"RecurringBucketQueue"}


def test_work_queues_alarm_on_backlog_age_and_redrive_to_an_alarmed_dlq():
    queues = _resources("AWS::SQS::Queue")
    alarms = [a["Properties"] for a in _resources("AWS::CloudWatch::Alarm").values()]
    for queue in WORK_QUEUES:
        props = queues[queue]["Properties"]
        dlq = props["RedrivePolicy"]["deadLetterTargetArn"]["Fn::GetAtt"][0]
        assert dlq in queues and props["SqsManagedSseEnabled"] is True
        assert props["VisibilityTimeout"] > 900  # above the worker's timeout
        ages = [a for a in alarms if a.get("MetricName") == "ApproximateAgeOfOldestMessage"
                and a["Dimensions"][0]["Value"]["Fn::GetAtt"][0] == queue]
        assert len(ages) == 1, queue


def test_hourly_tick_fans_out_one_message_per_bucket_to_the_worker():
    functions = _resources("AWS::Serverless::Function")
    tick = functions["HourlyTickFunction"]["Properties"]
    worker = functions["RecurringBucketWorkerFunction"]["Properties"]
    assert tick["Environment"]["Variables"]["RECURRING_BUCKET_QUEUE_URL"] == {
        "Ref": "RecurringBucketQueue"}
    assert {"SQSSendMessagePolicy": {"QueueName": {"Fn::GetAtt": [
        "RecurringBucketQueue", "QueueName"]}}} in tick["Policies"]
    (source,) = [e["Properties"] for e in worker["Events"].values() if e["Type"] == "SQS"]
    assert source["Queue"] == {"Fn::GetAtt": ["RecurringBucketQueue", "Arn"]}
    assert source["BatchSize"] == 1
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


def test_every_queue_has_a_depth_alarm():
    depth_alarms = {
        a["Properties"]["Dimensions"][0]["Value"]["Fn::GetAtt"][0]: a["Properties"]
        for a in _resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"].get("MetricName") == "ApproximateNumberOfMessagesVisible"
    }

    queues = set(_resources("AWS::SQS::Queue"))
    # Work queues drain every hour: they are alarmed on the age of their oldest message.
    assert set(depth_alarms) == queues - WORK_QUEUES >= set(SCHEDULED_FAILURE_QUEUES.values())
    for queue, alarm in depth_alarms.items():
        assert alarm["Namespace"] == "AWS/SQS", queue
        assert alarm["Dimensions"][0]["Name"] == "QueueName", queue
        assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (0, "GreaterThanThreshold"), queue


# ---------------------------------------------------------------- hardening: IAM

_CRUD, _READ = "DynamoDBCrudPolicy", "DynamoDBReadPolicy"
# function -> {(policy template, table)}: the least each one needs, nothing more
FUNCTION_TABLE_POLICIES = {
    "ApiFunction": {(_CRUD, t) for t in ("UsersTable", "IdentitiesTable", "GroupsTable",
                                         "DeveloperTokensTable", "PeopleTable",
                                         "NotificationsTable", "RateLimitsTable")}
                   | {(_READ, "FxRatesTable")},
    "ProvisioningFunction": {(_CRUD, "UsersTable"), (_CRUD, "IdentitiesTable")},
    "HourlyTickFunction": set(),  # it only queues one message per bucket (issue 19)
    "RecurringBucketWorkerFunction": {(_CRUD, "GroupsTable"), (_CRUD, "NotificationsTable"),
                                      (_READ, "FxRatesTable")},
    "NotificationWorkerFunction": {(_CRUD, "NotificationsTable"), (_READ, "UsersTable"),
                                   (_READ, "GroupsTable")},
    # sweeps: resumed group deletes, outbox re-dispatch, invitation expiry, resumed account deletes
    "MaintenanceFunction": {(_CRUD, t) for t in ("GroupsTable", "NotificationsTable", "PeopleTable",
                                                 "UsersTable", "DeveloperTokensTable",
                                                 "IdentitiesTable", "FxRatesTable")},
}


@pytest.mark.parametrize("function", sorted(FUNCTION_TABLE_POLICIES))
def test_function_table_access_is_per_table_policy_templates(function):
    policies = _resources("AWS::Serverless::Function")[function]["Properties"]["Policies"]
    table_policies = {(kind, body["TableName"]["Ref"]) for policy in policies
                      for kind, body in policy.items() if kind.startswith("DynamoDB")}

    assert table_policies == FUNCTION_TABLE_POLICIES[function]
    assert all(isinstance(p, dict) for p in policies), "no managed or inline wildcard policies"


def test_the_worker_may_read_only_the_vapid_parameter_and_push_only_to_sns_endpoints():
    worker = _resources("AWS::Serverless::Function")["NotificationWorkerFunction"]["Properties"]
    conditional = [p["Fn::If"] for p in worker["Policies"] if "Fn::If" in p]
    by_condition = {condition: policy for condition, policy, _ in conditional}
    # issue 19: ssm:GetParameter on the one parameter (no Describe/ByPath); SNS per application.
    (vapid,) = by_condition["HasVapidKey"]["Statement"]
    assert vapid["Action"] == "ssm:GetParameter"
    assert vapid["Resource"]["Fn::Sub"].endswith(":parameter/${VapidPrivateKeyParameter}")
    statements = by_condition["HasMobilePush"]["Statement"]
    assert [s["Action"] for s in statements] == [
        "sns:CreatePlatformEndpoint", ["sns:Publish", "sns:DeleteEndpoint"]]
    env = worker["Environment"]["Variables"]
    assert {"VAPID_PRIVATE_KEY_PARAMETER", "VAPID_SUBJECT", "SNS_IOS_APPLICATION_ARN",
            "SNS_ANDROID_APPLICATION_ARN"} <= set(env)


# ---------------------------------------------------------------- hardening: CORS


def _origin_pattern():
    return re.compile(load_template()["Parameters"]["CorsAllowOrigins"]["AllowedPattern"])


@pytest.mark.parametrize("origin,allowed", [
    ("https://app.tailspend.example", True),
    ("http://localhost:5173", True),
    ("*", False),
    ("https://*.tailspend.example", False),
    ("https://app.tailspend.example/path", False),
    ("app.tailspend.example", False),
    ("SET-ME-to-the-https-web-origins", False),
    ("", False),
])
def test_cors_origin_pattern(origin, allowed):
    assert bool(_origin_pattern().fullmatch(origin)) is allowed


def test_cors_origins_are_a_list_reaching_the_app_joined():
    template = load_template()
    parameter = template["Parameters"]["CorsAllowOrigins"]
    api = template["Resources"]["ApiFunction"]["Properties"]

    assert parameter["Type"] == "CommaDelimitedList"
    assert "CorsAllowOrigin" not in template["Parameters"]
    assert api["Environment"]["Variables"]["CORS_ALLOW_ORIGIN"] == {
        "Fn::Join": [",", {"Ref": "CorsAllowOrigins"}]}


def test_preflights_reach_the_app_without_the_authorizer():
    api = _resources("AWS::Serverless::HttpApi")["HttpApi"]["Properties"]
    # issue 19: the routes are the API's DefinitionBody (a stage-scoped invoke permission).
    paths = api["DefinitionBody"]["paths"]

    assert "CorsConfiguration" not in api  # a gateway CORS answer could not choose per request
    # OPTIONS has no route of its own: ANY /{proxy+} sends it to the app, without a token.
    assert "x-amazon-apigateway-any-method" in paths["/{proxy+}"]
    assert "security" not in json.dumps(paths) and "Auth" not in api


def test_prod_samconfig_sets_a_placeholder_origin_the_template_rejects():
    config = tomllib.loads((REPO / "samconfig.toml").read_text())
    overrides = dict(item.split("=", 1) for item in
                     shlex.split(config["prod"]["deploy"]["parameters"]["parameter_overrides"]))

    assert overrides["Stage"] == "prod"
    origins = overrides["CorsAllowOrigins"].split(",")
    assert not any("localhost" in origin for origin in origins)
    # Unset, the deploy fails at the parameter check instead of shipping a wrong origin.
    assert not any(_origin_pattern().fullmatch(origin) for origin in origins)


PRIMARY, SECOND, STRANGER = "https://app.tailspend.example", "https://admin.tailspend.example", "https://evil.example"


@pytest.fixture(scope="module")
def cors_client(tmp_path_factory):
    """The app configured as the template configures it: CORS_ALLOW_ORIGIN = join(list)."""
    join = load_template()["Resources"]["ApiFunction"]["Properties"]["Environment"]["Variables"][
        "CORS_ALLOW_ORIGIN"]["Fn::Join"][0]
    env = {"CORS_ALLOW_ORIGIN": join.join([PRIMARY, SECOND, "*"]), "TAILSPEND_STAGE": "test",
           "TAILSPEND_LOCAL": "1", "TAILSPEND_DATA_DIR": str(tmp_path_factory.mktemp("cors"))}
    return create_app(Settings.from_env(env, cursor_secret=b"cors-test")).test_client()


@pytest.mark.parametrize("origin", [PRIMARY, SECOND])
def test_app_echoes_each_listed_origin(cors_client, origin):
    reply = cors_client.get("/health", headers={"Origin": origin})

    assert reply.headers["Access-Control-Allow-Origin"] == origin
    assert "Origin" in reply.headers.get_all("Vary")
    assert "Access-Control-Allow-Credentials" not in reply.headers


@pytest.mark.parametrize("origin", [STRANGER, "*", "null"])
def test_app_never_allows_an_unlisted_origin_or_a_wildcard(cors_client, origin):
    reply = cors_client.get("/health", headers={"Origin": origin})

    assert "Access-Control-Allow-Origin" not in reply.headers


@pytest.mark.parametrize("origin", [PRIMARY, SECOND])
def test_app_answers_the_preflight_of_a_listed_origin(cors_client, origin):
    reply = cors_client.options("/users/me", headers={
        "Origin": origin, "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "authorization,content-type"})

    assert reply.status_code in (200, 204)
    assert reply.headers["Access-Control-Allow-Origin"] == origin
    assert "PATCH" in reply.headers["Access-Control-Allow-Methods"].split(",")
    assert {"authorization", "content-type", "idempotency-key"} <= {
        h.lower() for h in reply.headers["Access-Control-Allow-Headers"].split(",")}
    assert reply.headers["Access-Control-Max-Age"] == "600"


def test_app_preflight_of_an_unlisted_origin_gets_no_cors_headers(cors_client):
    reply = cors_client.options("/users/me", headers={
        "Origin": STRANGER, "Access-Control-Request-Method": "DELETE"})

    assert not [h for h in reply.headers.keys() if h.lower().startswith("access-control-")]


# ---------------------------------------------------------------- hardening: Cognito tier, SnapStart


def test_user_pool_tier_is_a_parameter_defaulting_to_lite():
    template = load_template()
    tier = template["Parameters"]["UserPoolTier"]

    assert tier["Default"] == "LITE"
    assert tier["AllowedValues"] == ["LITE", "ESSENTIALS", "PLUS"]
    assert "$116k" in tier["Description"]  # why not Essentials, where the deployer looks
    assert template["Resources"]["UserPool"]["Properties"]["UserPoolTier"] == {"Ref": "UserPoolTier"}


def test_snapstart_is_a_parameter_on_by_default_applied_to_published_versions():
    template = load_template()
    api = template["Resources"]["ApiFunction"]["Properties"]

    # On by default: the eagerly built app's init is paid at publish, not per cold start.
    assert template["Parameters"]["EnableSnapStart"]["Default"] == "true"
    assert template["Conditions"]["SnapStartEnabled"] == {"Fn::Equals": [{"Ref": "EnableSnapStart"}, "true"]}
    assert api["AutoPublishAlias"] == "live"
    assert api["SnapStart"] == {"Fn::If": ["SnapStartEnabled", {"ApplyOn": "PublishedVersions"},
                                           {"ApplyOn": "None"}]}
    # SnapStart needs a supported runtime: python3.12 on either architecture is one.
    globals_ = template["Globals"]["Function"]
    assert (globals_["Runtime"], globals_["Architectures"]) == ("python3.12",
                                                                [{"Ref": "Architecture"}])
    assert "Runtime" not in api and "Architectures" not in api


@pytest.fixture(scope="module")
def translated() -> dict:
    """The CloudFormation SAM produces from template.yaml (translator of the SAM venv, offline)."""
    from tests.deploy.sam_translate import translated as translate

    _sam()
    return translate()


def test_every_api_route_invokes_the_published_alias(translated):
    paths = translated["Resources"]["HttpApi"]["Properties"]["Body"]["paths"]
    uris = {(path, method): json.dumps(spec["x-amazon-apigateway-integration"]["uri"])
            for path, methods in paths.items() for method, spec in methods.items()}

    assert ("/{proxy+}", "x-amazon-apigateway-any-method") in uris
    for route, uri in uris.items():
        assert "${ApiFunction.Arn}:live/invocations" in uri, route  # the alias, by its ARN


def test_translated_snapstart_and_failure_destinations(translated):
    resources = translated["Resources"]
    invoke_configs = {r["Properties"]["FunctionName"]["Ref"]: r["Properties"]
                      for r in resources.values() if r["Type"] == "AWS::Lambda::EventInvokeConfig"}

    assert resources["ApiFunction"]["Properties"]["SnapStart"]["Fn::If"][0] == "SnapStartEnabled"
    assert resources["ApiFunctionAliaslive"]["Type"] == "AWS::Lambda::Alias"
    assert {fn: c["DestinationConfig"]["OnFailure"]["Destination"]["Fn::GetAtt"][0]
            for fn, c in invoke_configs.items()} == SCHEDULED_FAILURE_QUEUES
    for function, queue in SCHEDULED_FAILURE_QUEUES.items():
        statements = [s for p in resources[f"{function}Role"]["Properties"]["Policies"]
                      if "PolicyDocument" in p for s in p["PolicyDocument"]["Statement"]]
        assert any(s["Action"] == "sqs:SendMessage" and queue in json.dumps(s["Resource"])
                   for s in statements), function


# ---------------------------------------------------------------- developer platform (issue 13)


def test_catch_all_route_has_no_gateway_authorizer_so_pats_reach_the_app():
    api = _resources("AWS::Serverless::HttpApi")["HttpApi"]["Properties"]
    events = _resources("AWS::Serverless::Function")["ApiFunction"]["Properties"].get("Events", {})

    assert "Auth" not in api  # no Cognito authorizer left to reject tsp_ tokens
    assert all("Auth" not in event["Properties"] for event in events.values())
    assert "security" not in json.dumps(api["DefinitionBody"])


def test_api_function_reads_only_the_token_pepper_secret_and_gets_its_arn():
    function = _resources("AWS::Serverless::Function")["ApiFunction"]["Properties"]
    secret_policies = [p for p in function["Policies"] if "AWSSecretsManagerGetSecretValuePolicy" in p]
    conditional = [p["Fn::If"] for p in function["Policies"] if "Fn::If" in p]

    # issue 19: and the cursor key, by ARN at run time; issue 36: the realtime token key;
    # issue 33: the origin header CloudFront adds.
    assert secret_policies == [{"AWSSecretsManagerGetSecretValuePolicy": {
        "SecretArn": {"Ref": name}}} for name in ("TokenPepperSecret", "CursorSecret",
                                                  "RealtimeTokenSecret", "OriginVerifySecret")]
    assert function["Environment"]["Variables"]["REALTIME_TOKEN_KEY_SECRET_ARN"] == {
        "Ref": "RealtimeTokenSecret"}
    # ... and, when one is configured, the MCP token signing key (its ARN only, too).
    assert conditional == [["HasMcpSigningKey", {"AWSSecretsManagerGetSecretValuePolicy": {
        "SecretArn": {"Ref": "McpSigningKeySecretArn"}}}, {"Ref": "AWS::NoValue"}]]
    assert function["Environment"]["Variables"]["MCP_SIGNING_KEY_SECRET_ARN"] == {
        "Ref": "McpSigningKeySecretArn"}
    assert function["Environment"]["Variables"]["TOKEN_PEPPER_SECRET_ARN"] == {"Ref": "TokenPepperSecret"}
    assert "TOKEN_PEPPER" not in function["Environment"]["Variables"]  # never the value itself


def test_stage_throttle_is_a_parameter_sized_in_thousands():
    template = load_template()
    setting = template["Resources"]["HttpApi"]["Properties"]["DefaultRouteSettings"]

    assert setting["ThrottlingRateLimit"] == {"Ref": "ApiThrottleRateLimit"}
    assert setting["ThrottlingBurstLimit"] == {"Ref": "ApiThrottleBurstLimit"}
    assert template["Parameters"]["ApiThrottleRateLimit"]["Default"] >= 1000


# ---------------------------------------------------------------- account deletion worker
# The worker is registered in the shared tables above from here (another helper edits those
# tables concurrently); fold these lines into them when merging. Its schedule is checked by
# its own test below: it also has an SQS event, which the scheduled-function test excludes.
HANDLERS["AccountDeletionWorkerFunction"] = "app.handlers.account_deletion.lambda_handler"
SCHEDULED_FAILURE_QUEUES["AccountDeletionWorkerFunction"] = "AccountDeletionFailuresQueue"
WORK_QUEUES.add("AccountDeletionQueue")
ACCOUNT_DELETION_TABLES = ("UsersTable", "IdentitiesTable", "GroupsTable", "DeveloperTokensTable",
                           "PeopleTable", "NotificationsTable")


def test_account_deletion_worker_takes_queue_messages_and_resumes_every_five_minutes():
    worker = _resources("AWS::Serverless::Function")["AccountDeletionWorkerFunction"]["Properties"]
    events = {e["Type"]: e["Properties"] for e in worker["Events"].values()}

    assert set(events) == {"SQS", "Schedule"}
    assert events["SQS"]["Queue"] == {"Fn::GetAtt": ["AccountDeletionQueue", "Arn"]}
    assert events["SQS"]["BatchSize"] == 1
    assert events["SQS"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert events["Schedule"]["Schedule"] == "rate(5 minutes)"
    assert worker["EventInvokeConfig"]["DestinationConfig"]["OnFailure"] == {
        "Type": "SQS", "Destination": {"Fn::GetAtt": ["AccountDeletionFailuresQueue", "Arn"]}}
    assert worker["Environment"]["Variables"]["ACCOUNT_DELETION_QUEUE_URL"] == {
        "Ref": "AccountDeletionQueue"}
    table_policies = {(kind, body["TableName"]["Ref"]) for policy in worker["Policies"]
                      for kind, body in policy.items() if kind.startswith("DynamoDB")}
    assert table_policies == {(_CRUD, table) for table in ACCOUNT_DELETION_TABLES}


def test_account_deletion_queue_is_six_worker_timeouts_visible_and_redrives_to_its_dlq():
    worker = _resources("AWS::Serverless::Function")["AccountDeletionWorkerFunction"]["Properties"]
    queue = _resources("AWS::SQS::Queue")["AccountDeletionQueue"]["Properties"]

    assert queue["VisibilityTimeout"] >= 6 * worker["Timeout"]
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["AccountDeletionFailuresQueue", "Arn"]},
        "maxReceiveCount": 3}
    assert queue["SqsManagedSseEnabled"] is True


def test_the_api_hands_deletions_to_the_queue_and_may_only_send_there():
    api = _resources("AWS::Serverless::Function")["ApiFunction"]["Properties"]

    assert api["Environment"]["Variables"]["ACCOUNT_DELETION_QUEUE_URL"] == {
        "Ref": "AccountDeletionQueue"}
    sends = [p["SQSSendMessagePolicy"] for p in api["Policies"] if "SQSSendMessagePolicy" in p]
    # (and, since the import worker, its queue: test_the_api_hands_imports_to_their_queue)
    # ... and admitted chat messages to the chat worker's queue (docs/chat.md), receipt
    # ingests and scans to the receipt worker's (docs/receipts.md), renames' roster mirroring
    # to the profile mirror worker's (docs/api.md, Users).
    assert sends == [{"QueueName": {"Fn::GetAtt": ["AccountDeletionQueue", "QueueName"]}},
                     {"QueueName": {"Fn::GetAtt": ["ImportQueue", "QueueName"]}},
                     {"QueueName": {"Fn::GetAtt": ["ProfileMirrorQueue", "QueueName"]}},
                     {"QueueName": {"Fn::GetAtt": ["ChatQueue", "QueueName"]}},
                     {"QueueName": {"Fn::GetAtt": ["ReceiptQueue", "QueueName"]}}]


def test_the_notification_worker_may_condition_check_profiles():
    worker = _resources("AWS::Serverless::Function")["NotificationWorkerFunction"]["Properties"]
    statements = [st for p in worker["Policies"] if isinstance(p, dict) and "Statement" in p
                  for st in p["Statement"]]

    assert {"Effect": "Allow", "Action": "dynamodb:ConditionCheckItem",
            "Resource": {"Fn::GetAtt": ["UsersTable", "Arn"]}} in statements


def test_account_deletion_resources_are_one_block_with_a_header():
    text = (REPO / "template.yaml").read_text()
    start = text.index("# ================================================================ account deletion worker")
    end = text.index("# ================================================================ end: account deletion worker")
    names = [name for name in load_template()["Resources"] if name.startswith("AccountDeletion")]

    assert len(names) == 9
    assert all(start < text.index(f"\n  {name}:\n") < end for name in names)


# ---------------------------------------------------------------- import worker
# Registered in the shared tables above from here, like the account deletion worker.
HANDLERS["ImportWorkerFunction"] = "app.handlers.import_worker.lambda_handler"
WORK_QUEUES.add("ImportQueue")


def test_import_worker_takes_one_queue_message_at_a_time_and_writes_only_groups():
    worker = _resources("AWS::Serverless::Function")["ImportWorkerFunction"]["Properties"]
    queue = _resources("AWS::SQS::Queue")["ImportQueue"]["Properties"]
    (source,) = [e["Properties"] for e in worker["Events"].values()]

    assert source["Queue"] == {"Fn::GetAtt": ["ImportQueue", "Arn"]}
    assert source["BatchSize"] == 1
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert queue["VisibilityTimeout"] >= 6 * worker["Timeout"]
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["ImportFailuresQueue", "Arn"]}
    table_policies = {(kind, body["TableName"]["Ref"]) for policy in worker["Policies"]
                      for kind, body in policy.items() if kind.startswith("DynamoDB")}
    # Users: the flip's live-account check; fx-rates: convert "auto" past the embedded history.
    assert table_policies == {(_CRUD, "GroupsTable"), ("DynamoDBReadPolicy", "UsersTable"),
                              ("DynamoDBReadPolicy", "FxRatesTable")}


def test_the_api_hands_imports_to_their_queue():
    api = _resources("AWS::Serverless::Function")["ApiFunction"]["Properties"]

    assert api["Environment"]["Variables"]["IMPORT_QUEUE_URL"] == {"Ref": "ImportQueue"}


def test_import_resources_are_one_block_with_a_header():
    text = (REPO / "template.yaml").read_text()
    start = text.index("# ================================================================ import worker")
    end = text.index("# ================================================================ end: import worker")
    names = [name for name in load_template()["Resources"] if name.startswith("Import")]

    assert len(names) == 9
    assert all(start < text.index(f"\n  {name}:\n") < end for name in names)
# ---------------------------------------------------------------- profile mirror worker
HANDLERS["ProfileMirrorWorkerFunction"] = "app.handlers.profile_mirror.lambda_handler"
WORK_QUEUES.add("ProfileMirrorQueue")


def test_profile_mirror_worker_takes_one_rename_at_a_time_and_reads_only_users():
    worker = _resources("AWS::Serverless::Function")["ProfileMirrorWorkerFunction"]["Properties"]
    queue = _resources("AWS::SQS::Queue")["ProfileMirrorQueue"]["Properties"]
    (source,) = [e["Properties"] for e in worker["Events"].values()]

    assert source["Queue"] == {"Fn::GetAtt": ["ProfileMirrorQueue", "Arn"]}
    assert source["BatchSize"] == 1
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert queue["VisibilityTimeout"] >= 6 * worker["Timeout"]
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["ProfileMirrorFailuresQueue", "Arn"]}
    table_policies = {(kind, body["TableName"]["Ref"]) for policy in worker["Policies"]
                      for kind, body in policy.items() if kind.startswith("DynamoDB")}
    assert table_policies == {(_CRUD, "GroupsTable"), (_READ, "UsersTable")}
    assert [p for p in worker["Policies"] if not any(k.startswith("DynamoDB") for k in p)] == []


def test_the_api_hands_renames_to_their_queue():
    api = _resources("AWS::Serverless::Function")["ApiFunction"]["Properties"]

    assert api["Environment"]["Variables"]["PROFILE_MIRROR_QUEUE_URL"] == {
        "Ref": "ProfileMirrorQueue"}
    assert {"SQSSendMessagePolicy": {"QueueName": {"Fn::GetAtt": [
        "ProfileMirrorQueue", "QueueName"]}}} in api["Policies"]


def test_profile_mirror_resources_are_one_block_with_a_header():
    text = (REPO / "template.yaml").read_text()
    start = text.index("# ================================================================ profile mirror worker")
    end = text.index("# ================================================================ end: profile mirror worker")
    names = [name for name in load_template()["Resources"] if name.startswith("ProfileMirror")]

    assert len(names) == 9
    assert all(start < text.index(f"\n  {name}:\n") < end for name in names)


# ---------------------------------------------------------------- chat worker
# Registered in the shared tables above from here, like the account deletion worker; fold
# these lines into them when merging.
HANDLERS["ChatWorkerFunction"] = "app.handlers.chat_worker.lambda_handler"
SCHEDULED_FAILURE_QUEUES["ChatWorkerFunction"] = "ChatFailuresQueue"
WORK_QUEUES.add("ChatQueue")


def test_chat_worker_takes_queue_messages_and_may_invoke_only_its_model():
    worker = _resources("AWS::Serverless::Function")["ChatWorkerFunction"]["Properties"]
    events = {e["Type"]: e["Properties"] for e in worker["Events"].values()}

    assert set(events) == {"SQS", "Schedule"}
    assert events["SQS"]["Queue"] == {"Fn::GetAtt": ["ChatQueue", "Arn"]}
    assert events["SQS"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    variables = worker["Environment"]["Variables"]
    assert variables["CHAT_DRAFTER"] == "bedrock"
    assert variables["CHAT_BEDROCK_MODEL_ID"] == {"Ref": "ChatBedrockModelId"}
    assert variables["CHAT_BEDROCK_REGION"] == {"Ref": "ChatBedrockRegion"}
    statements = [s for p in worker["Policies"] if "Statement" in p for s in p["Statement"]]
    bedrock = [s for s in statements if "bedrock" in json.dumps(s["Action"])]
    assert bedrock == [{"Effect": "Allow", "Action": "bedrock:InvokeModel", "Resource": {
        "Fn::Sub": "arn:${AWS::Partition}:bedrock:${ChatBedrockRegion}::foundation-model/"
                   "${ChatBedrockModelId}"}}]
    table_policies = {(kind, body["TableName"]["Ref"]) for policy in worker["Policies"]
                      for kind, body in policy.items() if kind.startswith("DynamoDB")}
    assert table_policies == {(_CRUD, "UsersTable"), (_CRUD, "GroupsTable")}



# ---------------------------------------------------------------- live updates (issue 36)
HANDLERS["RealtimePublisherFunction"] = "app.handlers.realtime_publisher.lambda_handler"
HANDLERS["ProjectionFunction"] = "app.handlers.projection.lambda_handler"
HANDLERS["RealtimeAuthorizerFunction"] = "app.handlers.realtime_authorizer.lambda_handler"


def test_the_event_api_has_groups_and_users_namespaces_lambda_subscribe_and_iam_publish():
    api = _resources("AWS::AppSync::Api")["RealtimeApi"]["Properties"]["EventConfig"]
    namespaces = {n["Properties"]["Name"]: n["Properties"]
                  for n in _resources("AWS::AppSync::ChannelNamespace").values()}

    (lambda_auth,) = [p for p in api["AuthProviders"] if p["AuthType"] == "AWS_LAMBDA"]
    assert lambda_auth["LambdaAuthorizerConfig"]["AuthorizerUri"] == {
        "Fn::GetAtt": ["RealtimeAuthorizerFunction", "Arn"]}
    assert lambda_auth["LambdaAuthorizerConfig"]["AuthorizerResultTtlInSeconds"] == 0
    assert {p["AuthType"] for p in api["AuthProviders"]} == {"AWS_LAMBDA", "AWS_IAM"}
    assert api["ConnectionAuthModes"] == api["DefaultSubscribeAuthModes"] == [
        {"AuthType": "AWS_LAMBDA"}]
    assert api["DefaultPublishAuthModes"] == [{"AuthType": "AWS_IAM"}]
    assert set(namespaces) == {"groups", "users"}
    for namespace in namespaces.values():
        assert namespace["SubscribeAuthModes"] == [{"AuthType": "AWS_LAMBDA"}]
        assert namespace["PublishAuthModes"] == [{"AuthType": "AWS_IAM"}]
    permission = _resources("AWS::Lambda::Permission")["RealtimeAuthorizerInvokePermission"]
    assert permission["Properties"]["Principal"] == "appsync.amazonaws.com"
    assert permission["Properties"]["SourceArn"] == {"Fn::GetAtt": ["RealtimeApi", "ApiArn"]}


def test_only_the_publisher_may_publish():
    publishers = {name for name, f in _resources("AWS::Serverless::Function").items()
                  if "appsync:EventPublish" in json.dumps(f["Properties"].get("Policies", []))}
    assert publishers == {"RealtimePublisherFunction"}
    assert "appsync:" not in json.dumps(
        [r for n, r in load_template()["Resources"].items()
         if r["Type"] == "AWS::IAM::Role"])


def test_the_publisher_reads_the_groups_stream_with_bisect_retries_a_dlq_and_the_filter():
    publisher = _resources("AWS::Serverless::Function")["RealtimePublisherFunction"]["Properties"]
    assert set(publisher["Events"]) == {"GroupsStream", "NotificationsStream"}
    source = publisher["Events"]["GroupsStream"]["Properties"]
    assert source["Stream"] == {"Fn::GetAtt": ["GroupsTable", "StreamArn"]}
    assert source["BisectBatchOnFunctionError"] is True
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert source["ParallelizationFactor"] == 1  # revision order per group
    assert source["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": ["RealtimeFailuresQueue", "Arn"]}
    assert publisher["Environment"]["Variables"]["REALTIME_HTTP_ENDPOINT"] == {
        "Fn::GetAtt": ["RealtimeApi", "Dns.Http"]}
    patterns = [json.loads(f["Pattern"]) for f in source["FilterCriteria"]["Filters"]]
    records = json.loads((EVENTS / "realtime_groups_stream.json").read_text())["Records"]
    assert all(any(_matches_prefix(p, r) for p in patterns) for r in records)
    expense_row = json.loads(json.dumps(records[0]))
    expense_row["dynamodb"]["Keys"]["SK"] = {"S": "EXPENSE#e1#HEAD"}
    modified_change = {**records[0], "eventName": "MODIFY"}
    for record in (expense_row, modified_change):
        assert not any(_matches_prefix(p, record) for p in patterns)
        assert realtime_admitted(record) is False  # local mode's poller filters alike
    assert all(realtime_admitted(r) for r in records)


def test_the_publisher_reads_the_notifications_stream_for_history_and_settings_rows():
    publisher = _resources("AWS::Serverless::Function")["RealtimePublisherFunction"]["Properties"]
    source = publisher["Events"]["NotificationsStream"]["Properties"]
    assert source["Stream"] == {"Fn::GetAtt": ["NotificationsTable", "StreamArn"]}
    assert (source["BisectBatchOnFunctionError"], source["ParallelizationFactor"]) == (True, 1)
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert source["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": ["RealtimeFailuresQueue", "Arn"]}
    patterns = [json.loads(f["Pattern"]) for f in source["FilterCriteria"]["Filters"]]
    records = json.loads((EVENTS / "realtime_notifications_stream.json").read_text())["Records"]
    assert all(any(_matches_prefix(p, r) for p in patterns) for r in records)
    assert all(realtime_notifications_admitted(r) for r in records)
    outbox = json.loads((EVENTS / "notifications_stream.json").read_text())["Records"]
    device = json.loads(json.dumps(records[0]))
    device["dynamodb"]["Keys"]["SK"] = {"S": "DEVICE#d1"}
    removed = {**records[0], "eventName": "REMOVE"}
    for record in [*outbox, device, removed]:  # the outbox EVENT rows are the worker's
        assert not any(_matches_prefix(p, record) for p in patterns)
        assert realtime_notifications_admitted(record) is False


def _matches_prefix(pattern, record) -> bool:
    """EventBridge-style matching with the ``prefix`` operator the filter uses."""
    for key, expected in pattern.items():
        if key not in record:
            return False
        if isinstance(expected, dict):
            if not isinstance(record[key], dict) or not _matches_prefix(expected, record[key]):
                return False
        elif not any(record[key].startswith(e["prefix"]) if isinstance(e, dict) else record[key] == e
                     for e in expected):
            return False
    return True


from app.local.stream_poller import (realtime_admitted,  # noqa: E402 — with its tests
                                     realtime_notifications_admitted)


# ---------------------------------------------------------------- receipts (issue 35)
HANDLERS["ReceiptWorkerFunction"] = "app.handlers.receipt_worker.lambda_handler"
SCHEDULED_FAILURE_QUEUES["ReceiptWorkerFunction"] = "ReceiptFailuresQueue"
WORK_QUEUES.add("ReceiptQueue")


def test_the_receipts_bucket_is_private_encrypted_tls_only_retained_and_expires_uploads():
    resources = load_template()["Resources"]
    bucket = resources["ReceiptsBucket"]
    assert bucket["DeletionPolicy"] == bucket["UpdateReplacePolicy"] == "Retain"
    props = bucket["Properties"]
    assert all(props["PublicAccessBlockConfiguration"].values())
    assert len(props["PublicAccessBlockConfiguration"]) == 4
    (rule,) = props["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "aws:kms"
    rules = {r["Id"]: r for r in props["LifecycleConfiguration"]["Rules"]}
    assert rules["expire-uploads"]["Prefix"] == "uploads/"
    assert rules["expire-uploads"]["ExpirationInDays"] == 1
    assert rules["abort-incomplete-multipart"]["AbortIncompleteMultipartUpload"] == {
        "DaysAfterInitiation": 1}
    (deny,) = resources["ReceiptsBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert deny["Effect"] == "Deny" and deny["Action"] == "s3:*"
    assert deny["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}


def _s3_grants(function: str) -> dict:
    props = _resources("AWS::Serverless::Function")[function]["Properties"]
    found = {}
    for policy in props["Policies"]:
        for statement in policy.get("Statement", []) if isinstance(policy, dict) else []:
            actions = statement["Action"] if isinstance(statement["Action"], list) \
                else [statement["Action"]]
            for action in actions:
                if action.startswith("s3:"):
                    found[action] = statement["Resource"]
    return found


def test_receipt_grants_are_least_privilege():
    objects = [{"Fn::Sub": "${ReceiptsBucket.Arn}/uploads/*"},
               {"Fn::Sub": "${ReceiptsBucket.Arn}/receipts/*"}]
    bucket = {"Fn::GetAtt": ["ReceiptsBucket", "Arn"]}
    expected = {
        "ApiFunction": {"s3:PutObject", "s3:GetObject", "s3:DeleteObject", "s3:ListBucket"},
        "ReceiptWorkerFunction": {"s3:PutObject", "s3:GetObject", "s3:DeleteObject",
                                  "s3:ListBucket"},
        "MaintenanceFunction": {"s3:DeleteObject", "s3:ListBucket"},
        "AccountDeletionWorkerFunction": {"s3:DeleteObject", "s3:ListBucket"},
    }
    for function in _resources("AWS::Serverless::Function"):
        grants = _s3_grants(function)
        assert set(grants) == expected.get(function, set()), function
        for action, resource in grants.items():
            assert resource == (bucket if action == "s3:ListBucket" else objects), function


HANDLERS["MailFeedbackFunction"] = "app.handlers.mail_feedback.lambda_handler"


def test_mail_resources_exist_only_with_a_domain_and_feed_bounces_to_the_handler():
    resources = load_template()["Resources"]
    mail = ["MailIdentity", "MailConfigurationSet", "MailFeedbackTopic", "MailFeedbackTopicPolicy",
            "MailFeedbackDestination", "MailFeedbackFunction", "MailFeedbackLogGroup"]
    assert all(resources[name]["Condition"] == "HasMail" for name in mail)
    options = resources["MailConfigurationSet"]["Properties"]
    assert options["SuppressionOptions"]["SuppressedReasons"] == ["BOUNCE", "COMPLAINT"]
    destination = resources["MailFeedbackDestination"]["Properties"]["EventDestination"]
    assert sorted(destination["MatchingEventTypes"]) == ["bounce", "complaint"]
    assert destination["SnsDestination"]["TopicARN"] == {"Ref": "MailFeedbackTopic"}
    feedback = resources["MailFeedbackFunction"]["Properties"]
    assert feedback["Events"]["Feedback"] == {"Type": "SNS",
                                              "Properties": {"Topic": {"Ref": "MailFeedbackTopic"}}}
    # only SES, and only from our configuration set, may publish to the topic
    [statement] = resources["MailFeedbackTopicPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "ses.amazonaws.com"}
    assert set(statement["Condition"]["StringEquals"]) == {"AWS:SourceAccount", "AWS:SourceArn"}
    # the senders may send only as no-reply@<MailDomain>
    for sender in ("NotificationWorkerFunction", "MaintenanceFunction"):
        policies = resources[sender]["Properties"]["Policies"]
        [send] = [p["Fn::If"][1] for p in policies if isinstance(p, dict) and "Fn::If" in p
                  and p["Fn::If"][0] == "HasMail"]
        [grant] = send["Statement"]
        assert grant["Action"] == "ses:SendEmail" and "ses:FromAddress" in grant["Condition"]["StringEquals"]
