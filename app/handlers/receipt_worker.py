"""Receipt worker: SQS messages from complete and scan, and a reconcile schedule."""
from __future__ import annotations

import json

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.bootstrap import bootstrap
from app.logs import logger
from app.receipts import scanning, worker

settings = bootstrap()
processor = BatchProcessor(event_type=EventType.SQS, logger=logger,
                           raise_on_entire_batch_failure=False)


def handle_record(record) -> None:
    worker.handle(json.loads(record.body), settings)


def lambda_handler(event, context):
    if (event or {}).get("Records"):
        return process_partial_response(event=event, record_handler=handle_record,
                                        processor=processor, context=context)
    # The schedule: re-drive scans whose hand-off was lost or whose run died, in place.
    return scanning.reconcile(redrive=lambda item: worker.handle(item, settings))
