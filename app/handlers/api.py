"""API Gateway HTTP API (payload format 1.0) events -> the Flask app, through aws-wsgi, once the
request proved it came through CloudFront (app/api/origin.py)."""
from __future__ import annotations

import gc

from app import snapstart
from app.api.lambda_adapter import lambda_handler_for
from app.api.origin import require_origin_secret, secret_from_arn
from app.factory import create_app
from app.logs import logger
from app.metrics import metrics

# The build makes ~100,000 objects that live as long as the environment and frees almost
# none: the cyclic collector's passes during it find nothing (~3 % of a cold start). Once
# built, they are frozen out of every later collection, so a request's pauses stay short.
gc.disable()
try:
    app = create_app()
finally:
    gc.enable()
gc.freeze()
snapstart.register(app)  # no-op unless the Lambda runtime offers SnapStart hooks
_arn = app.extensions["tailspend"].settings.origin_verify_secret_arn
lambda_handler = metrics.log_metrics(logger.inject_lambda_context(
    lambda_handler_for(require_origin_secret(app, secret_from_arn(_arn) if _arn else None))))
