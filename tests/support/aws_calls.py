"""Record every AWS API call a block makes, by operation name (botocore's one entry point),
for tests that pin how many calls (and which) a code path makes."""
from __future__ import annotations

import contextlib
from typing import Iterator, List


@contextlib.contextmanager
def recorded() -> Iterator[List[str]]:
    from botocore.client import BaseClient

    made, original = [], BaseClient._make_api_call

    def recording(self, operation_name, api_params):
        made.append(operation_name)
        return original(self, operation_name, api_params)

    BaseClient._make_api_call = recording
    try:
        yield made
    finally:
        BaseClient._make_api_call = original
