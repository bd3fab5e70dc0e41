"""API Gateway REST (v1 proxy) events -> the Flask app, through aws-wsgi."""
from __future__ import annotations

import awsgi

from app import create_app

app = create_app()


def lambda_handler(event, context):
    return awsgi.response(app, event, context)
