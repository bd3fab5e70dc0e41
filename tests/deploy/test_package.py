"""The Lambda package as `sam build` makes it, proven offline.

The package is built with the Makefile target SAM calls (`make build-<LogicalId>`) for this
machine's architecture, then every function of template.yaml imports its handler from that
package alone, in the runtime's Python (3.12, `-I -S`: no site-packages, no PYTHONPATH, only
the package on sys.path), with only the environment the template gives that function plus
what Lambda's runtime sets, and handles one canned event from events/ against the embedded
DynamoDB (moto's server, tables from the template; its other services stand in for SQS and
Secrets Manager through boto3's documented AWS_ENDPOINT_URL).

The build step itself caches the package (.aws-sam/package, keyed by a hash of everything that
goes into it, built under a file lock): xdist workers never build it twice, and a warm run
pays a hash of the sources and a hard-linked copy.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from app.local.dynamodb import EmbeddedDynamoDB
from app.local.template_tables import load_template

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
CACHE = ROOT / ".aws-sam" / "package-test"
HOST_ARCHITECTURE = {"x86_64": "x86_64", "amd64": "x86_64",
                     "aarch64": "arm64", "arm64": "arm64"}[platform.machine().lower()]
ELF_MACHINE = {"x86_64": 0x3E, "arm64": 0xB7}
REGION, ACCOUNT = "us-east-1", "123456789012"
FUNCTION_TYPE = "AWS::Serverless::Function"

TEMPLATE = load_template()
FUNCTIONS = {name: resource for name, resource in TEMPLATE["Resources"].items()
             if resource["Type"] == FUNCTION_TYPE}


def _script():
    """scripts/lambda_package.py as a module (standard library only), for its constants."""
    spec = importlib.util.spec_from_file_location("lambda_package",
                                                  ROOT / "scripts" / "lambda_package.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _make(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """make in the repo, with only the variables given here (not those of a `make test` that
    runs this, which MAKEFLAGS would pass on)."""
    env = {name: value for name, value in (env or os.environ).items()
           if name not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "LAMBDA_ARCHITECTURE")}
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)


# ---------------------------------------------------------------- Python 3.12 and the build


@pytest.fixture(scope="module")
def lambda_python() -> str:
    """The Python 3.12 the Makefile builds with; its absence fails (never skips) the tests."""
    found = _make("-s", "lambda-python")
    if found.returncode:
        pytest.fail("make lambda-python: " + (found.stderr or found.stdout).strip())
    return found.stdout.strip()


@pytest.fixture(scope="module")
def package(lambda_python) -> Path:
    """The package for this machine's architecture, from `make build-<first function>`.

    Run every time: the step keeps the built package in .aws-sam/package, keyed by a hash of
    all its inputs and built under a file lock, so the two xdist workers build it once and
    unchanged sources cost a hash and a hard-linked copy. Each worker has its own copy, so
    one never replaces the directory the other's handlers are running from."""
    artifacts = CACHE / f"{HOST_ARCHITECTURE}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    built = _make(f"build-{next(iter(FUNCTIONS))}", f"ARTIFACTS_DIR={artifacts}",
                  f"LAMBDA_ARCHITECTURE={HOST_ARCHITECTURE}", f"LAMBDA_PYTHON={lambda_python}")
    if built.returncode:
        pytest.fail("the package build failed:\n" + built.stdout[-3000:] + built.stderr[-3000:])
    return artifacts


def test_every_function_is_built_by_the_makefile_through_one_rule():
    """Each function names the makefile build, and `make build-<LogicalId>` (what SAM runs)
    exists for each and runs the same step: a function added to the template cannot miss
    its target, and no list of names in the Makefile can drift from the template."""
    assert len(FUNCTIONS) >= 6
    recipes = {}
    for name, resource in FUNCTIONS.items():
        assert resource.get("Metadata", {}).get("BuildMethod") == "makefile", name
        dry = _make("-n", f"build-{name}", "ARTIFACTS_DIR=/nonexistent/artifacts")
        assert dry.returncode == 0, f"make has no build-{name}: {dry.stderr}"
        recipes[name] = dry.stdout
    assert len(set(recipes.values())) == 1, recipes
    assert "lambda_package.py" in next(iter(recipes.values()))
    makefile = (ROOT / "Makefile").read_text()
    assert not [name for name in FUNCTIONS if re.search(rf"\b{name}\b", makefile)]


def test_lambda_python_runs_3_12(lambda_python):
    version = subprocess.run([lambda_python, "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout
    assert version.strip() == "(3, 12)"


def _find_python(path_dirs: list[Path], pyenv_root: Path, home: Path):
    env = {"PATH": os.pathsep.join(map(str, path_dirs)), "PYENV_ROOT": str(pyenv_root),
           "HOME": str(home)}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "lambda_package.py"),
                           "--find-python"], env=env, capture_output=True, text=True)


def test_a_refusing_python3_12_shim_is_skipped_for_pyenvs_versions(tmp_path, lambda_python):
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3.12"  # what pyenv's shim does when 3.12 is not selected
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.12: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    root = tmp_path / "pyenv"
    for version in ("3.12.0", "3.12.10"):
        (root / "versions" / version / "bin").mkdir(parents=True)
    (root / "versions" / "3.12.10" / "bin" / "python3.12").symlink_to(lambda_python)
    found = _find_python([shims], root, tmp_path)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == str(root / "versions" / "3.12.10" / "bin" / "python3.12")


def test_without_python_3_12_the_build_says_what_to_install(tmp_path):
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "python3.12").write_text("#!/bin/sh\nexit 127\n")
    (shims / "python3.12").chmod(0o755)
    found = _find_python([shims], tmp_path / "no-pyenv", tmp_path)
    assert found.returncode == 1
    assert "needs Python 3.12" in found.stderr and "LAMBDA_PYTHON=" in found.stderr


def test_a_named_lambda_python_that_is_not_3_12_is_refused(tmp_path):
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "LAMBDA_PYTHON": sys.executable}
    found = subprocess.run([sys.executable, str(ROOT / "scripts" / "lambda_package.py"),
                            "--find-python"], env=env, capture_output=True, text=True)
    assert found.returncode == 1
    assert f"LAMBDA_PYTHON={sys.executable} is not a working Python 3.12" in found.stderr


# ---------------------------------------------------------------- architecture


def test_architecture_is_one_parameter_every_function_uses():
    parameter = TEMPLATE["Parameters"]["Architecture"]
    assert (parameter["Default"], parameter["AllowedValues"]) == ("arm64", ["arm64", "x86_64"])
    assert TEMPLATE["Globals"]["Function"]["Architectures"] == [{"Ref": "Architecture"}]
    assert not [name for name, resource in FUNCTIONS.items()
                if "Architectures" in resource["Properties"]]
    # Plain `sam build` builds the template's default; the package step reads the same one.
    assert _script().template_architecture() == parameter["Default"]


def test_make_build_passes_one_architecture_to_sam_and_the_package_step():
    plain = _make("-n", "build")
    assert plain.returncode == 0 and "--parameter-overrides" not in plain.stdout
    chosen = _make("-n", "build", "LAMBDA_ARCHITECTURE=x86_64")
    assert "sam build --parameter-overrides Architecture=x86_64" in chosen.stdout
    # The variable reaches the make process SAM starts (it passes its environment on).
    exported = _make("-s", "-p", "LAMBDA_ARCHITECTURE=x86_64", "lambda-python")
    assert re.search(r"^export LAMBDA_ARCHITECTURE|^LAMBDA_ARCHITECTURE = x86_64",
                     exported.stdout, re.M)


def test_compiled_modules_are_for_the_built_architecture(package):
    shared = list(package.rglob("*.so"))
    assert shared, "cryptography at least ships a compiled module"
    wrong = []
    for path in shared:
        header = path.read_bytes()[:20]
        if header[:4] != b"\x7fELF" or int.from_bytes(header[18:20], "little") != \
                ELF_MACHINE[HOST_ARCHITECTURE]:
            wrong.append(path.relative_to(package))
    assert not wrong


# ---------------------------------------------------------------- what is in the package


def _lock_entries() -> dict[str, str]:
    text = (ROOT / "requirements.lock").read_text()
    return {_normal(name): version
            for name, version in re.findall(r"^([A-Za-z0-9._-]+)==(\S+)", text, re.M)}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            name, _, version = line.partition("==")
            pins[_normal(re.sub(r"\[.*\]", "", name))] = version
    return pins


def test_the_lock_is_in_step_with_requirements_txt():
    lock = (ROOT / "requirements.lock").read_text()
    recorded = re.search(r"^# requirements.txt sha256: ([0-9a-f]{64})$", lock, re.M)
    current = hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()
    assert recorded and recorded.group(1) == current, \
        "requirements.txt changed since requirements.lock was written: run `make lock`"
    entries = _lock_entries()
    for name, version in _pins(ROOT / "requirements.txt").items():
        assert entries.get(name) == version, (name, version, entries.get(name))
    # Every entry exact and hash-checked (pip --require-hashes refuses the lock otherwise).
    body = "\n".join(line for line in lock.splitlines() if not line.startswith("#"))
    blocks = re.split(r"\n(?=\S)", body.strip())
    assert len(blocks) == len(entries)
    assert all("==" in block.split()[0] and "--hash=sha256:" in block for block in blocks)


def _installed(package: Path) -> dict[str, str]:
    found = {}
    for info in package.glob("*.dist-info"):
        metadata = (info / "METADATA").read_text(encoding="utf-8")
        name = re.search(r"^Name: (.+)$", metadata, re.M).group(1).strip()
        found[_normal(name)] = re.search(r"^Version: (.+)$", metadata, re.M).group(1).strip()
    return found


def test_the_package_holds_exactly_the_lock_and_no_development_code(package):
    installed = _installed(package)
    assert installed == _lock_entries()
    # Development-only requirements (moto, pytest, schemathesis, cfn-lint, ...) stay out.
    development = set(_pins(ROOT / "requirements-dev.txt")) - set(_pins(ROOT / "requirements.txt"))
    assert {"moto", "pytest", "schemathesis"} <= development
    assert not development & set(installed)
    for module in ("moto", "pytest", "_pytest", "yaml", "cfnlint", "hypothesis", "schemathesis"):
        assert not (package / module).exists() and not (package / f"{module}.py").exists()
    # boto3 is in the lock on purpose: the code calls it, and it must match the botocore that
    # pynamodb brings, rather than whichever the runtime provides.
    assert "boto3" in installed and "botocore" in installed
    assert not (package / "app" / "local").exists()
    assert not (package / "app" / "__main__.py").exists()
    assert not (package / "bin").exists() and not (package / "tests").exists()
    assert (package / "models").is_dir()
    # Bytecode for the runtime's Python ships with our sources (read-only file system there).
    assert list((package / "app" / "handlers" / "__pycache__").glob("api.cpython-312.pyc"))


# ---------------------------------------------------------------- every handler, as deployed


class _Resolver:
    """Plausible local values for the template's intrinsics: parameters take their defaults,
    a queue or secret is created in the embedded moto and named as CloudFormation would."""

    def __init__(self, endpoint: str, boto3_session) -> None:
        self.endpoint, self.session = endpoint, boto3_session
        self.parameters = {name: _default(spec) for name, spec in
                           TEMPLATE["Parameters"].items()}
        self.created: dict[str, str] = {}

    def client(self, service: str):
        return self.session.client(service, endpoint_url=self.endpoint, region_name=REGION)

    def condition(self, name: str) -> bool:
        return bool(self.value(TEMPLATE["Conditions"][name]))

    def ref(self, name: str):
        pseudo = {"AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::Partition": "aws",
                  "AWS::URLSuffix": "amazonaws.com", "AWS::StackName": "tailspend-package-test",
                  "AWS::NoValue": _NO_VALUE}
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        kind = TEMPLATE["Resources"][name]["Type"]
        if name not in self.created:
            if kind == "AWS::SQS::Queue":
                self.created[name] = self.client("sqs").create_queue(
                    QueueName=f"package-test-{name}")["QueueUrl"]
            elif kind == "AWS::SecretsManager::Secret":
                # One secret may serve two functions (the realtime key: API and authorizer),
                # each resolved in its own test against the module's one endpoint.
                secrets = self.client("secretsmanager")
                # The origin ring holds the value the canned API event carries (CloudFront's).
                value = (json.dumps({"current": "canned-origin-secret", "previous": ""})
                         if name == "OriginVerifySecret" else uuid.uuid4().hex)
                try:
                    self.created[name] = secrets.create_secret(
                        Name=f"package-test-{name}", SecretString=value)["ARN"]
                except secrets.exceptions.ResourceExistsException:
                    self.created[name] = secrets.describe_secret(
                        SecretId=f"package-test-{name}")["ARN"]
            else:  # pools, clients, topics: an opaque id the code only passes along
                self.created[name] = f"{name}-local-id"
        return self.created[name]

    def get_att(self, name: str, attribute: str) -> str:
        if attribute == "QueueName":
            return self.ref(name).rsplit("/", 1)[-1]
        return f"arn:aws:local:{REGION}:{ACCOUNT}:{name}/{attribute}"

    def sub(self, text: str, variables: dict) -> str:
        if "{{resolve:" in text:  # a dynamic reference CloudFormation resolves at deploy
            return "resolved-" + hashlib.sha256(text.encode()).hexdigest()[:16]

        def one(match: re.Match) -> str:
            name = match.group(1)
            if name in variables:
                return str(self.value(variables[name]))
            if "." in name and not name.startswith("AWS::"):
                return self.get_att(*name.split(".", 1))
            return str(self.ref(name))

        return re.sub(r"\$\{([^}!]+)\}", one, text)

    def value(self, node):
        if not isinstance(node, dict):
            return node
        (key, argument), = node.items()
        if key == "Ref":
            return self.ref(argument)
        if key == "Condition":
            return self.condition(argument)
        if key == "Fn::If":
            name, yes, no = argument
            return self.value(yes if self.condition(name) else no)
        if key == "Fn::Equals":
            return self.value(argument[0]) == self.value(argument[1])
        if key == "Fn::Not":
            return not self.value(argument[0])
        if key == "Fn::And":
            return all(self.value(part) for part in argument)
        if key == "Fn::Or":
            return any(self.value(part) for part in argument)
        if key == "Fn::Join":
            parts = self.value(argument[1])
            return argument[0].join(str(self.value(part)) for part in parts)
        if key == "Fn::Select":
            return self.value(argument[1])[int(self.value(argument[0]))]
        if key == "Fn::Split":
            return str(self.value(argument[1])).split(argument[0])
        if key == "Fn::FindInMap":
            name, first, second = (self.value(part) for part in argument)
            return TEMPLATE["Mappings"][name][first][second]
        if key == "Fn::GetAtt":
            return self.get_att(*argument)
        if key == "Fn::Sub":
            text, variables = (argument, {}) if isinstance(argument, str) else argument
            return self.sub(text, variables)
        raise AssertionError(f"the package test cannot resolve {key} locally: teach _Resolver")

    def environment(self, logical_id: str) -> dict[str, str]:
        variables = dict(TEMPLATE["Globals"]["Function"]["Environment"]["Variables"])
        variables.update(FUNCTIONS[logical_id]["Properties"].get("Environment", {})
                         .get("Variables", {}))
        resolved = {name: self.value(node) for name, node in variables.items()}
        return {name: value if isinstance(value, str) else json.dumps(value)
                for name, value in resolved.items() if value is not _NO_VALUE}


_NO_VALUE = object()


def _default(parameter: dict):
    value = str(parameter.get("Default", ""))
    if parameter["Type"] == "CommaDelimitedList" or parameter["Type"].startswith("List<"):
        return [part.strip() for part in value.split(",")] if value else []
    return value

# Lambda's runtime runs the handler with sys.path = the package, then the runtime, then the
# standard library; here -I -S leave the package (first) and the standard library only.
_RUNNER = r"""
import importlib, json, sys
package, handler, event_path = sys.argv[1:4]
sys.path.insert(0, package)
module_name, _, function = handler.rpartition(".")
handle = getattr(importlib.import_module(module_name), function)

class Context:
    function_name = "package-test"
    function_version = "$LATEST"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:package-test"
    aws_request_id = "00000000-0000-4000-8000-00000000cafe"
    log_group_name = "/aws/lambda/package-test"
    log_stream_name = "2026/12/01/[$LATEST]0123456789abcdef"

    def get_remaining_time_in_millis(self):
        return 60000

with open(event_path, encoding="utf-8") as file:
    result = handle(json.load(file), Context())
outside = sorted({module.__file__ for module in list(sys.modules.values())
                  if getattr(module, "__file__", None)
                  and not module.__file__.startswith((package, sys.base_prefix))})
print("\n" + json.dumps({"result": result, "outside": outside}, default=str))
"""


def _api_reply(result: dict, client) -> None:
    assert result["statusCode"] in ("404", 404)
    assert json.loads(result["body"])["error"]["code"] == "NOT_FOUND"


def _provisioned(result: dict, client) -> None:
    event = json.loads((EVENTS / "cognito_post_confirmation.json").read_text())
    assert result == event  # Cognito triggers answer with the event
    users = client.scan(TableName="tailspend-dev-users")["Items"]
    assert {item["UserId"]["S"] for item in users}


def _fanned_out(result: dict, client, resolver) -> None:
    assert result["bucketsSent"] >= 1
    queue = resolver.ref("RecurringBucketQueue")
    attributes = resolver.client("sqs").get_queue_attributes(
        QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
    assert int(attributes["ApproximateNumberOfMessages"]) == result["bucketsSent"]


def _no_failures(result: dict, client) -> None:
    assert result == {"batchItemFailures": []}


def _every_record_reported(result: dict, client) -> None:
    # No Event API answers here: the publisher tried each channel's chunk and reported its
    # first record (the group's two changes go in one publish, the REVOKED in another).
    records = json.loads((EVENTS / "realtime_groups_stream.json").read_text())["Records"]
    assert result == {"batchItemFailures": [
        {"itemIdentifier": records[n]["dynamodb"]["SequenceNumber"]} for n in (0, 2)]}


def _refused(result: dict, client) -> None:
    assert result == {"isAuthorized": False, "ttlOverride": 0}  # the canned token is forged


def _nothing_suppressed(result: dict, client) -> None:
    assert result == {"suppressed": 0}


def _a_summary(result: dict, client) -> None:
    assert isinstance(result, dict)


def _no_digests(result: dict, client) -> None:
    assert result == {"digestsSent": 0, "moreDigests": False}


# One canned event per function (a new function fails here until it has one).
CANNED = {
    "ApiFunction": ("api_get_missing.json", _api_reply),
    "ProvisioningFunction": ("cognito_post_confirmation.json", _provisioned),
    "HourlyTickFunction": ("schedule_hourly.json", _fanned_out),
    "RecurringBucketWorkerFunction": ("recurring_bucket_sqs.json", _no_failures),
    "NotificationWorkerFunction": ("notifications_stream.json", _no_failures),
    "MaintenanceFunction": ("schedule_maintenance.json", _a_summary),
    # A transient bounce: nothing suppressed, so no SES call from the package.
    "MailFeedbackFunction": ("sns_mail_feedback.json", _nothing_suppressed),
    # The canned message names no account left to delete: a finished deletion is a no-op.
    "AccountDeletionWorkerFunction": ("account_deletion_sqs.json", _no_failures),
    # The canned message names no import: the worker logs it and answers with no failure.
    "ImportWorkerFunction": ("import_sqs.json", _no_failures),
    # The canned message names no account: nothing to mirror.
    "ProfileMirrorWorkerFunction": ("profile_mirror_sqs.json", _no_failures),
    # The canned message names no admitted message: the worker finds nothing to draft.
    "ChatWorkerFunction": ("chat_worker_sqs.json", _no_failures),
    # The canned ingest names no receipt: the worker (Pillow loaded) finds nothing to do.
    "ReceiptWorkerFunction": ("receipt_worker_sqs.json", _no_failures),
    "RealtimePublisherFunction": ("realtime_groups_stream.json", _every_record_reported),
    # The same records the realtime publisher reads; their group is gone: nothing to project.
    "ProjectionFunction": ("realtime_groups_stream.json", _no_failures),
    "RealtimeAuthorizerFunction": ("realtime_authorizer_subscribe.json", _refused),
}
# A function that several schedules invoke with events of their own: each further event,
# run the same way. The digests' schedule (no MailDomain here: nothing to send).
MORE_CANNED = {
    "MaintenanceFunction:digests": ("schedule_digests.json", _no_digests),
}


@pytest.fixture(scope="module")
def embedded():
    """The embedded endpoint (moto's server, serialized) with the template's tables."""
    stage = TEMPLATE["Parameters"]["Stage"]["Default"]
    database = EmbeddedDynamoDB(host="127.0.0.1", port=0, stage=stage).start()
    yield database
    database.stop()


def _runtime_environment(package: Path, logical_id: str, endpoint: str) -> dict[str, str]:
    """What Lambda's runtime sets (region, credentials, task root), plus the endpoint of the
    stand-in AWS. Nothing of this process's environment leaks in."""
    properties = {**TEMPLATE["Globals"]["Function"], **FUNCTIONS[logical_id]["Properties"]}
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "en_US.UTF-8", "TZ": ":UTC",
        "LAMBDA_TASK_ROOT": str(package), "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
        "AWS_LAMBDA_FUNCTION_NAME": f"tailspend-dev-{logical_id}",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(properties.get("MemorySize", 128)),
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_REGION": REGION, "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_SESSION_TOKEN": "local",
        "AWS_ENDPOINT_URL": endpoint,  # every AWS call to the stand-in (boto3 >= 1.28)
        "PYTHONDONTWRITEBYTECODE": "1",  # read-only there; the cached package stays as built
    }


@pytest.mark.parametrize("case", sorted(FUNCTIONS) + sorted(MORE_CANNED))
def test_every_handler_runs_a_canned_event_from_its_package_alone(
        case, package, lambda_python, embedded, tmp_path):
    logical_id = case.partition(":")[0]
    assert case in {**CANNED, **MORE_CANNED}, f"give {case} a canned event from events/ in CANNED"
    event_file, check = {**CANNED, **MORE_CANNED}[case]
    import boto3

    session = boto3.session.Session(aws_access_key_id="local", aws_secret_access_key="local")
    resolver = _Resolver(embedded.endpoint, session)
    environment = resolver.environment(logical_id)
    # The template declares DYNAMODB_ENDPOINT empty (set only by sam local): point it here.
    assert environment.pop("DYNAMODB_ENDPOINT") == ""
    assert environment["TAILSPEND_LOCAL"] == ""  # the AWS code paths, not local mode's
    env = {**_runtime_environment(package, logical_id, embedded.endpoint), **environment,
           "DYNAMODB_ENDPOINT": embedded.endpoint}
    handler = FUNCTIONS[logical_id]["Properties"]["Handler"]
    run = subprocess.run([lambda_python, "-I", "-S", "-c", _RUNNER, str(package), handler,
                          str(EVENTS / event_file)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-4000:]
    reply = json.loads(run.stdout.strip().splitlines()[-1])
    assert reply["outside"] == [], "modules loaded from outside the package and the stdlib"
    client = embedded.client()
    if check is _fanned_out:
        check(reply["result"], client, resolver)
    else:
        check(reply["result"], client)
