"""The counts an alarm watches, as CloudWatch embedded-metric-format lines (Powertools Metrics).

Services call :func:`count` where the thing happens; each Lambda handler flushes the buffer at
the end of its invocation (``@metrics.log_metrics``). EMF is a log line, so no IAM is needed.
The namespace comes from POWERTOOLS_METRICS_NAMESPACE (template.yaml), like the Logger's
service name in app/logs.py."""
from __future__ import annotations

import os
import threading

from aws_lambda_powertools import Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

EXPENSES_WRITTEN = "ExpensesWritten"
IMPORTS_FAILED = "ImportsFailed"
SCANS_FAILED = "ReceiptScansFailed"
PUSHES_FAILED = "PushesFailed"

metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "TailSpend"))
# The buffer is one dict for the process; local mode's threads share it.
_lock = threading.Lock()


def count(name: str, value: int = 1) -> None:
    """Add ``value`` to the ``name`` count of this invocation."""
    # Powertools prints a full buffer (100 values) even when metrics are disabled, so local
    # mode (disabled by the CLI) would get stray EMF lines among its output.
    if value <= 0 or is_metrics_disabled():
        return
    with _lock:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
