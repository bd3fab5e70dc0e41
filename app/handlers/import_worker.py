"""Import worker: one SQS message per import started by POST /imports."""
from __future__ import annotations

import json

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.logs import logger
from app.imports import worker

bootstrap()
# A run reports its own failure on the import (FAILED, first bad line) and answers normally;
# only a crash (a timeout, the runtime dying) leaves the message to be redelivered, and a
# redelivered run first removes what the interrupted one wrote.
processor = BatchProcessor(event_type=EventType.SQS, logger=logger,
                           raise_on_entire_batch_failure=False)


def handle_record(record) -> None:
    worker.handle(json.loads(record.body))


def lambda_handler(event, context):
    return process_partial_response(event=event, record_handler=handle_record,
                                    processor=processor, context=context)
