"""The SQS workers' entry, written once: a queue batch goes record by record through
Powertools' BatchProcessor (partial batch failures), anything else is the worker's schedule."""
from __future__ import annotations

import json
from typing import Any, Callable, Optional

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)

from app.logs import logger


def queue_handler(on_message: Callable[[Any], object], *,
                  on_schedule: Optional[Callable[[], object]] = None,
                  read: Callable[[str], Any] = json.loads, log_failures: bool = True):
    """``handler(event, context)``: each SQS record's body, ``read``, goes to ``on_message``;
    an event without records (the schedule) calls ``on_schedule``.

    A batch whose every message failed is answered as partial failures too, not raised: the
    queue redelivers exactly those messages either way, and the function did not fail. Given
    our logger, the processor logs each failed record (the template counts those lines); a
    worker that logs its own failures passes ``log_failures=False``."""
    processor = BatchProcessor(event_type=EventType.SQS, logger=logger if log_failures else None,
                               raise_on_entire_batch_failure=False)

    def handle_record(record) -> None:
        on_message(read(record.body))

    def handler(event, context):
        if on_schedule is not None and not (event or {}).get("Records"):
            return on_schedule()
        return process_partial_response(event=event, record_handler=handle_record,
                                        processor=processor, context=context)

    return handler
