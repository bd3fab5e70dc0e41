"""Settings, read once from the environment into a frozen object; secrets read at run time."""
from __future__ import annotations

import os
import threading
from typing import Dict, Mapping, NamedTuple, Optional

DEFAULT_TEST_ACCOUNT_DOMAIN = "integ.tailspend.kinesis.studio"
# Local tokens name a fixed issuer, so tokens minted by `python -m app token` work whatever
# port `serve` listens on.
LOCAL_ISSUER = "https://issuer.tailspend.local"


def _flag(value: Optional[str]) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


# Fields whose values are keys: never printed.
_SECRET_FIELDS = frozenset({"cursor_secret", "chat_openai_api_key", "realtime_token_key",
                            "mcp_signing_key", "token_pepper", "vapid_private_key",
                            "receipt_vision_api_key"})


def _numbers_set(**values: Optional[str]) -> tuple:
    """(name, int) of the values that are set, in order."""
    return tuple((name, int(value)) for name, value in values.items() if value)


class Settings(NamedTuple):
    """Everything configurable about one running TailSpend; ``settings._replace(...)`` changes
    some. (A NamedTuple, not a frozen dataclass: the class is built at every cold start, and
    a frozen dataclass of this size costs ten times as much to build.)"""

    stage: str = "dev"
    region: str = "us-east-1"
    dynamodb_endpoint: Optional[str] = None
    local_mode: bool = False
    data_dir: str = ".tailspend"
    cognito_user_pool_id: Optional[str] = None
    cognito_client_id: Optional[str] = None
    local_client_id: str = "tailspend-local"
    test_account_domain: str = DEFAULT_TEST_ACCOUNT_DOMAIN
    cursor_secret: bytes = b""  # never in repr (see __repr__); local mode and tests
    # AWS: the Secrets Manager secret holding the cursor key, read on first use (secret_string),
    # so the key never sits in the function's configuration.
    cursor_key_arn: Optional[str] = None
    # AWS: the X-Origin-Verify ring CloudFront sends (app/api/origin.py); unset, no check.
    origin_verify_secret_arn: Optional[str] = None
    cors_allow_origins: tuple = ()
    max_body_bytes: int = 64 * 1024
    jwks_refresh_seconds: int = 60
    # MCP connector (OAuth). The public base URL names the issuer and the resource
    # (<base>/mcp); unset, each request's own URL is used (right for local mode only).
    public_base_url: Optional[str] = None
    # Browser origins trusted to call POST /mcp (besides the API's own, and loopback origins
    # in local mode); a request without Origin (a server-side MCP host) is always allowed.
    mcp_allowed_origins: tuple = ()
    # Fetch Client ID Metadata Documents from private/loopback hosts: local mode only.
    mcp_fetch_private: Optional[bool] = None
    # AWS sign-in for the consent flow: the Cognito hosted UI domain and its app client.
    cognito_domain: Optional[str] = None
    mcp_cognito_client_id: Optional[str] = None
    # DELETE /users/me sweeps inside the request for at most this long (and at most this many
    # units of work, when set), then answers 202 and the account-deletion worker goes on.
    account_delete_seconds: float = 5.0
    account_delete_units: Optional[int] = None
    # Expense chat assistant (docs/chat.md): which drafter, its endpoint, the credit rules.
    chat_drafter: str = "rules"  # rules | bedrock | openai
    chat_bedrock_model_id: str = ""
    chat_bedrock_region: Optional[str] = None
    chat_openai_base_url: str = ""
    chat_openai_api_key: str = ""  # never in repr (see __repr__)
    chat_openai_model: str = ""
    chat_drafter_timeout: float = 20.0
    chat_monthly_credits: int = 50
    chat_message_credits: int = 1
    # Workers' queues (template.yaml sets each on the functions that send to it); unset, work
    # goes to a local runner on a thread (local mode) or the caller's fallback
    # (app.core.handoff).
    account_deletion_queue_url: Optional[str] = None
    chat_queue_url: Optional[str] = None
    import_queue_url: Optional[str] = None
    recurring_bucket_queue_url: Optional[str] = None
    # The ECB daily publication, fetched by the Maintenance job only when set.
    fx_rates_url: Optional[str] = None
    # Live updates (docs/realtime.md): where clients connect and where the publisher posts.
    realtime_endpoint: Optional[str] = None
    realtime_scheme: str = "wss"
    realtime_http_endpoint: Optional[str] = None
    # Signing keys and the token pepper: the value itself (local mode, tests), or the
    # Secrets Manager secret holding the rotating key ring, read at run time.
    realtime_token_key: str = ""  # never in repr
    realtime_token_key_secret_arn: Optional[str] = None
    mcp_signing_key: str = ""  # never in repr
    mcp_signing_key_secret_arn: Optional[str] = None
    token_pepper: str = ""  # never in repr
    token_pepper_secret_arn: Optional[str] = None
    # Push: Web Push's VAPID key (or the SSM SecureString naming it) and the SNS platform apps.
    vapid_public_key: Optional[str] = None
    vapid_private_key: str = ""  # never in repr
    vapid_private_key_parameter: Optional[str] = None
    vapid_subject: str = "mailto:ops@tailspend.app"
    sns_ios_application_arn: Optional[str] = None
    sns_android_application_arn: Optional[str] = None
    # Rate limits and developer budgets overridden by the environment, (Limits field, value)
    # pairs (app.developer.quotas.Limits).
    limit_overrides: tuple = ()
    # Receipts (docs/receipts.md): the bucket (unset: tailspend-<stage>-receipts), the S3
    # endpoint (local mode: the embedded server's), the worker's queue, a scan's credits.
    receipts_bucket: Optional[str] = None
    s3_endpoint: Optional[str] = None
    receipt_queue_url: Optional[str] = None
    receipt_scan_credits: int = 1
    # Receipt scanning (app/receipts/scan): textract | rapidocr | tesseract | openai;
    # unset, textract in AWS and rapidocr in local mode. The vision endpoint is opt-in.
    receipt_scan_engine: Optional[str] = None
    receipt_scan_timeout: float = 60.0
    receipt_tesseract_langs: str = "eng"
    receipt_vision_base_url: str = ""
    receipt_vision_api_key: str = ""  # never in repr
    receipt_vision_model: str = ""


    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items()
                          if name not in _SECRET_FIELDS)
        return f"Settings({shown})"

    @property
    def allow_private_client_fetch(self) -> bool:
        return self.local_mode if self.mcp_fetch_private is None else self.mcp_fetch_private

    @property
    def issuer(self) -> str:
        """The token issuer we accept: the local issuer in local mode, else the Cognito pool."""
        if self.local_mode:
            return LOCAL_ISSUER
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.cognito_user_pool_id}"

    @property
    def client_id(self) -> Optional[str]:
        return self.local_client_id if self.local_mode else self.cognito_client_id

    @property
    def jwks_url(self) -> str:
        return self.issuer + "/.well-known/jwks.json"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **overrides) -> "Settings":
        base = cls(
            stage=env.get("TAILSPEND_STAGE", "dev"),
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
            dynamodb_endpoint=env.get("DYNAMODB_ENDPOINT") or None,
            local_mode=_flag(env.get("TAILSPEND_LOCAL")),
            data_dir=env.get("TAILSPEND_DATA_DIR", ".tailspend"),
            cognito_user_pool_id=env.get("COGNITO_USER_POOL_ID") or None,
            cognito_client_id=env.get("COGNITO_CLIENT_ID") or None,
            test_account_domain=env.get("TEST_ACCOUNT_DOMAIN", DEFAULT_TEST_ACCOUNT_DOMAIN),
            cursor_secret=(env.get("CURSOR_SECRET") or "").encode(),
            cursor_key_arn=env.get("CURSOR_SECRET_ARN") or None,
            origin_verify_secret_arn=env.get("ORIGIN_VERIFY_SECRET_ARN") or None,
            public_base_url=(env.get("PUBLIC_BASE_URL") or "").rstrip("/") or None,
            cognito_domain=(env.get("COGNITO_DOMAIN") or "").rstrip("/") or None,
            mcp_cognito_client_id=env.get("MCP_COGNITO_CLIENT_ID") or None,
            chat_drafter=env.get("CHAT_DRAFTER") or "rules",
            chat_bedrock_model_id=env.get("CHAT_BEDROCK_MODEL_ID", ""),
            chat_bedrock_region=env.get("CHAT_BEDROCK_REGION") or None,
            chat_openai_base_url=(env.get("CHAT_OPENAI_BASE_URL") or "").rstrip("/"),
            chat_openai_api_key=env.get("CHAT_OPENAI_API_KEY", ""),
            chat_openai_model=env.get("CHAT_OPENAI_MODEL", ""),
            chat_drafter_timeout=float(env.get("CHAT_DRAFTER_TIMEOUT") or 20.0),
            chat_monthly_credits=int(env.get("CHAT_MONTHLY_CREDITS") or 50),
            chat_message_credits=int(env.get("CHAT_MESSAGE_CREDITS") or 1),
            receipt_scan_credits=int(env.get("RECEIPT_SCAN_CREDITS") or 1),
            receipts_bucket=env.get("RECEIPTS_BUCKET") or None,
            s3_endpoint=env.get("S3_ENDPOINT") or None,
            receipt_queue_url=env.get("RECEIPT_QUEUE_URL") or None,
            receipt_scan_engine=env.get("RECEIPT_SCAN_ENGINE") or None,
            receipt_scan_timeout=float(env.get("RECEIPT_SCAN_TIMEOUT") or 60.0),
            receipt_tesseract_langs=env.get("RECEIPT_TESSERACT_LANGS") or "eng",
            receipt_vision_base_url=(env.get("RECEIPT_VISION_BASE_URL") or "").rstrip("/"),
            receipt_vision_api_key=env.get("RECEIPT_VISION_API_KEY", ""),
            receipt_vision_model=env.get("RECEIPT_VISION_MODEL", ""),
            cors_allow_origins=tuple(o.strip() for o in env.get("CORS_ALLOW_ORIGIN", "").split(",")
                                     if o.strip() and o.strip() != "*"),
            mcp_allowed_origins=tuple(o.strip().rstrip("/") for o in
                                      env.get("MCP_ALLOWED_ORIGINS", "").split(",")
                                      if o.strip() and o.strip() != "*"),
            account_deletion_queue_url=env.get("ACCOUNT_DELETION_QUEUE_URL") or None,
            chat_queue_url=env.get("CHAT_QUEUE_URL") or None,
            import_queue_url=env.get("IMPORT_QUEUE_URL") or None,
            recurring_bucket_queue_url=env.get("RECURRING_BUCKET_QUEUE_URL") or None,
            fx_rates_url=env.get("FX_RATES_URL") or None,
            realtime_endpoint=env.get("REALTIME_ENDPOINT") or None,
            realtime_scheme=env.get("REALTIME_SCHEME") or "wss",
            realtime_http_endpoint=env.get("REALTIME_HTTP_ENDPOINT") or None,
            realtime_token_key=env.get("REALTIME_TOKEN_KEY", ""),
            realtime_token_key_secret_arn=env.get("REALTIME_TOKEN_KEY_SECRET_ARN") or None,
            mcp_signing_key=env.get("MCP_SIGNING_KEY", ""),
            mcp_signing_key_secret_arn=env.get("MCP_SIGNING_KEY_SECRET_ARN") or None,
            token_pepper=env.get("TOKEN_PEPPER", ""),
            token_pepper_secret_arn=env.get("TOKEN_PEPPER_SECRET_ARN") or None,
            vapid_public_key=env.get("VAPID_PUBLIC_KEY") or None,
            vapid_private_key=env.get("VAPID_PRIVATE_KEY", ""),
            vapid_private_key_parameter=env.get("VAPID_PRIVATE_KEY_PARAMETER") or None,
            vapid_subject=env.get("VAPID_SUBJECT") or "mailto:ops@tailspend.app",
            sns_ios_application_arn=env.get("SNS_IOS_APPLICATION_ARN") or None,
            sns_android_application_arn=env.get("SNS_ANDROID_APPLICATION_ARN") or None,
            limit_overrides=_numbers_set(
                app_per_minute=env.get("RATE_LIMIT_APP_PER_MINUTE"),
                pat_per_minute=env.get("RATE_LIMIT_PAT_PER_MINUTE"),
                ip_per_minute=env.get("RATE_LIMIT_IP_PER_MINUTE"),
                oauth_per_minute=env.get("RATE_LIMIT_OAUTH_PER_MINUTE"),
                link_per_minute=env.get("RATE_LIMIT_LINK_PER_MINUTE"),
                link_ip_per_minute=env.get("RATE_LIMIT_LINK_IP_PER_MINUTE"),
                daily_requests=env.get("DEV_DAILY_REQUEST_BUDGET"),
                daily_creates=env.get("DEV_DAILY_CREATE_ALLOWANCE")),
        )
        return base._replace(**overrides)


_installed: list = []


def install(settings: Settings) -> Settings:
    """Make ``settings`` the process's settings (bootstrap does, once per entry point)."""
    _installed[:] = [settings]
    return settings


def current() -> Settings:
    """The settings bootstrap installed; read from the environment when nothing has yet (a
    script that never bootstrapped). Services take their settings from here, never from
    os.environ."""
    if not _installed:
        _installed.append(Settings.from_env())
    return _installed[0]


_secrets: Dict[str, str] = {}
_secrets_lock = threading.Lock()


def secret_string(arn: str) -> str:
    """A Secrets Manager secret's SecretString, read (GetSecretValue) once per container.

    Under the lock, so concurrent first requests make one call; a failed read is not cached
    (the next use tries again) and raises: a missing secret must never become an empty key."""
    with _secrets_lock:
        if arn not in _secrets:
            import boto3  # only in AWS: local mode and tests pass the value itself

            value = boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"]
            if not value:
                raise RuntimeError(f"secret {arn} is empty")
            _secrets[arn] = value
        return _secrets[arn]


def forget_secret(arn: str) -> None:
    """Drop one cached secret value: the next secret_string(arn) reads it again."""
    with _secrets_lock:
        _secrets.pop(arn, None)


def forget_secrets() -> None:
    """Drop the cached secret values (tests; a rotation picked up without a new container)."""
    with _secrets_lock:
        _secrets.clear()
