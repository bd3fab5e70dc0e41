"""API Gateway HTTP API (payload format 1.0) events -> the app of the request's area, through
aws-wsgi, once the request proved it came through CloudFront (app/api/origin.py)."""
from __future__ import annotations

import functools

from app import snapstart
from app.api.dispatch import AreaDispatcher
from app.api.lambda_adapter import lambda_handler_for
from app.api.origin import require_origin_secret, secret_from_arn
from app.factory import create_app, start

_runtime = start()
# One app per area, built on the first request to it (see app.api.dispatch).
app = AreaDispatcher(_runtime, functools.partial(create_app, runtime=_runtime))
snapstart.register(app)  # no-op unless the Lambda runtime offers SnapStart hooks
_arn = _runtime.settings.origin_verify_secret_arn
lambda_handler = lambda_handler_for(require_origin_secret(app, secret_from_arn(_arn) if _arn else None))
