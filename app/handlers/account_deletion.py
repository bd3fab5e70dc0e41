"""Account deletion worker: SQS messages from DELETE /users/me, and a 5-minute resume schedule."""
from __future__ import annotations

import json

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.logs import logger
from app.account import worker
from app.account.finish_deletion import run_schedule

bootstrap()
# Given our logger, the processor logs each failed record (the template counts those lines).
# A batch whose every message failed is answered as partial failures too, not raised.
processor = BatchProcessor(event_type=EventType.SQS, logger=logger,
                           raise_on_entire_batch_failure=False)


def handle_record(record) -> None:
    worker.handle(json.loads(record.body))


def lambda_handler(event, context):
    if (event or {}).get("Records"):
        return process_partial_response(event=event, record_handler=handle_record,
                                        processor=processor, context=context)
    return run_schedule()
