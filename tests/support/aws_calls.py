"""The one place tests and benches hook AWS calls, through botocore's public event system.

Production does the same (app/chat/capacity.py registers ``provide-client-params``
and ``after-call`` handlers): nothing here replaces a botocore, PynamoDB or moto method.

:func:`install` puts handlers into ``botocore.handlers.BUILTIN_HANDLERS``, the list every new
botocore Session registers on its event emitter, so every client of every session gets them.
moto registers its ``before-send`` stubber the same way (``moto.core.models``). Call it
before the first Session exists (tests/conftest.py and bench/support.py do, at import):

- ``before-parameter-build`` and ``after-call`` (what each call asks and what it got) serve
  the blocks below: record calls, run another writer's step at an exact call
  (tests/support/interleave.py), or fail a call as an unreachable DynamoDB would;
- ``before-call`` lets a block answer a call itself (:func:`answered`: DynamoDB's refusals);
- moto's ``before-send`` entry becomes the same stubber called under one lock
  (see :func:`_one_at_a_time`).

PynamoDB's sessions share one botocore loader in production too (models/pynamodb_adapter.py),
so nothing here touches them. tests/platform/test_aws_calls.py pins what each part relies on."""
from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator, List, Optional

# Blocks active now, in the order they started; any thread's calls reach every one (the code
# under test is threaded: race tests tell their threads apart by name).
_watchers: list = []
_answerers: list = []
_installed = threading.Lock()
_moto_lock = threading.RLock()


def _before(params, model, context, **_kwargs) -> None:
    context["tailspend_api_params"] = params  # the call's own context: for _answer below
    for watcher in list(_watchers):
        if watcher.before:
            watcher.before(model.name, params)


def _answer(model, context, **_kwargs):
    """``before-call``: the first active answerer's reply ends the call (the request never
    leaves); botocore then raises the error it describes, as for a reply from AWS. Answerers
    see the call's API parameters (``before-call`` itself carries the serialized request)."""
    for answerer in list(_answerers):
        reply = answerer(model.name, context.get("tailspend_api_params", {}))
        if reply is not None:
            from botocore.awsrequest import AWSResponse

            status, parsed = reply
            return AWSResponse("https://answered.invalid", status, {}, None), {
                **parsed, "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": {}}}
    return None


def _after(http_response, parsed, model, **_kwargs) -> None:
    ok = http_response.status_code < 300  # botocore raises the error right after this event
    for watcher in list(_watchers):
        if watcher.after:
            watcher.after(model.name, parsed, ok)


def _one_at_a_time(request, **kwargs):
    """In-process moto answers one request at a time, as the embedded endpoint does.

    moto's backends are plain dicts with no locks: two threads of one process calling it at
    once (the outbox sweep's shard workers, a record's concurrent pushes) made a Query iterate
    a partition while a PutItem grew it ("dictionary changed size during iteration"). DynamoDB
    and SNS are safe to call concurrently, so the test double is made so too: this handler
    takes the place of moto's entry in BUILTIN_HANDLERS and calls moto's stubber (the very
    handler object moto registers) under one lock. botocore runs every ``before-send``
    handler, so the stubber must be registered once only: here, not beside this. Outside
    ``mock_aws`` the stubber answers None and the call goes out."""
    from moto.core.models import botocore_stubber

    with _moto_lock:
        return botocore_stubber(request=request, **kwargs)


def install() -> None:
    """Idempotent and process-wide; sessions made before it do not have the handlers."""
    from botocore.handlers import BUILTIN_HANDLERS
    from moto.core.models import botocore_stubber

    with _installed:
        if any(spec[1] is _before for spec in BUILTIN_HANDLERS):
            return
        moto_entries = [i for i, spec in enumerate(BUILTIN_HANDLERS)
                        if spec[1] is botocore_stubber]
        assert len(moto_entries) == 1, "moto no longer registers its stubber in BUILTIN_HANDLERS"
        BUILTIN_HANDLERS[moto_entries[0]] = ("before-send", _one_at_a_time)
        BUILTIN_HANDLERS.extend([("before-parameter-build", _before), ("before-call", _answer),
                                 ("after-call", _after)])


class _Watcher:
    def __init__(self, before, after) -> None:
        self.before, self.after = before, after


@contextlib.contextmanager
def watched(before: Optional[Callable[[str, dict], None]] = None,
            after: Optional[Callable[[str, dict, bool], None]] = None) -> Iterator[None]:
    """Inside the block, ``before(operation_name, params)`` runs as each AWS call starts (an
    exception it raises is what the caller gets, the request never leaves) and
    ``after(operation_name, parsed reply, ok)`` once it has its reply (``ok``: not an error)."""
    watcher = _Watcher(before, after)
    _watchers.append(watcher)
    try:
        yield
    finally:
        _watchers.remove(watcher)


@contextlib.contextmanager
def requests_made() -> Iterator[List[tuple]]:
    """Every call made inside the block as ``(operation name, its parameters)``."""
    made: List[tuple] = []
    with watched(before=lambda operation, params: made.append((operation, params))):
        yield made


@contextlib.contextmanager
def recorded() -> Iterator[List[str]]:
    """Every call made inside the block, by operation name."""
    made: List[str] = []
    with watched(before=lambda operation, _params: made.append(operation)):
        yield made


@contextlib.contextmanager
def failing(when: Callable[[str, dict], Optional[BaseException]]) -> Iterator[None]:
    """Inside the block, a call for which ``when(operation_name, params)`` returns an
    exception raises it instead of leaving (an unreachable endpoint, an injected fault)."""

    def fail(operation, params):
        error = when(operation, params)
        if error is not None:
            raise error

    with watched(before=fail):
        yield


@contextlib.contextmanager
def answered(reply: Callable[[str, dict], Optional[tuple]]) -> Iterator[None]:
    """Inside the block, a call for which ``reply(operation_name, params)`` returns
    ``(HTTP status, parsed reply)`` gets that reply instead of going out: e.g. ``(400,
    {"Error": {"Code": "TransactionCanceledException", ...}, "CancellationReasons": [...]})``
    is the error DynamoDB sends, raised by botocore and read by PynamoDB as from AWS."""
    _answerers.append(reply)
    try:
        yield
    finally:
        _answerers.remove(reply)
