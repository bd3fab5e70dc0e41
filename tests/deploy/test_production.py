"""What only shows in AWS (issue 19): read from template.yaml and from SAM's translation of it."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from app.local.template_tables import load_template
from tests.deploy.sam_translate import translated
from tests.support.lambda_context import lambda_context

REPO = Path(__file__).resolve().parents[2]
CHECKOV = REPO / ".venv-checkov" / "bin" / "checkov"


def _resources(kind: str) -> dict:
    return {n: r for n, r in load_template()["Resources"].items() if r["Type"] == kind}


def _function(name: str) -> dict:
    return load_template()["Resources"][name]["Properties"]


def _overrides(env: str) -> dict:
    config = tomllib.loads((REPO / "samconfig.toml").read_text())
    return dict(item.split("=", 1) for item in
                shlex.split(config[env]["deploy"]["parameters"]["parameter_overrides"]))


# ---------------------------------------------------------------- the stage throttle


def test_the_http_api_has_one_throttled_default_stage():
    resources = translated()["Resources"].values()
    stages = [r["Properties"] for r in resources if r["Type"] == "AWS::ApiGatewayV2::Stage"]

    assert not [r for r in resources if r["Type"].startswith("AWS::ApiGateway::")]  # no REST left
    (stage,) = stages
    assert stage["StageName"] == "$default" and stage["AutoDeploy"] is True
    assert stage["DefaultRouteSettings"] == {"ThrottlingBurstLimit": {"Ref": "ApiThrottleBurstLimit"},
                                             "ThrottlingRateLimit": {"Ref": "ApiThrottleRateLimit"}}


def test_the_gateway_may_invoke_the_api_from_its_own_stage_only():
    resources = translated()["Resources"]
    permissions = {n: r["Properties"] for n, r in resources.items()
                   if r["Type"] == "AWS::Lambda::Permission"
                   and r["Properties"]["Principal"] == "apigateway.amazonaws.com"}

    assert list(permissions) == ["ApiInvokePermission"]
    permission = permissions["ApiInvokePermission"]
    assert permission["FunctionName"] == {"Ref": "ApiFunctionAliaslive"}
    assert permission["SourceArn"]["Fn::Sub"].endswith(":${HttpApi}/$default/*")


def test_every_route_invokes_the_live_alias_with_payload_format_1_0():
    paths = translated()["Resources"]["HttpApi"]["Properties"]["Body"]["paths"]
    routes = {(path, method): spec["x-amazon-apigateway-integration"]
              for path, methods in paths.items() for method, spec in methods.items()}

    # ANY covers the preflights: the app answers OPTIONS (no gateway CORS block).
    assert set(routes) == {("/health", "get"), ("/openapi.json", "get"), ("/docs", "get"),
                           ("/{proxy+}", "x-amazon-apigateway-any-method")}
    for route, integration in routes.items():
        assert integration["type"] == "aws_proxy" and integration["httpMethod"] == "POST", route
        # 1.0: the REST-shaped event aws-wsgi (app/api/lambda_adapter.py) reads.
        assert integration["payloadFormatVersion"] == "1.0", route
        assert integration["uri"]["Fn::Sub"].endswith(
            "/functions/${ApiFunction.Arn}:" + load_template()["Resources"]["ApiFunction"][
                "Properties"]["AutoPublishAlias"] + "/invocations"), route


# ---------------------------------------------------------------- alarms


def _alarms() -> dict:
    return {n: a["Properties"] for n, a in _resources("AWS::CloudWatch::Alarm").items()}


def test_every_alarm_notifies_on_alarm_and_on_recovery():
    for name, alarm in _alarms().items():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        assert alarm["OKActions"] == [{"Ref": "AlarmTopic"}], name


def test_api_5xx_and_p99_latency_are_alarmed_on_the_stage():
    alarms = _alarms()
    # HTTP APIs publish 5xx (not REST's 5XXError) per ApiId and Stage (not ApiName).
    dimensions = [{"Name": "ApiId", "Value": {"Ref": "HttpApi"}},
                  {"Name": "Stage", "Value": "$default"}]

    five = alarms["Api5xxAlarm"]
    assert (five["Namespace"], five["MetricName"], five["Dimensions"]) == ("AWS/ApiGateway", "5xx", dimensions)
    assert (five["Statistic"], five["Threshold"]) == ("Average", 0.01)
    latency = alarms["ApiLatencyAlarm"]
    assert (latency["MetricName"], latency["ExtendedStatistic"], latency["Dimensions"]) == (
        "Latency", "p99", dimensions)
    assert latency["Threshold"] == {"Ref": "ApiLatencyP99Milliseconds"}


def test_failed_records_of_each_worker_are_counted_and_alarmed():
    filters = {f["Properties"]["LogGroupName"]["Ref"]: f["Properties"]
               for f in _resources("AWS::Logs::MetricFilter").values()}
    alarms = {(a.get("Namespace") and json.dumps(a["Namespace"]), a.get("MetricName")) for a in _alarms().values()}
    workers = {name: f for name, f in _resources("AWS::Serverless::Function").items()
               if "ReportBatchItemFailures" in json.dumps(f["Properties"].get("Events", {}))}

    assert set(workers) == {"NotificationWorkerFunction", "RecurringBucketWorkerFunction",
                            "AccountDeletionWorkerFunction", "ChatWorkerFunction",
                            "ImportWorkerFunction", "RealtimePublisherFunction",
                            "ReceiptWorkerFunction", "ProjectionFunction",
                            "ProfileMirrorWorkerFunction"}
    for worker in workers:
        group = worker.replace("Function", "LogGroup")
        (metric,) = filters[group]["MetricTransformations"]
        assert (json.dumps(metric["MetricNamespace"]), metric["MetricName"]) in alarms, worker


def test_the_lines_the_failure_filters_count_are_the_ones_the_workers_write():
    filters = {f["Properties"]["LogGroupName"]["Ref"]: f["Properties"]["FilterPattern"]
               for f in _resources("AWS::Logs::MetricFilter").values()}
    message = re.compile(r'\$\.message = "([^"]+)"')

    bucket = message.search(filters["RecurringBucketWorkerLogGroup"]).group(1)
    assert f'logger.exception("{bucket}"' in (REPO / "app/recurring/tick.py").read_text()
    stream = message.search(filters["NotificationWorkerLogGroup"]).group(1)
    assert "logger=logger" in (REPO / "app/handlers/notifications.py").read_text()
    import aws_lambda_powertools.utilities.batch.base as batch
    assert stream in Path(batch.__file__).read_text()


def test_a_failed_stream_record_writes_the_line_its_metric_filter_counts():
    """Run the real worker on a poison record and match its log lines with the filter."""
    import importlib
    import logging

    from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError

    from app.logs import logger

    pattern = {f["Properties"]["LogGroupName"]["Ref"]: f["Properties"]["FilterPattern"]
               for f in _resources("AWS::Logs::MetricFilter").values()}["NotificationWorkerLogGroup"]
    wanted = re.fullmatch(r'\{ \$\.message = "([^"]+)" \}', pattern).group(1)
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(logger.registered_formatter.format(record)))

    image = {"PK": {"S": "PENDING#0"}, "SK": {"S": "EVENT#x"}, "EntityType": {"S": "EVENT"}}
    record = {"eventID": "1", "eventName": "INSERT", "eventSource": "aws:dynamodb",
              "dynamodb": {"Keys": {"PK": image["PK"], "SK": image["SK"]}, "NewImage": image,
                           "SequenceNumber": "100", "StreamViewType": "NEW_IMAGE"},
              "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/x"}
    worker = importlib.import_module("app.handlers.notifications")
    keep = Keep()
    logging.getLogger(logger.name).addHandler(keep)
    try:
        # A batch whose every record failed fails the invocation (Lambda's Errors metric); the
        # line is written per failed record either way.
        with pytest.raises(BatchProcessingError):
            worker.lambda_handler({"Records": [record]}, lambda_context())
    finally:
        logging.getLogger(logger.name).removeHandler(keep)

    assert [line["message"] for line in lines].count(wanted) == 1


def test_a_failed_bucket_message_writes_the_line_its_metric_filter_counts(monkeypatch):
    """The real bucket worker, its tables missing (moto, none created): the bucket fails."""
    import importlib
    import logging

    from moto import mock_aws

    from app.logs import logger

    pattern = {f["Properties"]["LogGroupName"]["Ref"]: f["Properties"]["FilterPattern"]
               for f in _resources("AWS::Logs::MetricFilter").values()}["RecurringBucketWorkerLogGroup"]
    wanted = re.fullmatch(r'\{ \$\.message = "([^"]+)" \}', pattern).group(1)
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(logger.registered_formatter.format(record)))

    for name, value in {"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DYNAMODB_ENDPOINT", raising=False)
    event = {"Records": [{"messageId": "m1", "body": json.dumps(
        {"bucket": "DUE#0", "now": "2026-01-01T00:00:00Z"})}]}
    keep = Keep()
    logging.getLogger(logger.name).addHandler(keep)
    try:
        with mock_aws():
            import models
            models.configure(stage="missing", region="us-east-1", host=None)
            handler = importlib.import_module("app.handlers.recurring_bucket").lambda_handler
            result = handler(event, lambda_context())
    finally:
        logging.getLogger(logger.name).removeHandler(keep)
        models.configure(stage="test", region="us-east-1", host=None)

    assert result == {"batchItemFailures": [{"itemIdentifier": "m1"}]}
    assert [line["message"] for line in lines].count(wanted) == 1


def test_throttles_of_every_function_but_the_single_slot_sweep_are_alarmed():
    # FunctionThrottlesAlarm, and the realtime block's own twin (issue 36).
    throttled = {m["MetricStat"]["Metric"]["Dimensions"][0]["Value"]["Ref"]
                 for name in ("FunctionThrottlesAlarm", "RealtimeThrottlesAlarm")
                 for m in _alarms()[name]["Metrics"] if "MetricStat" in m}

    # The mail feedback function exists only with MailDomain, and SNS retries a throttled
    # delivery to it for days: no feedback is lost to a throttle.
    assert throttled == set(_resources("AWS::Serverless::Function")) - {"MaintenanceFunction",
                                                                         "MailFeedbackFunction"}


def test_stream_iterator_age_is_alarmed():
    alarm = _alarms()["NotificationStreamIteratorAgeAlarm"]

    assert (alarm["MetricName"], alarm["Dimensions"][0]["Value"]) == (
        "IteratorAge", {"Ref": "NotificationWorkerFunction"})
    assert alarm["Threshold"] <= 15 * 60 * 1000


def test_a_prod_deploy_must_name_who_receives_alarms():
    template = load_template()
    rule = template["Rules"]["ProdAlarmsReachSomeone"]

    assert rule["RuleCondition"] == {"Fn::Equals": [{"Ref": "Stage"}, "prod"]}
    assert rule["Assertions"][0]["Assert"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmEmail"}, ""]}]}
    assert translated()["Rules"]["ProdAlarmsReachSomeone"] == rule  # SAM hands it to CloudFormation
    # samconfig's prod placeholder fails the parameter's pattern until it is replaced.
    placeholder = _overrides("prod")["AlarmEmail"]
    assert not re.fullmatch(template["Parameters"]["AlarmEmail"]["AllowedPattern"], placeholder)


def test_a_prod_deploy_turns_the_waf_on_and_shifts_traffic_by_canary():
    prod, dev = _overrides("prod"), _overrides("dev")

    assert prod["EnableWaf"] == "true"
    assert prod.get("DeploymentType", "Canary10Percent5Minutes").startswith(("Canary", "Linear"))
    assert dev["DeploymentType"] == "AllAtOnce"


# ---------------------------------------------------------------- timeouts


def test_provisioning_answers_within_cognitos_five_seconds():
    assert _function("ProvisioningFunction")["Timeout"] <= 5


def test_sqs_sources_keep_messages_invisible_six_times_the_function_timeout():
    queues = _resources("AWS::SQS::Queue")
    default = load_template()["Globals"]["Function"]["Timeout"]
    for name, function in _resources("AWS::Serverless::Function").items():
        for event in function["Properties"].get("Events", {}).values():
            if event["Type"] == "SQS":
                queue = queues[event["Properties"]["Queue"]["Fn::GetAtt"][0]]["Properties"]
                timeout = function["Properties"].get("Timeout", default)
                assert queue["VisibilityTimeout"] >= 6 * timeout, name
                # room for every receive before the DLQ
                receives = queue["RedrivePolicy"]["maxReceiveCount"]
                assert queue["MessageRetentionPeriod"] >= receives * queue["VisibilityTimeout"], name


def test_every_schedule_retries_then_parks_in_an_alarmed_queue():
    resources = translated()["Resources"]
    rules = {n: r["Properties"] for n, r in resources.items() if r["Type"] == "AWS::Events::Rule"}
    alarmed = {a["Dimensions"][0]["Value"]["Fn::GetAtt"][0] for a in _alarms().values()
               if a.get("MetricName") == "ApproximateNumberOfMessagesVisible"}

    schedules = [e for r in load_template()["Resources"].values()
                 if r["Type"] == "AWS::Serverless::Function"
                 for e in r["Properties"].get("Events", {}).values() if e["Type"] == "Schedule"]
    assert len(rules) == len(schedules) >= 3  # SAM made one rule per schedule, no other
    for name, rule in rules.items():
        (target,) = rule["Targets"]
        assert target["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": ["ScheduleDeliveryFailuresQueue", "Arn"]}, name
        assert 0 < target["RetryPolicy"]["MaximumRetryAttempts"] <= 5, name
        assert rule["Name"]["Fn::Sub"].startswith("tailspend-${Stage}-"), name  # the queue policy's pattern
    assert "ScheduleDeliveryFailuresQueue" in alarmed
    (policy,) = _resources("AWS::SQS::QueuePolicy").values()
    (statement,) = policy["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "events.amazonaws.com"}
    assert statement["Condition"]["ArnLike"]["aws:SourceArn"]["Fn::Sub"].endswith(":rule/tailspend-${Stage}-*")


def test_the_outbox_schedules_split_the_shards_and_run_side_by_side():
    import json

    from models.notifications import PENDING_SHARDS

    maintenance = _function("MaintenanceFunction")
    inputs = [json.loads(e["Properties"]["Input"]) for e in maintenance["Events"].values()
              if "Input" in e["Properties"]]
    outbox = [i["shards"] for i in inputs if i.get("sweep") == "outbox"]
    swept = [shard for shards in outbox for shard in shards]

    assert len(outbox) >= 2  # one run over every shard can't drain an hour's backlog in an hour
    assert sorted(swept) == list(range(PENDING_SHARDS))  # each shard by exactly one schedule
    digests = [i for i in inputs if i.get("sweep") == "digests"]
    assert len(digests) == 1
    # every schedule (and the daily run) has room to run; overlap of one schedule is harmless
    assert maintenance["ReservedConcurrentExecutions"] == len(outbox) + len(digests) + 1
    for event in maintenance["Events"].values():
        if json.loads(event["Properties"].get("Input", "{}")).get("sweep") == "outbox":
            assert event["Properties"]["Schedule"] == "rate(5 minutes)"


def test_the_digests_schedule_sends_its_canned_event_after_midnight_utc():
    import json
    from pathlib import Path

    maintenance = _function("MaintenanceFunction")
    (digests,) = [e["Properties"] for e in maintenance["Events"].values()
                  if json.loads(e["Properties"].get("Input", "{}")).get("sweep") == "digests"]
    canned = Path(__file__).resolve().parents[2] / "events" / "schedule_digests.json"
    assert json.loads(digests["Input"]) == json.loads(canned.read_text())
    # EventBridge cron runs in UTC: the first run starts once the UTC day has ended
    assert digests["Schedule"].startswith("cron(15 0")


def test_a_stream_batch_fits_its_pushes_deadline():
    from app.notifications.push import SEND_DEADLINE_S

    worker = _function("NotificationWorkerFunction")
    (stream,) = [e["Properties"] for e in worker["Events"].values() if e["Type"] == "DynamoDB"]

    assert stream["BatchSize"] * SEND_DEADLINE_S <= worker["Timeout"]


def test_the_notification_stream_runs_batches_of_a_shard_in_parallel():
    (stream,) = [e["Properties"] for e in _function("NotificationWorkerFunction")["Events"].values()
                 if e["Type"] == "DynamoDB"]

    assert stream["ParallelizationFactor"] >= 5


# ---------------------------------------------------------------- least privilege, push


def test_create_platform_endpoint_names_the_two_platform_applications_only():
    for function in ("NotificationWorkerFunction", "MaintenanceFunction"):
        (mobile,) = [p["Fn::If"][1] for p in _function(function)["Policies"]
                     if "Fn::If" in p and p["Fn::If"][0] == "HasMobilePush"]
        create, endpoints = mobile["Statement"]
        assert create["Action"] == "sns:CreatePlatformEndpoint"
        assert [r["Fn::If"][1] for r in create["Resource"]] == [
            {"Ref": "IosPlatformApplicationArn"}, {"Ref": "AndroidPlatformApplicationArn"}]
        assert set(endpoints["Action"]) == {"sns:Publish", "sns:DeleteEndpoint"}
        assert "*" not in json.dumps(endpoints["Resource"]).replace('/*"', '"'), function


def test_the_code_deletes_a_dead_endpoint():
    push = (REPO / "app/notifications/push.py").read_text()
    assert "delete_endpoint(EndpointArn=" in push and '"EndpointDisabled"' in push


# ---------------------------------------------------------------- data, secrets


@pytest.mark.parametrize("name", ["UserPool", "TokenPepperSecret", "CursorSecret"])
def test_accounts_and_keys_are_retained(name):
    resource = load_template()["Resources"][name]
    assert (resource["DeletionPolicy"], resource["UpdateReplacePolicy"]) == ("Retain", "Retain")


def test_the_cursor_key_reaches_the_api_by_arn_never_as_a_value():
    template = (REPO / "template.yaml").read_text()
    api = _function("ApiFunction")

    # The one dynamic reference: CloudFront's origin header (it must hold the value itself).
    assert template.count("{{resolve:") == 1
    assert "{{resolve:secretsmanager:${OriginVerifySecret}:SecretString:current}}" in template
    assert api["Environment"]["Variables"]["CURSOR_SECRET_ARN"] == {"Ref": "CursorSecret"}
    assert "CURSOR_SECRET" not in api["Environment"]["Variables"]
    assert {"AWSSecretsManagerGetSecretValuePolicy": {"SecretArn": {"Ref": "CursorSecret"}}} in api["Policies"]


# ---------------------------------------------------------------- edge


def test_access_logs_are_json_lines_with_request_id_status_and_latency():
    api = load_template()["Resources"]["HttpApi"]["Properties"]
    setting = api["AccessLogSettings"]
    groups = _resources("AWS::Logs::LogGroup")

    assert setting["DestinationArn"] == {"Fn::GetAtt": ["ApiAccessLogGroup", "Arn"]}
    assert groups["ApiAccessLogGroup"]["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    line = json.loads(setting["Format"].replace("\n", ""))
    assert {line["requestId"], line["status"], line["latencyMs"]} == {
        "$context.requestId", "$context.status", "$context.responseLatency"}
    assert not [v for v in line.values() if "header" in v.lower() or "querystring" in v.lower()]


def test_no_rest_only_resources_are_left():
    template = load_template()
    kinds = {r["Type"] for r in template["Resources"].values()}

    # Usage plans, API keys, the account's CloudWatch role, gateway responses: REST's. The
    # developer platform's limits and budgets are in-app (app/developer).
    assert not {k for k in kinds if k.startswith("AWS::ApiGateway::")}
    assert "AWS::Serverless::Api" not in kinds and "AWS::WAFv2::WebACLAssociation" not in kinds
    assert "ConfigureApiGatewayAccount" not in template["Parameters"]
    assert "Api" not in template["Globals"]


def _distribution() -> dict:
    return _resources("AWS::CloudFront::Distribution")["ApiDistribution"]["Properties"][
        "DistributionConfig"]


def test_cloudfront_fronts_the_http_api_uncached_with_the_origin_secret():
    config = _distribution()
    # The API's origin; the web app's site bucket is the other (tests/deploy/test_web_site.py).
    [origin] = [o for o in config["Origins"] if o["Id"] == "http-api"]
    behavior = config["DefaultCacheBehavior"]
    (header,) = origin["OriginCustomHeaders"]
    api = _function("ApiFunction")

    assert origin["DomainName"] == {"Fn::Sub": "${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"}
    assert "OriginPath" not in origin  # the $default stage has no path prefix
    assert origin["CustomOriginConfig"]["OriginProtocolPolicy"] == "https-only"
    assert header == {"HeaderName": "X-Origin-Verify", "HeaderValue": {
        "Fn::Sub": "{{resolve:secretsmanager:${OriginVerifySecret}:SecretString:current}}"}}
    assert behavior["ViewerProtocolPolicy"] == "https-only"
    assert set(behavior["AllowedMethods"]) == {"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"}
    assert behavior["CachePolicyId"] == "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"  # CachingDisabled
    # AllViewerExceptHostHeader: Authorization and every header but Host (API Gateway's own).
    assert behavior["OriginRequestPolicyId"] == "b689b0a8-53d0-40ab-baf2-68738e2966ac"
    # The app reads the same secret by ARN, at run time.
    assert api["Environment"]["Variables"]["ORIGIN_VERIFY_SECRET_ARN"] == {"Ref": "OriginVerifySecret"}
    assert {"AWSSecretsManagerGetSecretValuePolicy": {"SecretArn": {"Ref": "OriginVerifySecret"}}} in api["Policies"]
    generated = _resources("AWS::SecretsManager::Secret")["OriginVerifySecret"]["Properties"][
        "GenerateSecretString"]
    assert generated["GenerateStringKey"] == "current" and generated["PasswordLength"] >= 32


def test_a_waf_web_acl_with_a_rate_rule_and_the_common_rules_guards_cloudfront():
    template = load_template()
    acl = _resources("AWS::WAFv2::WebACL")["ApiWebAcl"]
    rules = {r["Name"]: r["Statement"] for r in acl["Properties"]["Rules"]}

    assert acl["Condition"] == "WafEnabled"
    assert acl["Properties"]["Scope"] == "CLOUDFRONT"
    assert rules["per-ip-rate"]["RateBasedStatement"]["Limit"] == {"Ref": "WafRateLimitPer5Minutes"}
    assert rules["aws-common"]["ManagedRuleGroupStatement"]["Name"] == "AWSManagedRulesCommonRuleSet"
    assert _distribution()["WebACLId"] == {"Fn::If": ["WafEnabled", {"Fn::GetAtt": ["ApiWebAcl", "Arn"]},
                                                      {"Ref": "AWS::NoValue"}]}
    # CLOUDFRONT-scope web ACLs exist only in us-east-1: the template refuses other regions.
    rule = template["Rules"]["EdgeLivesInUsEast1"]
    assert rule["RuleCondition"] == {"Fn::Equals": [{"Ref": "EnableWaf"}, "true"]}
    assert rule["Assertions"][0]["Assert"] == {"Fn::Equals": [{"Ref": "AWS::Region"}, "us-east-1"]}
    assert _overrides("prod")["EnableWaf"] == "true"
    config = tomllib.loads((REPO / "samconfig.toml").read_text())
    assert {config[env]["deploy"]["parameters"]["region"] for env in ("dev", "prod")} == {"us-east-1"}


def test_a_custom_domain_is_a_cloudfront_alias_with_a_us_east_1_certificate():
    template = load_template()
    config = _distribution()
    base = _function("ApiFunction")["Environment"]["Variables"]["PUBLIC_BASE_URL"]
    pattern = re.compile(template["Parameters"]["CertificateArn"]["AllowedPattern"])

    assert config["Aliases"] == {"Fn::If": ["HasCustomDomain", [{"Ref": "DomainName"}], {"Ref": "AWS::NoValue"}]}
    custom, default = config["ViewerCertificate"]["Fn::If"][1:]
    assert custom == {"AcmCertificateArn": {"Ref": "CertificateArn"}, "SslSupportMethod": "sni-only",
                      "MinimumProtocolVersion": "TLSv1.2_2021"}
    assert default == {"CloudFrontDefaultCertificate": True}
    assert pattern.fullmatch("arn:aws:acm:us-east-1:123456789012:certificate/abc")
    assert not pattern.fullmatch("arn:aws:acm:eu-west-1:123456789012:certificate/abc")
    # PublicBaseUrl, unset, follows the domain.
    assert base == {"Fn::If": ["HasPublicBaseUrl", {"Ref": "PublicBaseUrl"},
                               {"Fn::If": ["HasCustomDomain", {"Fn::Sub": "https://${DomainName}"}, ""]}]}
    assert template["Rules"]["CustomDomainNeedsCertificate"]
    assert template["Outputs"]["ApiUrl"]["Value"]["Fn::If"][2] == {
        "Fn::Sub": "https://${ApiDistribution.DomainName}/"}


def test_the_api_alias_shifts_traffic_with_the_api_alarms_as_rollback_triggers():
    api = _function("ApiFunction")
    resources = translated()["Resources"]

    assert api["DeploymentPreference"] == {"Type": {"Ref": "DeploymentType"},
                                           "Alarms": [{"Ref": "Api5xxAlarm"}, {"Ref": "ApiLatencyAlarm"}]}
    group = resources["ApiFunctionDeploymentGroup"]["Properties"]
    assert group["AlarmConfiguration"]["Alarms"] == [{"Name": {"Ref": "Api5xxAlarm"}},
                                                     {"Name": {"Ref": "ApiLatencyAlarm"}}]
    assert load_template()["Parameters"]["DeploymentType"]["Default"].startswith("Canary")


# ---------------------------------------------------------------- docs, checkov


def test_docs_deploy_names_every_template_parameter():
    doc = (REPO / "docs/deploy.md").read_text()
    missing = [name for name in load_template()["Parameters"] if f"`{name}`" not in doc]

    assert not missing


def test_readme_deploy_section_counts_the_functions_and_links_the_deploy_doc():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Deploy"):]
    section = section[: section.find("\n## ", 4) if "\n## " in section[4:] else len(section)]
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
             10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen",
             15: "fifteen"}

    assert f"{words[len(_resources('AWS::Serverless::Function'))]} functions" in section
    assert "docs/deploy.md" in section
    deploy = (REPO / "docs" / "deploy.md").read_text()
    assert f"The {words[len(_resources('AWS::Serverless::Function'))]} function builds" in deploy
    assert "authorizer" not in section.lower() or "no gateway authorizer" in section.lower()


def test_checkov_finds_nothing_unsuppressed():
    if not CHECKOV.exists():
        pytest.fail(f"checkov not found at {CHECKOV}; `make test` installs it (requirements-checkov.txt)")
    result = subprocess.run([str(CHECKOV), "--quiet", "--compact", "--skip-download", "--framework", "cloudformation",
                             "-f", str(REPO / "template.yaml")], capture_output=True, text=True,
                            timeout=600, check=False, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_checkov_suppression_says_why():
    for name, resource in load_template()["Resources"].items():
        for skip in resource.get("Metadata", {}).get("checkov", {}).get("skip", []):
            assert re.fullmatch(r"CKV2?_AWS_\d+", skip["id"]), name
            assert len(skip["comment"]) > 20, (name, skip["id"])
