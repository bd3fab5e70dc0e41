"""Notifications stream worker: one record at a time, partial batch failures reported."""
from __future__ import annotations

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.metrics import metrics
from app.logs import logger
from app.notifications import push
from app.notifications import worker

bootstrap()
# Given our logger, the processor logs each failed record (the template counts those lines).
processor = BatchProcessor(event_type=EventType.DynamoDBStreams, logger=logger)


def handle_record(record) -> None:
    worker.handle(record.raw_event)


# Kept back from the invocation's end: the last record's writes and the batch response.
END_MARGIN_S = 5.0


@metrics.log_metrics
def lambda_handler(event, context):
    remaining = (context.get_remaining_time_in_millis() / 1000 - END_MARGIN_S
                 if context is not None else None)
    with push.invocation_ends_in(remaining):  # pushes give up before the function times out
        return process_partial_response(event=event, record_handler=handle_record,
                                        processor=processor, context=context)
