"""Structured JSON logs (Powertools Logger). Never log tokens, secrets or request bodies."""
from __future__ import annotations

import os

from aws_lambda_powertools import Logger

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "tailspend"),
                level=os.environ.get("LOG_LEVEL", "INFO"))
