"""template.yaml as CloudFormation: SAM's own translator (samtranslator, in .venv-sam), offline.

`sam validate` translates without writing the result anywhere; this runs the same
``samtranslator.translator.transform.transform`` in the SAM venv's interpreter, with a stub of
the managed-policy map (the names SAM adds to roles, mapped to their ARNs: no AWS call)."""
from __future__ import annotations

import functools
import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAM_PYTHON = REPO / ".venv-sam" / "bin" / "python"
TEMPLATE = REPO / "template.yaml"

_SCRIPT = """
import json, sys
from samcli.yamlhelper import yaml_parse
from samtranslator.translator.transform import transform

class ManagedPolicies:
    def load(self):
        names = {"AWSLambdaBasicExecutionRole": "service-role/",
                 "AWSLambdaDynamoDBExecutionRole": "service-role/",
                 "AWSLambdaSQSQueueExecutionRole": "service-role/",
                 "AWSCodeDeployRoleForLambda": "service-role/",
                 "AWSXrayWriteOnlyAccess": "", "AWSXRayDaemonWriteAccess": ""}
        return {name: f"arn:aws:iam::aws:policy/{path}{name}" for name, path in names.items()}

template = yaml_parse(open(sys.argv[1]).read())
for resource in template["Resources"].values():
    if resource["Type"] == "AWS::Serverless::Function":
        resource["Properties"]["CodeUri"] = "s3://bucket/key"
print(json.dumps(transform(template, json.loads(sys.argv[2]), ManagedPolicies()), default=str))
"""


@functools.lru_cache(maxsize=4)
def _translate(parameters: str) -> str:
    if not SAM_PYTHON.exists():
        raise RuntimeError(f"aws-sam-cli's venv not found at {SAM_PYTHON}; `make test` installs it")
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
           "SAM_CLI_TELEMETRY": "0"}
    result = subprocess.run([str(SAM_PYTHON), "-c", _SCRIPT, str(TEMPLATE), parameters],
                            capture_output=True, text=True, timeout=300, env=env, check=False)
    if result.returncode != 0:
        raise RuntimeError(result.stderr)
    return result.stdout


def translated(**parameters: str) -> dict:
    """The CloudFormation template SAM makes of template.yaml (conditions left in place)."""
    return json.loads(_translate(json.dumps(parameters, sort_keys=True)))
