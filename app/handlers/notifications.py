"""Notifications stream worker: one record at a time, partial batch failures reported."""
from __future__ import annotations

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.logs import logger
from app.services.notifications.stream import handle_stream_record

bootstrap()
# Given our logger, the processor logs each failed record (the template counts those lines).
processor = BatchProcessor(event_type=EventType.DynamoDBStreams, logger=logger)


def handle_record(record) -> None:
    handle_stream_record(record.raw_event)


def lambda_handler(event, context):
    return process_partial_response(event=event, record_handler=handle_record,
                                    processor=processor, context=context)
