"""API Gateway REST (v1 proxy) events -> the Flask app, through aws-wsgi."""
from __future__ import annotations

import awsgi

from app import create_app, snapstart

app = create_app()
snapstart.register()  # no-op unless the Lambda runtime offers SnapStart hooks


def lambda_handler(event, context):
    return awsgi.response(app, event, context)
