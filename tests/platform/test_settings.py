"""Settings: each declared once, read from the environment once and checked at cold start,
changed only by _replace, never showing secrets."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import DECLARED, Settings, SettingError, _read, env

ROOT = Path(__file__).resolve().parents[2]


def test_the_cursor_secret_never_appears_in_a_repr():
    settings = Settings.from_env({"CURSOR_SECRET": "s3cr3t-cursor-key", "TAILSPEND_STAGE": "prod"})

    assert settings.cursor_secret == b"s3cr3t-cursor-key"
    assert "s3cr3t" not in repr(settings) and "cursor_secret" not in repr(settings)
    assert "stage='prod'" in repr(settings)
    assert "s3cr3t" not in f"{settings}" and "s3cr3t" not in str([settings])


def test_overrides_win_over_the_environment_and_the_rest_is_kept():
    settings = Settings.from_env({"TAILSPEND_STAGE": "prod", "AWS_REGION": "eu-west-1"},
                                 local_mode=True)

    assert (settings.stage, settings.region, settings.local_mode) == ("prod", "eu-west-1", True)
    assert settings._replace(stage="other").region == "eu-west-1"


def test_a_bad_value_stops_the_cold_start_naming_its_variable():
    """Checked at cold start: a handler's import fails on the bad value, not a later request."""
    environment = {**os.environ, "RATE_LIMIT_APP_PER_MINUTE": "abc", "TAILSPEND_STAGE": "test"}
    run = subprocess.run([sys.executable, "-c", "import app.handlers.hourly"], cwd=ROOT,
                         env=environment, capture_output=True, text=True, timeout=120)

    assert run.returncode != 0
    assert "SettingError: RATE_LIMIT_APP_PER_MINUTE='abc': not a whole number" in run.stderr


@pytest.mark.parametrize("name, value, reason", [
    ("TAILSPEND_LOCAL", "maybe", "not one of 1/true/yes/on or 0/false/no/off"),
    ("CHAT_DRAFTER_TIMEOUT", "soon", "not a number"),
    ("CHAT_MONTHLY_CREDITS", "-1", "less than 0"),
    ("CHAT_DRAFTER", "gpt", "not one of rules, bedrock, openai"),
    ("REALTIME_SCHEME", "http", "not one of wss, ws"),
    ("TAILSPEND_COMPACT_BYTES", "4MB", "not a whole number"),
])
def test_each_bad_value_names_its_variable_and_why(name, value, reason):
    with pytest.raises(SettingError) as raised:
        Settings.from_env({name: value})

    assert str(raised.value) == f"{name}={value!r}: {reason}"


def test_a_bad_secret_is_named_but_never_shown():
    with pytest.raises(SettingError) as raised:
        _read("chat_openai_api_key", "CHAT_OPENAI_API_KEY", "sk-live",
              env("CHAT_OPENAI_API_KEY", minimum=0), int)

    assert str(raised.value) == "CHAT_OPENAI_API_KEY=(hidden): not a whole number"


def test_each_setting_is_declared_once_with_its_environment_name():
    """One declaration per variable; every declared field is a Settings field with a default
    of the declared type, so the declaration is the whole story."""
    names = [name for source, _ in DECLARED.values() for name in source.names]

    assert len(names) == len(set(names))
    assert {"RATE_LIMIT_APP_PER_MINUTE", "TAILSPEND_SNAPSHOT_SECONDS", "CURSOR_SECRET"} <= set(names)
    for field, (_, kind) in DECLARED.items():
        default = Settings._field_defaults[field]
        assert default is None or isinstance(default, kind), field


def test_no_module_but_the_settings_reads_the_environment():
    """Services take settings from app.config; the CLI only seeds the environment local mode
    reads, and app/logs.py and app/metrics.py pass Powertools its own variables (POWERTOOLS_*,
    LOG_LEVEL)."""
    allowed = {"app/config.py", "app/__main__.py", "app/logs.py", "app/metrics.py"}
    readers = set()
    for path in sorted(Path(ROOT, "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")
                    and isinstance(node.value, ast.Name) and node.value.id == "os"):
                readers.add(path.relative_to(ROOT).as_posix())

    assert readers <= allowed, sorted(readers - allowed)


def test_the_local_server_reads_its_tuning_from_the_settings():
    settings = Settings.from_env({"TAILSPEND_SNAPSHOT_SECONDS": "0.1",
                                  "TAILSPEND_COMPACT_BYTES": "4000"})

    assert (settings.local_snapshot_seconds, settings.local_compact_bytes) == (0.1, 4000)


def test_limits_the_environment_sets_override_only_those_limits():
    settings = Settings.from_env({"RATE_LIMIT_APP_PER_MINUTE": "30",
                                  "DEV_DAILY_CREATE_ALLOWANCE": "0"})

    assert settings.limit_overrides == (("app_per_minute", 30), ("daily_creates", 0))


def test_a_value_that_reads_as_empty_is_unset_but_an_empty_test_domain_is_kept():
    settings = Settings.from_env({"TAILSPEND_STAGE": "", "PUBLIC_BASE_URL": "/",
                                  "CORS_ALLOW_ORIGIN": "*", "TEST_ACCOUNT_DOMAIN": ""})

    assert (settings.stage, settings.public_base_url, settings.cors_allow_origins) == ("dev", None, ())
    assert settings.test_account_domain == ""
