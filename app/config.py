"""Settings, each declared once (environment name, type, default, check) and read from the
environment into a frozen object at cold start; secrets read at run time.

A bad value stops the process at start-up with a :class:`SettingError` naming the variable
(``RATE_LIMIT_APP_PER_MINUTE='abc': not a whole number``), rather than failing the first request
that reads it. Values that read as empty (``""``, ``"/"`` for a URL) count as unset."""
import os
import threading
from typing import Annotated, Any, Callable, Dict, Mapping, NamedTuple, Optional, Tuple, Union

DEFAULT_TEST_ACCOUNT_DOMAIN = "integ.tailspend.kinesis.studio"
# Local tokens name a fixed issuer, so tokens minted by `python -m app token` work whatever
# port `serve` listens on.
LOCAL_ISSUER = "https://issuer.tailspend.local"


class SettingError(ValueError):
    """An environment variable's value can't be the setting it names."""


class Env(NamedTuple):
    """Where a setting comes from (the first of ``names`` that is set) and what it must be;
    the field's type says how the text is read (see ``_READERS``) unless ``read`` does."""

    names: Tuple[str, ...]
    read: Optional[Callable[[str], Any]] = None
    choices: Tuple[str, ...] = ()
    minimum: Optional[float] = None
    empty_is_value: bool = False  # "" is a value, not "unset"


def env(*names: str, read: Optional[Callable[[str], Any]] = None, choices: Tuple[str, ...] = (),
        minimum: Optional[float] = None, empty_is_value: bool = False) -> Env:
    return Env(names, read, choices, minimum, empty_is_value)


_TRUE, _FALSE = frozenset({"1", "true", "yes", "on"}), frozenset({"0", "false", "no", "off"})


def _flag(text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE | _FALSE:
        raise ValueError("not one of 1/true/yes/on or 0/false/no/off")
    return word in _TRUE


def _number(kind: type) -> Callable[[str], Any]:
    def read(text: str):
        try:
            return kind(text)
        except ValueError:
            raise ValueError("not a whole number" if kind is int else "not a number") from None
    return read


def _list(text: str) -> tuple:
    """A comma-separated list; ``*`` is not an origin we trust, so it is dropped."""
    return tuple(item.strip() for item in text.split(",") if item.strip() and item.strip() != "*")


def _url(text: str) -> str:
    return text.rstrip("/")


def _origins(text: str) -> tuple:
    return tuple(origin.rstrip("/") for origin in _list(text))


def _lower(text: str) -> str:
    return text.strip().lower()


_READERS: Dict[type, Callable[[str], Any]] = {str: str, int: _number(int),
                                              float: _number(float), bool: _flag,
                                              bytes: str.encode, tuple: _list}

# Fields whose values are keys: never printed, not even in a SettingError.
_SECRET_FIELDS = frozenset({"cursor_secret", "chat_openai_api_key", "realtime_token_key",
                            "mcp_signing_key", "token_pepper", "vapid_private_key",
                            "receipt_vision_api_key"})


class Settings(NamedTuple):
    """Everything configurable about one running TailSpend; ``settings._replace(...)`` changes
    some. Each field is its whole declaration: ``Annotated[type, env(NAME, check)] = default``;
    a field without ``env`` is set by code only (tests, local mode).

    (A NamedTuple, not a frozen dataclass or a pydantic-settings model: the class is built at
    every cold start. Measured in docs/deploy.md: importing pydantic-settings alone costs
    ~130 ms, pydantic is not in the Lambda package, and a frozen dataclass of this size costs
    ten times as much to build; this class and its read of the environment take ~1 ms.)"""

    stage: Annotated[str, env("TAILSPEND_STAGE")] = "dev"
    region: Annotated[str, env("AWS_REGION", "AWS_DEFAULT_REGION")] = "us-east-1"
    dynamodb_endpoint: Annotated[Optional[str], env("DYNAMODB_ENDPOINT")] = None
    local_mode: Annotated[bool, env("TAILSPEND_LOCAL")] = False
    data_dir: Annotated[str, env("TAILSPEND_DATA_DIR")] = ".tailspend"
    # Local mode's embedded DynamoDB: how often it snapshots, and the journal size that
    # triggers a compaction.
    local_snapshot_seconds: Annotated[float, env("TAILSPEND_SNAPSHOT_SECONDS", minimum=0)] = 10.0
    local_compact_bytes: Annotated[int, env("TAILSPEND_COMPACT_BYTES", minimum=1)] = 4 << 20
    cognito_user_pool_id: Annotated[Optional[str], env("COGNITO_USER_POOL_ID")] = None
    cognito_client_id: Annotated[Optional[str], env("COGNITO_CLIENT_ID")] = None
    local_client_id: str = "tailspend-local"
    # Set empty, no account is a test account.
    test_account_domain: Annotated[str, env("TEST_ACCOUNT_DOMAIN",
                                            empty_is_value=True)] = DEFAULT_TEST_ACCOUNT_DOMAIN
    # Never in repr (see __repr__); local mode and tests.
    cursor_secret: Annotated[bytes, env("CURSOR_SECRET")] = b""
    # AWS: the Secrets Manager secret holding the cursor key, read on first use (secret_string),
    # so the key never sits in the function's configuration.
    cursor_key_arn: Annotated[Optional[str], env("CURSOR_SECRET_ARN")] = None
    # AWS: the X-Origin-Verify ring CloudFront sends (app/api/origin.py); unset, no check.
    origin_verify_secret_arn: Annotated[Optional[str], env("ORIGIN_VERIFY_SECRET_ARN")] = None
    cors_allow_origins: Annotated[tuple, env("CORS_ALLOW_ORIGIN")] = ()
    max_body_bytes: int = 64 * 1024
    jwks_refresh_seconds: int = 60
    # MCP connector (OAuth). The public base URL names the issuer and the resource
    # (<base>/mcp); unset, each request's own URL is used (right for local mode only).
    public_base_url: Annotated[Optional[str], env("PUBLIC_BASE_URL", read=_url)] = None
    # Browser origins trusted to call POST /mcp (besides the API's own, and loopback origins
    # in local mode); a request without Origin (a server-side MCP host) is always allowed.
    mcp_allowed_origins: Annotated[tuple, env("MCP_ALLOWED_ORIGINS", read=_origins)] = ()
    # Fetch Client ID Metadata Documents from private/loopback hosts: local mode only.
    mcp_fetch_private: Optional[bool] = None
    # AWS sign-in for the consent flow: the Cognito hosted UI domain and its app client.
    cognito_domain: Annotated[Optional[str], env("COGNITO_DOMAIN", read=_url)] = None
    mcp_cognito_client_id: Annotated[Optional[str], env("MCP_COGNITO_CLIENT_ID")] = None
    # DELETE /users/me sweeps inside the request for at most this long (and at most this many
    # units of work, when set), then answers 202 and the account-deletion worker goes on.
    account_delete_seconds: float = 5.0
    account_delete_units: Optional[int] = None
    # Expense chat assistant (docs/chat.md): which drafter, its endpoint, the credit rules.
    chat_drafter: Annotated[str, env("CHAT_DRAFTER", read=_lower,
                                     choices=("rules", "bedrock", "openai"))] = "rules"
    chat_bedrock_model_id: Annotated[str, env("CHAT_BEDROCK_MODEL_ID")] = ""
    chat_bedrock_region: Annotated[Optional[str], env("CHAT_BEDROCK_REGION")] = None
    chat_openai_base_url: Annotated[str, env("CHAT_OPENAI_BASE_URL", read=_url)] = ""
    chat_openai_api_key: Annotated[str, env("CHAT_OPENAI_API_KEY")] = ""  # never in repr
    chat_openai_model: Annotated[str, env("CHAT_OPENAI_MODEL")] = ""
    chat_drafter_timeout: Annotated[float, env("CHAT_DRAFTER_TIMEOUT", minimum=0)] = 20.0
    chat_monthly_credits: Annotated[int, env("CHAT_MONTHLY_CREDITS", minimum=0)] = 50
    chat_message_credits: Annotated[int, env("CHAT_MESSAGE_CREDITS", minimum=0)] = 1
    # Workers' queues (template.yaml sets each on the functions that send to it); unset, work
    # goes to a local runner on a thread (local mode) or the caller's fallback
    # (app.core.handoff).
    account_deletion_queue_url: Annotated[Optional[str], env("ACCOUNT_DELETION_QUEUE_URL")] = None
    chat_queue_url: Annotated[Optional[str], env("CHAT_QUEUE_URL")] = None
    import_queue_url: Annotated[Optional[str], env("IMPORT_QUEUE_URL")] = None
    profile_mirror_queue_url: Annotated[Optional[str], env("PROFILE_MIRROR_QUEUE_URL")] = None
    recurring_bucket_queue_url: Annotated[Optional[str], env("RECURRING_BUCKET_QUEUE_URL")] = None
    # The ECB daily publication, fetched by the Maintenance job only when set.
    fx_rates_url: Annotated[Optional[str], env("FX_RATES_URL")] = None
    # Live updates (docs/realtime.md): where clients connect and where the publisher posts.
    realtime_endpoint: Annotated[Optional[str], env("REALTIME_ENDPOINT")] = None
    realtime_scheme: Annotated[str, env("REALTIME_SCHEME", choices=("wss", "ws"))] = "wss"
    realtime_http_endpoint: Annotated[Optional[str], env("REALTIME_HTTP_ENDPOINT")] = None
    # Signing keys and the token pepper: the value itself (local mode, tests), or the
    # Secrets Manager secret holding the rotating key ring, read at run time.
    realtime_token_key: Annotated[str, env("REALTIME_TOKEN_KEY")] = ""  # never in repr
    realtime_token_key_secret_arn: Annotated[Optional[str],
                                             env("REALTIME_TOKEN_KEY_SECRET_ARN")] = None
    mcp_signing_key: Annotated[str, env("MCP_SIGNING_KEY")] = ""  # never in repr
    mcp_signing_key_secret_arn: Annotated[Optional[str], env("MCP_SIGNING_KEY_SECRET_ARN")] = None
    token_pepper: Annotated[str, env("TOKEN_PEPPER")] = ""  # never in repr
    token_pepper_secret_arn: Annotated[Optional[str], env("TOKEN_PEPPER_SECRET_ARN")] = None
    # Push: Web Push's VAPID key (or the SSM SecureString naming it), the SNS platform apps.
    vapid_public_key: Annotated[Optional[str], env("VAPID_PUBLIC_KEY")] = None
    vapid_private_key: Annotated[str, env("VAPID_PRIVATE_KEY")] = ""  # never in repr
    vapid_private_key_parameter: Annotated[Optional[str],
                                           env("VAPID_PRIVATE_KEY_PARAMETER")] = None
    vapid_subject: Annotated[str, env("VAPID_SUBJECT")] = "mailto:ops@tailspend.app"
    sns_ios_application_arn: Annotated[Optional[str], env("SNS_IOS_APPLICATION_ARN")] = None
    sns_android_application_arn: Annotated[Optional[str],
                                           env("SNS_ANDROID_APPLICATION_ARN")] = None
    # Mobile push straight to APNs and FCM (app/notifications/mobile_push.py): the secrets as
    # SSM SecureStrings (the .p8 key's PEM; the service account's JSON), the rest plain.
    apns_key_parameter: Annotated[Optional[str], env("APNS_KEY_PARAMETER")] = None
    apns_key_id: Annotated[Optional[str], env("APNS_KEY_ID")] = None
    apns_team_id: Annotated[Optional[str], env("APNS_TEAM_ID")] = None
    apns_topic: Annotated[Optional[str], env("APNS_TOPIC")] = None
    apns_environment: Annotated[str, env("APNS_ENVIRONMENT",
                                         choices=("production", "sandbox"))] = "production"
    fcm_service_account_parameter: Annotated[Optional[str],
                                             env("FCM_SERVICE_ACCOUNT_PARAMETER")] = None
    # Rate limits and developer budgets; unset, app.developer.quotas.Limits' defaults hold
    # (see limit_overrides).
    rate_limit_app_per_minute: Annotated[Optional[int],
                                         env("RATE_LIMIT_APP_PER_MINUTE", minimum=0)] = None
    rate_limit_pat_per_minute: Annotated[Optional[int],
                                         env("RATE_LIMIT_PAT_PER_MINUTE", minimum=0)] = None
    rate_limit_ip_per_minute: Annotated[Optional[int],
                                        env("RATE_LIMIT_IP_PER_MINUTE", minimum=0)] = None
    rate_limit_oauth_per_minute: Annotated[Optional[int],
                                           env("RATE_LIMIT_OAUTH_PER_MINUTE", minimum=0)] = None
    # Share links (docs/share-links.md): opens, sessions and claims per link and per address.
    rate_limit_link_per_minute: Annotated[Optional[int],
                                          env("RATE_LIMIT_LINK_PER_MINUTE", minimum=0)] = None
    rate_limit_link_ip_per_minute: Annotated[Optional[int],
                                             env("RATE_LIMIT_LINK_IP_PER_MINUTE", minimum=0)] = None
    dev_daily_request_budget: Annotated[Optional[int],
                                        env("DEV_DAILY_REQUEST_BUDGET", minimum=0)] = None
    dev_daily_create_allowance: Annotated[Optional[int],
                                          env("DEV_DAILY_CREATE_ALLOWANCE", minimum=0)] = None
    # Receipts (docs/receipts.md): the bucket (unset: tailspend-<stage>-receipts), the S3
    # endpoint (local mode: the embedded server's), the worker's queue, a scan's credits.
    receipts_bucket: Annotated[Optional[str], env("RECEIPTS_BUCKET")] = None
    s3_endpoint: Annotated[Optional[str], env("S3_ENDPOINT")] = None
    receipt_queue_url: Annotated[Optional[str], env("RECEIPT_QUEUE_URL")] = None
    receipt_scan_credits: Annotated[int, env("RECEIPT_SCAN_CREDITS", minimum=0)] = 1
    # Receipt scanning (app/receipts/scan): textract | rapidocr (alias local) | tesseract |
    # openai; unset, textract in AWS and rapidocr in local mode. The vision endpoint is opt-in.
    receipt_scan_engine: Annotated[Optional[str], env(
        "RECEIPT_SCAN_ENGINE", read=_lower,
        choices=("textract", "rapidocr", "local", "tesseract", "openai"))] = None
    receipt_scan_timeout: Annotated[float, env("RECEIPT_SCAN_TIMEOUT", minimum=0)] = 60.0
    receipt_tesseract_langs: Annotated[str, env("RECEIPT_TESSERACT_LANGS")] = "eng"
    receipt_vision_base_url: Annotated[str, env("RECEIPT_VISION_BASE_URL", read=_url)] = ""
    receipt_vision_api_key: Annotated[str, env("RECEIPT_VISION_API_KEY")] = ""  # never in repr
    receipt_vision_model: Annotated[str, env("RECEIPT_VISION_MODEL")] = ""
    # E-mail (docs/email.md): an SMTP relay (smtp://host:port; local mode: the embedded
    # server serve starts), else SES v2 with this configuration set; unset both, no e-mail.
    smtp_url: Annotated[Optional[str], env("SMTP_URL")] = None
    mail_from: Annotated[str, env("MAIL_FROM")] = "TailSpend <no-reply@tailspend.local>"
    ses_configuration_set: Annotated[Optional[str], env("SES_CONFIGURATION_SET")] = None
    # How long one event's e-mails may take when the invocation has no deadline of its own
    # (local mode, the CLI); in Lambda the context's remaining time bounds them instead.
    mail_send_budget_s: Annotated[float, env("MAIL_SEND_BUDGET_S", minimum=0)] = 60.0
    # The origin serving the API, for links in e-mails when PUBLIC_BASE_URL is unset (serve
    # sets it, in the environment too, as handlers loaded later read their settings there).
    serving_origin: Annotated[Optional[str], env("TAILSPEND_SERVING_ORIGIN", read=_url)] = None

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items()
                          if name not in _SECRET_FIELDS)
        return f"Settings({shown})"

    @property
    def limit_overrides(self) -> tuple:
        """(app.developer.quotas.Limits field, value) for each limit the environment sets."""
        named = (("app_per_minute", self.rate_limit_app_per_minute),
                 ("pat_per_minute", self.rate_limit_pat_per_minute),
                 ("ip_per_minute", self.rate_limit_ip_per_minute),
                 ("oauth_per_minute", self.rate_limit_oauth_per_minute),
                 ("link_per_minute", self.rate_limit_link_per_minute),
                 ("link_ip_per_minute", self.rate_limit_link_ip_per_minute),
                 ("daily_requests", self.dev_daily_request_budget),
                 ("daily_creates", self.dev_daily_create_allowance))
        return tuple((name, value) for name, value in named if value is not None)

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
        """The settings the environment sets (the defaults for the rest), then ``overrides``;
        SettingError naming the variable when a value is not what its setting allows."""
        values = {}
        for field, (source, kind) in DECLARED.items():
            name = next((n for n in source.names if env.get(n)), None)
            if name is not None:
                value = _read(field, name, env[name], source, kind)
                if value not in ("", ()):
                    values[field] = value
            elif source.empty_is_value and source.names[0] in env:
                values[field] = env[source.names[0]]
        return cls(**values)._replace(**overrides)


def _read(field: str, name: str, text: str, source: Env, kind: type) -> Any:
    try:
        value = (source.read or _READERS[kind])(text)
        if source.choices and value and value not in source.choices:
            raise ValueError("not one of " + ", ".join(source.choices))
        if source.minimum is not None and value < source.minimum:
            raise ValueError(f"less than {source.minimum:g}")
    except ValueError as error:
        shown = "(hidden)" if field in _SECRET_FIELDS else repr(text)
        raise SettingError(f"{name}={shown}: {error}") from None
    return value


def _declarations() -> Dict[str, Tuple[Env, type]]:
    """Field -> (its Env, the type its text is read as) for every field the environment sets."""
    declared = {}
    for field, hint in Settings.__annotations__.items():
        sources = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Env)]
        if sources:
            kind = hint.__origin__
            if getattr(kind, "__origin__", None) is Union:  # Optional[X]: read as X
                kind = next(arg for arg in kind.__args__ if arg is not type(None))
            declared[field] = (sources[0], kind)
    return declared


DECLARED = _declarations()


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
