"""The sign-in directory account deletion calls: Cognito's admin API (moto) and the recorder."""
from __future__ import annotations

import boto3

from app.config import Settings
from app.account.cognito import CognitoAdmin, RecordingDirectory, for_settings


def test_cognito_admin_deletes_the_user_and_a_second_delete_is_fine(aws):
    client = boto3.client("cognito-idp", region_name="us-east-1")
    pool = client.create_user_pool(PoolName="tailspend-test")["UserPool"]["Id"]
    client.admin_create_user(UserPoolId=pool, Username="dora")

    admin = CognitoAdmin(pool, client)
    admin.delete_user("dora")
    admin.delete_user("dora")  # a resumed deletion calls again: already gone is done

    assert client.list_users(UserPoolId=pool)["Users"] == []


def test_the_environment_picks_cognito_only_for_a_deployed_pool(aws):
    assert isinstance(for_settings(Settings.from_env({})), RecordingDirectory)
    assert isinstance(for_settings(Settings.from_env({"COGNITO_USER_POOL_ID": "p", "TAILSPEND_LOCAL": "1"})),
                      RecordingDirectory)
    deployed = for_settings(Settings.from_env({"COGNITO_USER_POOL_ID": "us-east-1_abc"}))
    assert isinstance(deployed, CognitoAdmin) and deployed.user_pool_id == "us-east-1_abc"
