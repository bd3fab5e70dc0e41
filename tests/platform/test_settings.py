"""Settings: read from the environment once, changed only by _replace, never showing secrets."""
from __future__ import annotations

from app.config import Settings


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
