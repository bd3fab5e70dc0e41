"""API Gateway REST (v1 proxy) events -> the app of the request's area, through aws-wsgi."""
from __future__ import annotations

import functools

from app import snapstart
from app.api.dispatch import AreaDispatcher
from app.api.lambda_adapter import lambda_handler_for
from app.factory import create_app, start

_runtime = start()
# One app per area, built on the first request to it (see app.api.dispatch).
app = AreaDispatcher(_runtime, functools.partial(create_app, runtime=_runtime))
snapstart.register(app)  # no-op unless the Lambda runtime offers SnapStart hooks
lambda_handler = lambda_handler_for(app)
