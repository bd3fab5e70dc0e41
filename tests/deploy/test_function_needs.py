"""Each function gets exactly the settings, AWS actions and tables its code can use.

Derived from the code (tests/deploy/code_needs.py walks the modules each handler loads), not
from a list kept by hand, so a sweep that starts pushing, or a function that stops touching a
table, changes what the template must give. Generic over the template's functions: a new one
is checked as soon as it is declared."""
from __future__ import annotations

import fnmatch
import json

import pytest

from app.local.template_tables import load_template
from tests.deploy import code_needs
from tests.deploy.sam_translate import translated

# Read by the code, never set by the template, everywhere: (name, why).
NOT_SET_IN_AWS = {
    "AWS_REGION": "set by the Lambda runtime",
    "AWS_DEFAULT_REGION": "set by the Lambda runtime",
    "TAILSPEND_DATA_DIR": "local mode's data directory",
    "CURSOR_SECRET": "local mode and tests; AWS passes CURSOR_SECRET_ARN",
    "TOKEN_PEPPER": "tests and ad-hoc runs; AWS passes TOKEN_PEPPER_SECRET_ARN",
    "MCP_SIGNING_KEY": "tests and ad-hoc runs; AWS passes MCP_SIGNING_KEY_SECRET_ARN",
    "VAPID_PRIVATE_KEY": "local mode; AWS passes VAPID_PRIVATE_KEY_PARAMETER",
    "RATE_LIMIT_APP_PER_MINUTE": "optional tuning (defaults in app/developer/quotas.py)",
    "RATE_LIMIT_PAT_PER_MINUTE": "optional tuning",
    "RATE_LIMIT_IP_PER_MINUTE": "optional tuning",
    "RATE_LIMIT_OAUTH_PER_MINUTE": "optional tuning",
    "RATE_LIMIT_LINK_PER_MINUTE": "optional tuning",
    "RATE_LIMIT_LINK_IP_PER_MINUTE": "optional tuning",
    "DEV_DAILY_REQUEST_BUDGET": "optional tuning",
    "DEV_DAILY_CREATE_ALLOWANCE": "optional tuning",
    "CHAT_OPENAI_BASE_URL": "the OpenAI-compatible drafter: self-hosted and local setups",
    "CHAT_OPENAI_API_KEY": "the OpenAI-compatible drafter: self-hosted and local setups",
    "CHAT_OPENAI_MODEL": "the OpenAI-compatible drafter: self-hosted and local setups",
    "REALTIME_TOKEN_KEY": "tests and ad-hoc runs; AWS passes REALTIME_TOKEN_KEY_SECRET_ARN",
    "REALTIME_SCHEME": "local mode's ws://; AWS answers wss:// (AppSync Events)",
    "S3_ENDPOINT": "local mode's embedded S3 (the DynamoDB endpoint); AWS uses the regional one",
    "RECEIPT_SCAN_CREDITS": "optional tuning (a scan costs 1 chat credit)",
    "RECEIPT_SCAN_ENGINE": "unset in AWS: Textract (app.receipts.scan.engine_name)",
    "RECEIPT_SCAN_TIMEOUT": "optional tuning",
    "RECEIPT_TESSERACT_LANGS": "the Tesseract engine: self-hosted and local setups",
    "RECEIPT_VISION_BASE_URL": "the OpenAI-compatible vision engine: self-hosted setups",
    "RECEIPT_VISION_API_KEY": "the OpenAI-compatible vision engine: self-hosted setups",
    "RECEIPT_VISION_MODEL": "the OpenAI-compatible vision engine: self-hosted setups",
    "SMTP_URL": "an SMTP relay: self-hosted and local setups; AWS sends through SES",
    "TAILSPEND_SERVING_ORIGIN": "local mode's serve; AWS links use PUBLIC_BASE_URL",
}
# Set by the template, read by a library rather than our code.
LIBRARY_SETTINGS = {"POWERTOOLS_TRACE_DISABLED"}
# bootstrap() reads the cursor key's ARN for every entry point, but only the API signs page
# cursors; every other function keeps a random per-process key and lists nothing.
API_ONLY_SETTINGS = {"CURSOR_SECRET_ARN"}
API_ONLY_ACTIONS = {"secretsmanager:GetSecretValue"}  # what reading that key by ARN calls
# Functions that read a secret of their own by ARN (so GetSecretValue is theirs, not only
# bootstrap's cursor-key read): the realtime authorizer verifies with the realtime token key.
OWN_SECRET_READERS = {"ApiFunction", "RealtimeAuthorizerFunction"}
# AWS calls signed by hand (botocore's SigV4Auth, no boto3 client the walk can see), per
# function: the module that signs them, the service it signs for, the IAM action.
SIGNED_CALLS = {"RealtimePublisherFunction": ("app.realtime.appsync", "appsync",
                                              {"appsync:EventPublish"})}

_PUSH_SETTINGS = {"VAPID_PRIVATE_KEY_PARAMETER", "VAPID_SUBJECT", "SNS_IOS_APPLICATION_ARN",
                  "SNS_ANDROID_APPLICATION_ARN", "APNS_KEY_PARAMETER", "APNS_KEY_ID",
                  "APNS_TEAM_ID", "APNS_TOPIC", "APNS_ENVIRONMENT",
                  "FCM_SERVICE_ACCOUNT_PARAMETER"}
_PUSH_ACTIONS = {"ssm:GetParameter", "sns:CreatePlatformEndpoint", "sns:Publish", "sns:DeleteEndpoint"}
# Reachable by module but never run in AWS, per function: {"env"|"actions"|"tables": {...}}, why.
NEVER_IN_AWS = {
    "ApiFunction": ({"env": _PUSH_SETTINGS, "actions": _PUSH_ACTIONS | {"textract:AnalyzeExpense"}},
                    "the API imports push.py for its platform constants (device registration); "
                    "only the stream worker and the outbox sweep send. A receipt scan runs on "
                    "the receipt worker: with RECEIPT_QUEUE_URL set the API only queues it "
                    "(running it in the caller is for tests and one-shot commands)"),
    "ReceiptWorkerFunction": ({"env": {"CHAT_MONTHLY_CREDITS", "RECEIPT_QUEUE_URL"},
                               "actions": {"sqs:SendMessage"},
                               "tables": {"fx-rates", "rate-limits"}},
                              "scanning.py holds the API's admission too (credits, the daily "
                              "counter, the hand-off); the worker runs and re-drives scans in "
                              "place. The credits area comes with the refund; a draft is "
                              "checked by the REST validation it shares with chat (no rate "
                              "lookups, no events)"),
    "HourlyTickFunction": ({"tables": {"groups", "notifications", "users", "fx-rates"}},
                           "RECURRING_BUCKET_QUEUE_URL is set, so run_tick only fans out; running "
                           "every bucket in-process is local mode's"),
    "RecurringBucketWorkerFunction": ({"env": {"RECURRING_BUCKET_QUEUE_URL"},
                                       "actions": {"sqs:SendMessage"}, "tables": {"users"}},
                                      "tick.py holds the fan-out too; the worker only runs buckets. "
                                      "Users: the Transaction helper's live-account check (and "
                                      "template creation, imported for schedule_of) reach the "
                                      "profile model; an occurrence is the group's write and "
                                      "checks no profile"),
    "ChatWorkerFunction": ({"env": {"CHAT_QUEUE_URL"}, "actions": {"sqs:SendMessage"},
                            "tables": {"notifications", "fx-rates"}},
                           "the worker drafts re-driven messages in place (hand_off is the API's "
                           "and the Maintenance sweep's); it reads rosters and users only, the "
                           "other tables are the models of modules it imports for one function "
                           "(the roster read, the capacity meter's client list); a draft carries "
                           "no rate, so the validation it shares with REST never looks one up"),
    "ProvisioningFunction": ({"tables": {"groups"}},
                             "the Transaction helper names the group row kinds that must carry a "
                             "change row (an isinstance check); the trigger writes only profiles "
                             "and identities"),
    "RealtimePublisherFunction": ({"tables": {"groups", "notifications"}},
                                  "pokes.py takes the CHANGE and USERMEMBER key prefixes from the "
                                  "groups models and the NOTIF/PREFS keys and stored attribute "
                                  "names from the notifications models; the publisher reads both "
                                  "streams, never a table"),
    "ImportWorkerFunction": ({"tables": {"notifications"}},
                             "the export module (the import reads its column names) imports the "
                             "settlement writers, which raise outbox events; an import raises none"),
    "ProfileMirrorWorkerFunction": ({"env": {"PROFILE_MIRROR_QUEUE_URL"},
                                     "actions": {"sqs:SendMessage"}},
                                    "mirror.py holds the API's hand-off too; the worker only "
                                    "mirrors"),
}

_TABLE_POLICIES = {"DynamoDBCrudPolicy", "DynamoDBReadPolicy"}


def _functions() -> dict:
    return {name: r for name, r in load_template()["Resources"].items()
            if r["Type"] == "AWS::Serverless::Function"}


FUNCTIONS = sorted(_functions())


def _handler_module(function: str) -> str:
    return _functions()[function]["Properties"]["Handler"].rsplit(".", 1)[0]


def _exempt(function: str, kind: str) -> set:
    exempt = set(NEVER_IN_AWS.get(function, ({}, ""))[0].get(kind, set()))
    if function != "ApiFunction":
        exempt |= {"env": API_ONLY_SETTINGS}.get(kind, set())
    if function not in OWN_SECRET_READERS:
        exempt |= {"actions": API_ONLY_ACTIONS}.get(kind, set())
    return exempt


def _template_env(function: str) -> set:
    template = load_template()
    names = set(template["Globals"]["Function"]["Environment"]["Variables"])
    own = _functions()[function]["Properties"].get("Environment", {}).get("Variables", {})
    return names | set(own)


def test_exemptions_name_only_what_the_code_really_reaches():
    """Each exemption must still be true of the code, or it is dropped."""
    for function, (kinds, reason) in NEVER_IN_AWS.items():
        root = _handler_module(function)
        derived = {"env": code_needs.env_reads(root), "actions": code_needs.aws_actions(root),
                   "tables": code_needs.tables(root)}
        for kind, names in kinds.items():
            assert names <= derived[kind], (function, kind, names - derived[kind], reason)
    every = set().union(*[code_needs.env_reads(_handler_module(f)) for f in FUNCTIONS])
    assert set(NOT_SET_IN_AWS) <= every, set(NOT_SET_IN_AWS) - every


@pytest.mark.parametrize("function", FUNCTIONS)
def test_function_gets_exactly_the_settings_its_code_reads(function):
    derived = code_needs.env_reads(_handler_module(function)) - set(NOT_SET_IN_AWS)
    needed = derived - _exempt(function, "env")
    given = _template_env(function) - LIBRARY_SETTINGS

    assert not needed - given, f"{function} reads settings the template does not give it"
    assert not given - needed, f"{function} is given settings its code never reads"


def _granted_actions(function: str) -> set:
    """Actions of the role's inline policies that come from the function's Policies, DynamoDB
    (checked per table below) and the event sources' own grants left out."""
    role = translated()["Resources"][f"{function}Role"]["Properties"]
    actions = set()
    for policy in role.get("Policies", []):
        while "Fn::If" in policy:  # a conditional policy: what it grants when on
            policy = policy["Fn::If"][1]
        name = policy["PolicyName"]
        if not name.startswith(f"{function}RolePolicy"):
            continue  # SAM's grants for event sources and failure destinations
        for statement in policy["PolicyDocument"]["Statement"]:
            listed = statement["Action"]
            actions.update([listed] if isinstance(listed, str) else listed)
    return {a for a in actions if not a.startswith("dynamodb:")}


@pytest.mark.parametrize("function", FUNCTIONS)
def test_function_may_call_exactly_the_aws_actions_its_code_calls(function):
    needed = code_needs.aws_actions(_handler_module(function)) - _exempt(function, "actions")
    if function in SIGNED_CALLS:
        needed |= SIGNED_CALLS[function][2]
    granted = _granted_actions(function)

    missing = {a for a in needed if not any(fnmatch.fnmatchcase(a, g) for g in granted)}
    extra = {g for g in granted if not any(fnmatch.fnmatchcase(a, g) for a in needed)}
    assert not missing, f"{function} calls {missing} without permission"
    assert not extra, f"{function} may call {extra}, which its code never does"


def _table_resource(logical: str) -> str:
    for name, resource in load_template()["Resources"].items():
        if resource["Type"] == "AWS::DynamoDB::Table" and \
                resource["Properties"]["TableName"] == {"Fn::Sub": f"tailspend-${{Stage}}-{logical}"}:
            return name
    raise AssertionError(logical)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_function_reaches_exactly_the_tables_its_code_uses(function):
    needed = {_table_resource(t) for t in
              code_needs.tables(_handler_module(function)) - _exempt(function, "tables")}
    policies = _functions()[function]["Properties"].get("Policies", [])
    granted = {body["TableName"]["Ref"] for policy in policies for kind, body in policy.items()
               if kind in _TABLE_POLICIES}

    assert granted == needed, function


def test_the_maintenance_sweep_can_push_what_it_redispatches():
    """The outbox re-dispatch pushes: the settings and grants the worker has, it has too."""
    derived = code_needs.env_reads("app.handlers.maintenance")
    assert _PUSH_SETTINGS <= derived
    assert _PUSH_ACTIONS <= code_needs.aws_actions("app.handlers.maintenance")
    assert _PUSH_SETTINGS <= _template_env("MaintenanceFunction")
    worker = json.dumps([p for p in _functions()["NotificationWorkerFunction"]["Properties"]["Policies"]
                         if "Fn::If" in p])
    sweep = json.dumps([p for p in _functions()["MaintenanceFunction"]["Properties"]["Policies"]
                        if "Fn::If" in p])
    assert worker == sweep


def test_hand_signed_calls_are_made_by_the_functions_code():
    for function, (module, service, _) in SIGNED_CALLS.items():
        assert module in code_needs.reachable(_handler_module(function)), function
        source = code_needs.module_path(module).read_text()
        assert "SigV4Auth(" in source and f'SERVICE = "{service}"' in source, module


# ---------------------------------------------------------------- the walk itself


def test_the_walk_follows_lazy_imports_but_not_a_parent_packages_functions():
    provisioning = code_needs.reachable("app.handlers.provisioning")
    api = code_needs.reachable("app.handlers.api")

    # app/__init__ imports the Flask factory inside create_app, which only the API calls.
    assert "app.factory" not in provisioning and "app.factory" in api
    # create_app imports every area's blueprint
    assert "app.groups.views" in api
    assert not [m for m in api | provisioning if m.startswith("app.local")]


def test_the_walk_reads_settings_through_constants_mappings_and_settings_fields():
    tick = code_needs.env_reads("app.handlers.hourly")
    provisioning = code_needs.env_reads("app.handlers.provisioning")

    assert "RECURRING_BUCKET_QUEUE_URL" in tick  # os.environ[QUEUE_URL_ENV]
    assert "TEST_ACCOUNT_DOMAIN" in provisioning and "TEST_ACCOUNT_DOMAIN" not in tick  # a field used
    assert "COGNITO_CLIENT_ID" not in provisioning  # read by Settings.from_env, used by the API only
    assert "RATE_LIMIT_PAT_PER_MINUTE" in code_needs.env_reads("app.handlers.api")  # a dict of names


def test_the_walk_maps_boto3_calls_to_iam_actions():
    # bootstrap's cursor-key read by ARN is reachable from every handler
    assert code_needs.aws_actions("app.handlers.hourly") == {"sqs:SendMessage"} | API_ONLY_ACTIONS
    assert code_needs.aws_actions("app.handlers.provisioning") == API_ONLY_ACTIONS
    assert "cognito-idp:AdminDeleteUser" in code_needs.aws_actions("app.handlers.maintenance")
