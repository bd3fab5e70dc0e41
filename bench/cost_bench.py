"""Cost per million requests: `.venv/bin/python bench/cost_bench.py` from the repo root.

Serves the real app (Flask, every area) on the embedded DynamoDB engine of local mode
(app.local.dynamodb, moto behind a loopback endpoint) and meters every DynamoDB call of every
operation through botocore's event hooks (bench/dynamo_meter.py: DynamoDB's on-demand
billing rules). The notification worker runs on each operation's outbox events, as the
stream would run it, and so does the cross-group projection (issue 50: each change's rows in its
accounts' partitions, app/insight/projection.py), fed the groups stream's records the operation
wrote, as the ProjectionFunction reads them. Then prices the issue-33 mix: a group of 6 members (5 push recipients
per event, one device each) and 100 expenses; 60% reads, 25% expense writes, 10% comments,
5% other.

Prices (us-east-1, on demand): DynamoDB $0.625 per million WRU and $0.125 per million RRU;
API Gateway HTTP API $1.00 per million requests of up to 512 KB (REST $3.50 with --api rest);
Lambda $0.20 per million invocations plus $0.0000133334 per GB-s (arm64), the API at 512 MB and a modelled 150 ms per
request, the notification worker one 512 MB invocation of a modelled 50 ms per event, the
projection one of 50 ms at its template's 256 MB per operation that gave it records. Mobile
push straight to APNs/FCM costs nothing per delivery; through SNS, $0.50 per million
deliveries (``--push sns``). CloudWatch Logs $0.50 per GB ingested, counted line by line: the
API's access-log line (template.yaml's format, filled with values of typical length), the
lines the API, the worker and the projection logged while the operation ran (measured, with
CloudWatch's 26 bytes per event), and Lambda's START/END/REPORT lines per invocation unless
template.yaml filters them (LoggingConfig SystemLogLevel WARN). The Lambda time is a model,
not a measurement: moto times say nothing about Lambda (the CPU measured beside it is printed).

``--api`` defaults to what template.yaml deploys: HTTP API (behind CloudFront, whose request
price is not in this mix); ``--api rest`` prices REST for comparison. ``--push`` defaults to
``direct`` (the road docs/deploy.md sets up); ``--push sns`` prices SNS mobile push.
``--repeat N`` measures each operation N times (default 3).
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import os
import time
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.support  # noqa: F401 — environment defaults, repo root on sys.path
from bench.dynamo_meter import Bill, Meter

WRU_PRICE, RRU_PRICE = 0.625e-6, 0.125e-6
API_PRICE = {"rest": 3.50e-6, "http": 1.00e-6}
LAMBDA_REQUEST, LAMBDA_GB_SECOND = 0.20e-6, 0.0000133334
API_GB_SECONDS = 0.5 * 0.150
WORKER_GB_SECONDS = 0.5 * 0.050
PROJECTION_GB_SECONDS = 0.25 * 0.050  # template.yaml: ProjectionFunction MemorySize 256
# $ per push delivery, by road: straight to APNs/FCM (app/notifications/mobile_push.py), or SNS.
PUSH_PRICE = {"direct": 0.0, "sns": 0.50e-6}
# SES outbound e-mail: $0.10 per 1,000 messages. An e-mail notification adds no DynamoDB call
# and no write unit to the worker (the address and the verified flag come from the profile
# read that checks the recipient is live; the e-mail follows the history row written anyway:
# tests/notifications/test_email.py meters it), so its cost is SES's alone. E-mail is off by
# default, so the mix below (push only) is unchanged by it.
SES_PRICE = 0.10e-3
EMAIL_EXTRA_WRU = 0
LOG_PRICE_PER_BYTE = 0.50 / 2 ** 30
# CloudWatch Logs counts 26 bytes of every event on top of its message.
LOG_EVENT_OVERHEAD = 26
# Lambda's own lines per invocation at system log level INFO (the default): START (~110 B),
# END (~60 B) and REPORT (~240 B: durations, memory, init or restore time).
PLATFORM_LOG_BYTES, PLATFORM_LOG_LINES = 410, 3
# Typical lengths of the values the access-log format fills in: request ids, an IPv4 address,
# a route key such as "POST /groups/{groupId}/expenses", a phone browser's user agent.
ACCESS_LOG_VALUES = {"requestId": 16, "requestTimeEpoch": 13,
                     "identity.sourceIp": 15, "httpMethod": 4, "routeKey": 31, "status": 3,
                     "responseLength": 4, "responseLatency": 3, "integrationLatency": 3,
                     "integrationStatus": 3, "error.message": 0, "identity.userAgent": 120}
MEMBERS, EXPENSES = 6, 100

# The mix: share of requests per operation (sums to 1).
MIX = {
    "GET /users/me": 0.10,
    "GET /users/me/groups (home)": 0.10,
    "GET balances": 0.10,
    "GET expenses (list)": 0.10,
    "GET expense + 30 comments": 0.10,
    "GET /changes page": 0.05,
    "GET balances 304": 0.05,
    "POST expense (6-way)": 0.20,
    # Measured beside the plain create (issue 45: the same calls, <= 1 WRU more), not priced.
    "POST expense (6-way, tax and tip)": 0.0,
    "PATCH expense (amount)": 0.05,
    "POST comment": 0.10,
    "POST settlement": 0.05,
}


class Bench:
    def __init__(self, client, sign_in, meter: Meter, expenses: int = EXPENSES,
                 endpoint: str = "") -> None:
        self.client, self.sign_in, self.meter = client, sign_in, meter
        self.expenses = expenses
        self.events: dict = {}
        self.endpoint = endpoint
        self._stream = None

    # the projection, as the groups stream runs it ------------------------------------------

    def drain_projection(self) -> Bill:
        """Feed the groups stream's records not read yet to the projection, billed; the
        stream reads themselves (GetRecords) are not DynamoDB table calls and cost nothing
        per read for a Lambda event source."""
        from app.insight.project_stream import project_batch
        from app.local.stream_poller import StreamPoller, realtime_admitted
        from models.groups import GroupItem

        if self._stream is None:
            poller = StreamPoller(self.endpoint, GroupItem.Meta.table_name,
                                  lambda event, _: project_batch(event["Records"]),
                                  admit=realtime_admitted)
            dynamodb, streams = poller._clients()
            arn = dynamodb.describe_table(TableName=poller.table_name)["Table"]["LatestStreamArn"]
            self._stream = (poller, {}, streams, arn)
        poller, iterators, streams, arn = self._stream
        with self.meter.block() as bill, _own_work("projection") as work:
            while poller.poll_once(iterators, streams, arn):
                pass
        return work.onto(bill)

    def group(self) -> None:
        from app.notifications import push

        self.pushes = push.use(push.RecordingProvider())
        c = self.client
        self.owner, _ = self.sign_in("owner@example.com")
        group = c.post("/groups", json={"name": "Cost", "currency": "EUR"},
                       headers=self.owner).get_json()
        self.gid, self.pids = group["groupId"], [group["myParticipantId"]]
        self.base = f"/groups/{self.gid}"
        code = c.get(f"{self.base}/invite", headers=self.owner).get_json()["code"]
        for index in range(MEMBERS - 1):
            member, _ = self.sign_in(f"m{index}@example.com")
            request = c.post(f"{self.base}/join-requests", json={"code": code, "mode": "NEW"},
                             headers=member).get_json()
            reply = c.post(f"{self.base}/join-requests/{request['requestId']}/approve",
                           json={"role": "MEMBER"}, headers=self.owner).get_json()
            self.pids.append(reply["participant"]["participantId"])
            c.post("/notifications/devices", json={"platform": "IOS", "token": f"t{index}"},
                   headers=member)
        for index in range(self.expenses):
            self.post_expense(100 + index)
        kept = {**self.body(700), "currency": "USD"}  # a kept currency: its own balances
        assert c.post(f"{self.base}/expenses", json=kept, headers=self.owner).status_code == 201
        self.expense = self.post_expense(999)
        for index in range(30):
            c.post(f"{self.base}/expenses/{self.expense['expenseId']}/comments",
                   json={"body": f"comment {index}"}, headers=self.owner)
        self.drain_events()

    def body(self, amount: int, extras: bool = False) -> dict:
        # With extras: 8% tax and a 10% tip on top of the 6-way item (amount is the total).
        added = [{"name": "tax", "amount": amount * 8 // 100},
                 {"name": "tip", "amount": amount // 10}] if extras else []
        total = amount + sum(extra["amount"] for extra in added)
        return {"description": "Dinner", "date": "2026-11-28", "amount": total,
                "payments": [{"participantId": self.pids[0], "amount": total}],
                "splitMode": "EQUAL", "splits": [{"participantId": p} for p in self.pids],
                **({"extras": added} if extras else {})}

    def post_expense(self, amount: int, extras: bool = False) -> dict:
        reply = self.client.post(f"{self.base}/expenses", json=self.body(amount, extras),
                                 headers=self.owner)
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()

    # the notification worker, as the stream runs it -------------------------------------------

    @staticmethod
    def pending_images() -> list:
        from models.notifications import Event, NotificationItem
        return [NotificationItem.raw_get(*Event.key(event.EventId))
                for shard in Event.shards() for event in Event.pending(shard, "9999")]

    def drain_events(self) -> Bill:
        from app.notifications.worker import handle as handle_stream_record

        bill, sent = Bill(), len(self.pushes.sent)
        for image in self.pending_images():
            with self.meter.block() as one, _own_work("notification-worker") as work:
                handle_stream_record({"dynamodb": {"NewImage": image}})
            bill.add(work.onto(one))
            self.events_seen += 1
        bill.pushes = len(self.pushes.sent) - sent
        return bill

    # the operations -----------------------------------------------------------------------

    def operations(self) -> dict:
        c, h, base = self.client, self.owner, self.base
        eid = self.expense["expenseId"]
        state = {"version": None, "patched": None}

        def get(path, expect=200, **kw):
            def run():
                reply = c.get(path, headers={**h, **kw.pop("extra", {})}, **kw)
                assert reply.status_code == expect, (path, reply.status_code)
            return run

        def balances_304():
            tag = c.get(f"{base}/balances", headers=h).headers["ETag"]
            return tag

        tag = balances_304()
        since = c.get(f"{base}/changes", query_string={"since": 10 ** 9},
                      headers=h).get_json()["revision"] - 20

        state["patched"] = self.post_expense(500)
        state["version"] = state["patched"]["version"]

        def patch_expense():
            reply = c.patch(f"{base}/expenses/{state['patched']['expenseId']}",
                            json={"version": state["version"], **self.body(600 + state["version"])},
                            headers=h)
            assert reply.status_code == 200, reply.get_json()
            state["version"] = reply.get_json()["version"]

        def settlement():
            reply = c.post(f"{base}/settlements", json={"payerId": self.pids[1],
                                                      "payeeId": self.pids[0], "amount": 300},
                           headers=h)
            assert reply.status_code == 201, reply.get_json()

        def comment():
            reply = c.post(f"{base}/expenses/{eid}/comments", json={"body": "ok"}, headers=h)
            assert reply.status_code == 201, reply.get_json()

        return {
            "GET /users/me": get("/users/me"),
            "GET /users/me/groups (home)": get("/users/me/groups"),
            "GET balances": get(f"{base}/balances"),
            "GET expenses (list)": get(f"{base}/expenses"),
            "GET expense + 30 comments": get(f"{base}/expenses/{eid}"),
            "GET /changes page": get(f"{base}/changes", query_string={"since": since}),
            "GET balances 304": (lambda: get(f"{base}/balances", 304,
                                             extra={"If-None-Match": tag})()),
            "POST expense (6-way)": lambda: self.post_expense(1200),
            "POST expense (6-way, tax and tip)": lambda: self.post_expense(1200, extras=True),
            "PATCH expense (amount)": patch_expense,
            "POST comment": comment,
            "POST settlement": settlement,
        }

    def measure(self, repeat: int) -> dict:
        """Per operation: (request Bill, worker Bill, events, projection Bill), averaged over
        ``repeat`` runs."""
        results = {}
        operations = self.operations()
        self.drain_projection()  # the set-up's records: not the mix's
        for name, run in operations.items():
            request, worker, events, pushes, projected = Bill(), Bill(), 0, 0, Bill()
            for _ in range(repeat):
                if name == "GET balances 304":
                    tag = self.client.get(f"{self.base}/balances",
                                          headers=self.owner).headers["ETag"]
                    run = _conditional(self, tag)
                self.drain_events()
                with self.meter.block() as one, _own_work() as work:
                    run()
                request.add(work.onto(one))
                before = self.events_seen
                drained = self.drain_events()
                worker.add(drained)
                events += self.events_seen - before
                pushes += drained.pushes
                projected.add(self.drain_projection())
            worker = _scaled(worker, repeat)
            worker.pushes = pushes / repeat
            results[name] = (_scaled(request, repeat), worker, events / repeat,
                             _scaled(projected, repeat))
        return results


def _conditional(bench: Bench, tag: str):
    def run():
        reply = bench.client.get(f"{bench.base}/balances",
                                 headers={**bench.owner, "If-None-Match": tag})
        assert reply.status_code == 304, reply.status_code
    return run


def _scaled(bill: Bill, repeat: int) -> Bill:
    out = Bill()
    out.calls.update({k: v / repeat for k, v in bill.calls.items()})
    out.wru, out.rru = bill.wru / repeat, bill.rru / repeat
    out.check_wru, out.gsi_wru = bill.check_wru / repeat, bill.gsi_wru / repeat
    out.items = bill.items[:len(bill.items) // repeat]  # each run writes the same items
    out.cpu_seconds = getattr(bill, "cpu_seconds", 0.0) / repeat
    out.log_bytes = getattr(bill, "log_bytes", 0) / repeat
    out.log_lines = getattr(bill, "log_lines", 0) / repeat
    return out


@dataclass
class OwnWork:
    """What one request cost the app itself, measured beside the model (not priced): the
    CPU of the thread serving it (the Flask app, our code, botocore's side of each call;
    the embedded DynamoDB answers on its own threads, so its time is not in it) and the
    bytes of the log lines the app wrote (its JSON lines, and the EMF line of the counts
    it added, as the handler's flush at the end of an invocation prints it)."""

    cpu_seconds: float = 0.0
    log_bytes: int = 0
    log_lines: int = 0

    def onto(self, bill: Bill) -> Bill:
        """``bill`` (the block's DynamoDB calls) with what the same block cost the app."""
        bill.cpu_seconds, bill.log_bytes, bill.log_lines = (self.cpu_seconds, self.log_bytes,
                                                            self.log_lines)
        return bill


def _lambda_keys(function: str) -> dict:
    """The keys Powertools' inject_lambda_context adds to every line in Lambda (each handler
    has it), with a production function's values, so measured lines are as long as there."""
    name = f"tailspend-prod-{function}"
    return {"cold_start": False, "function_name": name, "function_memory_size": "512",
            "function_arn": f"arn:aws:lambda:us-east-1:123456789012:function:{name}:live",
            "function_request_id": "8f5f1d3a-2c5e-4d8e-9b1a-6f0e2d7c4b3a"}


@contextlib.contextmanager
def _own_work(function: str = "api"):
    from app.logs import logger
    from app.metrics import metrics

    work = OwnWork()

    class Counted(logging.Handler):
        def emit(self, record):
            work.log_bytes += len(self.format(record).encode()) + 1
            work.log_lines += 1

    # Counted at the level the template deploys (Globals LOG_LEVEL), whatever the bench
    # prints: its own handlers stay at WARNING meanwhile.
    handler = Counted()
    handler.setFormatter(logger.registered_formatter)
    quiet = [(each, each.level) for each in logger.handlers]
    for each, _level in quiet:
        each.setLevel(logging.WARNING)
    level = logger.log_level
    logger.setLevel(_deployed().level)
    keys = _lambda_keys(function)
    logger.append_keys(**keys)
    logger.addHandler(handler)
    metrics.clear_metrics()
    started = time.thread_time()
    try:
        yield work
    finally:
        work.cpu_seconds = time.thread_time() - started
        logger.removeHandler(handler)
        logger.remove_keys(list(keys))
        logger.setLevel(level)
        for each, before in quiet:
            each.setLevel(before)
        if metrics.metric_set:
            work.log_bytes += len(json.dumps(metrics.serialize_metric_set())) + 1
            work.log_lines += 1
        metrics.clear_metrics()


def template_document(text: str) -> dict:
    """template.yaml as data, CloudFormation's short tags (!Ref, !Sub, ...) read as None."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return yaml.load(text, Loader=Loader)


class DeployedLogs(NamedTuple):
    """What template.yaml decides about the log bytes of a request."""

    level: str            # the level every function logs at (Globals LOG_LEVEL)
    access_line: int      # one access-log event: the format filled, newline, CloudWatch's bytes
    platform_lines: bool  # Lambda's START/END/REPORT lines reach CloudWatch


def deployed_logs(text: str) -> DeployedLogs:
    """Read from the template's text once: the access-log format filled with values of
    typical length (ACCESS_LOG_VALUES), the functions' level and LoggingConfig."""
    import re

    document = template_document(text)
    function = document["Globals"]["Function"]
    api = next(r for r in document["Resources"].values()
               if r["Type"] == "AWS::Serverless::HttpApi")
    line = " ".join(api["Properties"]["AccessLogSettings"]["Format"].split())
    filled = re.sub(r"\$context\.([A-Za-z.]+)",
                    lambda match: "x" * ACCESS_LOG_VALUES[match.group(1)], line)
    system_level = (function.get("LoggingConfig") or {}).get("SystemLogLevel", "INFO")
    return DeployedLogs(function["Environment"]["Variables"]["LOG_LEVEL"],
                        len(filled.encode()) + 1 + LOG_EVENT_OVERHEAD, system_level != "WARN")


@functools.lru_cache(maxsize=None)
def _deployed() -> DeployedLogs:
    return deployed_logs((Path(__file__).resolve().parent.parent / "template.yaml").read_text())


def log_bytes(name: str, results: dict, deployed: DeployedLogs) -> float:
    """The bytes CloudWatch Logs ingests for one request of operation ``name``."""
    request, worker, events, projected = results[name]
    bills = (request, worker, projected)
    logged = sum(b.log_bytes + b.log_lines * LOG_EVENT_OVERHEAD for b in bills)
    if deployed.platform_lines:
        invocations = 1 + events + (1 if projected.total_calls else 0)
        logged += invocations * (PLATFORM_LOG_BYTES + PLATFORM_LOG_LINES * LOG_EVENT_OVERHEAD)
    return logged + deployed.access_line


def price(results: dict, api: str, push: str = "direct") -> dict:
    """$ per million requests of the mix, by part."""
    deployed = _deployed()
    parts = dict.fromkeys(("DynamoDB writes", f"API Gateway {api.upper()}", "Lambda",
                           f"push ({push})", "DynamoDB reads", "logs"), 0.0)
    for name, share in MIX.items():
        request, worker, events, projected = results[name]
        wru = request.wru + worker.wru + projected.wru
        rru = request.rru + worker.rru + projected.rru
        pushes = worker.pushes
        parts["logs"] += share * log_bytes(name, results, deployed) * LOG_PRICE_PER_BYTE
        if projected.total_calls:
            parts["Lambda"] += share * (LAMBDA_REQUEST + PROJECTION_GB_SECONDS * LAMBDA_GB_SECOND)
        parts["DynamoDB writes"] += share * wru * WRU_PRICE
        parts["DynamoDB reads"] += share * rru * RRU_PRICE
        parts["Lambda"] += share * (LAMBDA_REQUEST + API_GB_SECONDS * LAMBDA_GB_SECOND
                                    + events * (LAMBDA_REQUEST
                                                + WORKER_GB_SECONDS * LAMBDA_GB_SECOND))
        parts[f"push ({push})"] += share * pushes * PUSH_PRICE[push]
    parts[f"API Gateway {api.upper()}"] = API_PRICE[api]
    return {k: v * 1e6 for k, v in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", choices=("rest", "http"), default=_deployed_api())
    parser.add_argument("--push", choices=tuple(PUSH_PRICE), default="direct")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    report(measure(args.repeat), args.api, args.push)


def measure(repeat: int = 3, expenses: int = EXPENSES) -> dict:
    """Per operation of the mix: (request Bill, worker Bill, events), on a group of MEMBERS
    holding ``expenses`` expenses (the calls and the units of a write do not depend on how
    many; the list and /changes pages' read units do)."""
    import boto3

    import models
    from app import create_app
    from app.config import Settings
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.in_process import serve_in_process
    with tempfile.TemporaryDirectory() as data_dir:
        db = EmbeddedDynamoDB(port=0, stage="bench", data_dir=None).start()
        serve_in_process(db)  # the models' calls, as serve's own (app/local/in_process.py)
        try:
            os.environ["DYNAMODB_ENDPOINT"] = db.endpoint
            models.configure(stage="bench", region="us-east-1", host=db.endpoint)
            app = create_app(Settings(stage="bench", local_mode=True, data_dir=data_dir,
                                      dynamodb_endpoint=db.endpoint,
                                      cursor_secret=b"bench"))
            client = app.test_client()

            def sign_in(email: str):
                data = client.post("/dev/tokens", json={"email": email}).get_json()
                return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

            meter = Meter(boto3.client("dynamodb", endpoint_url=db.endpoint,
                                       region_name="us-east-1"))
            bench = Bench(client, sign_in, meter, expenses, endpoint=db.endpoint)
            bench.events_seen = 0
            bench.group()
            meter.hook_models()
            return bench.measure(repeat)
        finally:
            db.stop()


def _deployed_api() -> str:
    template = (Path(__file__).resolve().parent.parent / "template.yaml").read_text()
    return "http" if "AWS::Serverless::HttpApi" in template else "rest"


CALL_GOALS = {"GET /users/me": 1, "GET balances": 2, "GET expense + 30 comments": 2,
              "GET /users/me/groups (home)": 3, "GET /changes page": 2, "GET balances 304": 2,
              "POST expense (6-way)": 3}


def goals(results: dict) -> None:
    print("\nGoals (issue 33)")
    for name, goal in CALL_GOALS.items():
        calls = results[name][0].total_calls
        print(f"  {name:<30} calls {calls:>4.1f}  goal <= {goal}  {'ok' if calls <= goal else 'MISSED'}")
    create, worker, events, _ = results["POST expense (6-way)"]
    per_event = worker.wru / events if events else 0.0
    print(f"  {'6-way create':<30} WRU {create.wru:>5.1f}  goal <= 20  "
          f"{'ok' if create.wru <= 20 else 'MISSED'}")
    print(f"  {'event, 5 recipients':<30} WRU {per_event:>5.1f}  goal <= 10  "
          f"{'ok' if per_event <= 10 else 'MISSED'}")
    hot = 1000 / create.wru if create.wru else 0.0
    print(f"  {'hot group, creates/s':<30} {hot:>9.1f}  goal >= 50  (1,000 WRU/s partition; "
          f"{'ok' if hot >= 50 else 'MISSED'})")


def own_work(results: dict) -> None:
    """The CPU measured beside the modelled Lambda time (not priced; the model stays), and
    the log bytes priced (measured lines, the access-log line, platform lines if logged)."""
    deployed = _deployed()
    mixed_cpu = sum(MIX[name] * results[name][0].cpu_seconds for name in MIX) * 1000
    mixed_logs = sum(MIX[name] * log_bytes(name, results, deployed) for name in MIX)
    platform = "logged" if deployed.platform_lines else "filtered (SystemLogLevel WARN)"
    print(f"\nThe app's own CPU per request (the serving thread; the embedded DynamoDB's "
          f"threads excluded; measured beside the modelled {API_GB_SECONDS / 0.5 * 1000:.0f} ms "
          f"of Lambda, not priced) / log bytes per request, priced: the API's, the worker's and "
          f"the projection's lines, measured, + the access-log line "
          f"({deployed.access_line} B); Lambda's START/END/REPORT lines {platform}")
    for name in MIX:
        request = results[name][0]
        print(f"  {name:<34} {request.cpu_seconds * 1000:>6.1f} ms CPU  "
              f"{log_bytes(name, results, deployed):>7.0f} B logged")
    print(f"  {'the mix':<34} {mixed_cpu:>6.1f} ms CPU  {mixed_logs:>7.0f} B logged")


def report(results: dict, api: str, push: str = "direct") -> None:
    print(f"Per operation ({MEMBERS} members, {EXPENSES} expenses; the worker's part is the "
          "notification events the operation raised)")
    print(f"  {'operation':<30} {'share':>5} {'calls':>5} {'WRU':>6} {'of it checks':>12} "
          f"{'GSI':>5} {'RRU':>6} | {'events':>6} {'worker WRU':>10} {'worker calls':>12} | "
          f"{'projection WRU':>14} {'RRU':>5}")
    for name, (request, worker, events, projected) in results.items():
        print(f"  {name:<30} {MIX[name]:>5.0%} {request.total_calls:>5.1f} {request.wru:>6.1f} "
              f"{request.check_wru:>12.1f} {request.gsi_wru:>5.1f} {request.rru:>6.1f} | "
              f"{events:>6.1f} {worker.wru:>10.1f} "
              f"{worker.total_calls:>12.1f} | {projected.wru:>14.1f} {projected.rru:>5.1f}")
        print(f"  {'':<30} calls: {request.calls_text()}")
        if request.items:
            print(f"  {'':<30} items: " + ", ".join(
                f"{kind} {row} {size:,} B -> {units}" for _, kind, row, size, units
                in request.items))
    goals(results)
    own_work(results)
    parts = price(results, api, push)
    print(f"\n$ per 1M requests of the mix (API Gateway {api.upper()}, push {push})")
    for part, dollars in sorted(parts.items(), key=lambda kv: -kv[1]):
        print(f"  {part:<22} {dollars:>6.2f}")
    print(f"  {'total':<22} {sum(parts.values()):>6.2f}")
    totals = {edge: sum(price(results, edge).values()) for edge in API_PRICE}
    print("  both edges: " + ", ".join(f"{edge.upper()} {dollars:.2f}"
                                       for edge, dollars in totals.items()))
    totals["sns"] = sum(price(results, "http", "sns").values())
    print(f"  mobile push through SNS instead of straight to APNs/FCM: HTTP {totals['sns']:.2f}")
    print(f"\nAn e-mail notification (per recipient who switched it on): {EMAIL_EXTRA_WRU} extra "
          f"WRU, ${SES_PRICE * 1e6:.2f} per 1M e-mails at SES (${SES_PRICE:.4f} each); not in "
          "the mix: e-mail is off by default")
    _results(results, totals)


def _results(results: dict, totals: dict) -> None:
    """The figures docs/benchmarks.md's generated table shows (bench.support.report)."""
    from bench.support import report

    report("cost_bench", report_rows(results, totals))


def report_rows(results: dict, totals: "dict | None" = None) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() metered; the mix's
    total only with ``totals`` ($ per 1M requests by API edge)."""
    create, worker, events, projected = results["POST expense (6-way)"]
    rows = []
    if totals is not None:
        rows.append(("cost_total", "issue-33 mix, $ per 1M requests (6 members, 100 expenses; "
                                   "API Gateway REST / HTTP API; mobile push straight to "
                                   "APNs/FCM, or through SNS)",
                     f"{totals['rest']:.2f} / {totals['http']:.2f}; SNS {totals['sns']:.2f} "
                     "(goal <= 10.00)"))
    rows.append(("cost_create_wru", "6-way POST expense, write units (of them condition "
                                    "checks) / notification event with 5 recipients",
                 f"{create.wru:.0f} ({create.check_wru:.0f}) / "
                 f"{(worker.wru / events if events else 0):.0f} (goals <= 20 / <= 10); hot "
                 f"group {1000 / create.wru:.0f} creates/s in 1,000 WRU/s"))
    rows.append(("cost_projection_wru", f"6-way POST expense, the cross-group projection's "
                                        f"write units for k = {MEMBERS} accounts (per account) "
                                        "/ its read units / calls (no index: one unit a row)",
                 f"{projected.wru:.0f} ({projected.wru / MEMBERS:.1f}) / {projected.rru:g} / "
                 f"{projected.total_calls:.0f} ({projected.calls_text()})"))
    extras = results["POST expense (6-way, tax and tip)"][0]
    rows.append(("cost_create_extras", "6-way POST expense with tax and tip (issue 45: the same "
                                       "calls, <= 1 WRU more) / without: calls, write units",
                 f"{extras.total_calls:.0f} / {create.total_calls:.0f} calls; "
                 f"{extras.wru:.0f} / {create.wru:.0f} WRU"))
    calls = "; ".join(f"{name} {results[name][0].total_calls:.0f}" for name in CALL_GOALS)
    rows.append(("cost_calls", "DynamoDB calls per request (app sign-in, identity cached)",
                 calls))
    return rows

if __name__ == "__main__":
    main()
