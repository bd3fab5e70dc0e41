"""Hooks on every AWS API call a block makes (botocore's one entry point, below PynamoDB and
everything of ours, so the code under test runs unchanged): record the calls, or run
another writer's step at an exact call (tests/support/interleave.py)."""
from __future__ import annotations

import contextlib
from typing import Callable, Iterator, List


@contextlib.contextmanager
def intercepted(hook: Callable[[Callable[[], dict], str], dict]) -> Iterator[None]:
    """Inside the block every call goes through ``hook(make_call, operation_name)``, which
    must make the call (``make_call()``) and return its reply."""
    from botocore.client import BaseClient

    original = BaseClient._make_api_call

    def through_hook(self, operation_name, api_params):
        return hook(lambda: original(self, operation_name, api_params), operation_name)

    BaseClient._make_api_call = through_hook
    try:
        yield
    finally:
        BaseClient._make_api_call = original


@contextlib.contextmanager
def recorded() -> Iterator[List[str]]:
    """Every call made inside the block, by operation name."""
    made: List[str] = []

    def record(make_call, operation_name):
        made.append(operation_name)
        return make_call()

    with intercepted(record):
        yield made


@contextlib.contextmanager
def requests_made() -> Iterator[List[tuple]]:
    """Every call made inside the block as ``(operation name, its parameters)``."""
    from botocore.client import BaseClient

    original = BaseClient._make_api_call
    made: List[tuple] = []

    def record(self, operation_name, api_params):
        made.append((operation_name, api_params))
        return original(self, operation_name, api_params)

    BaseClient._make_api_call = record
    try:
        yield made
    finally:
        BaseClient._make_api_call = original
