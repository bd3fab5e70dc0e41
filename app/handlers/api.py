"""API Gateway HTTP API (payload format 1.0) events -> the Flask app, through aws-wsgi, once the
request proved it came through CloudFront (app/api/origin.py)."""
from __future__ import annotations

from app import snapstart
from app.api.lambda_adapter import lambda_handler_for
from app.api.origin import require_origin_secret, secret_from_arn
from app.factory import create_app
from app.logs import logger
from app.metrics import metrics

app = create_app()
snapstart.register(app)  # no-op unless the Lambda runtime offers SnapStart hooks
_arn = app.extensions["tailspend"].settings.origin_verify_secret_arn
lambda_handler = metrics.log_metrics(logger.inject_lambda_context(
    lambda_handler_for(require_origin_secret(app, secret_from_arn(_arn) if _arn else None))))
