"""Notifications stream worker: one record at a time, partial batch failures reported."""
from __future__ import annotations

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.handlers.time_left import seconds_left
from app.metrics import metrics
from app.logs import logger
from app.notifications import push, worker

bootstrap()
# Given our logger, the processor logs each failed record (the template counts those lines).
processor = BatchProcessor(event_type=EventType.DynamoDBStreams, logger=logger)


def handle_record(record) -> None:
    worker.handle(record.raw_event)


# Kept back from the invocation's end: the last record's writes and the batch response.
END_MARGIN_S = 5.0


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    remaining = seconds_left(context)  # None: local mode's, which nothing times out
    # Pushes give up before the function times out.
    with push.invocation_ends_in(None if remaining is None else remaining - END_MARGIN_S):
        return process_partial_response(event=event, record_handler=handle_record,
                                        processor=processor, context=context)
