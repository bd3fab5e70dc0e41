"""Recurring bucket worker: one SQS message per due bucket, sent by the hourly tick."""
from __future__ import annotations

import json

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.recurring import worker

bootstrap()
# The service logs a failed bucket itself (recurring.bucket_failed, which the template counts).
# A batch whose every message failed is still answered as partial failures, not raised: the
# queue redelivers exactly those messages either way, and the function did not fail.
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def handle_record(record) -> None:
    worker.handle(json.loads(record.body))


def lambda_handler(event, context):
    return process_partial_response(event=event, record_handler=handle_record,
                                    processor=processor, context=context)
