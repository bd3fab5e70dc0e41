"""Create the test tables from template.yaml, the single source of truth for table shapes."""
from __future__ import annotations

import boto3

from app.local.template_tables import create_tables


def create_all_tables(stage: str) -> None:
    create_tables(boto3.client("dynamodb", region_name="us-east-1"), stage)
