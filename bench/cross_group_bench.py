"""Every cross-group route at 10 / 50 / 150 / 300 groups (issue 50):
`.venv/bin/python bench/cross_group_bench.py` from the repo root (`... 10` for one size).

On the embedded DynamoDB endpoint (as `python -m app serve` runs it), one account in N groups,
each shared with one of 10 other accounts and holding one small expense, the groups stream
settled into the cross-group projection. After a warm-up request (a warm Lambda), it bills
the DynamoDB calls of one request of each: home (GET /users/me/groups?limit=50),
GET /users/me/people, the first page of GET /users/me/expenses (limit 25), GET /users/me/stats
and PATCH /users/me (a rename; its hand-off held, as a queue would hold it), and of the
profile mirror worker's run that follows the rename. The counts go to the generated table;
the times (best of 3, in ms, this process and the endpoint on one machine) are printed as a
Markdown table for docs/benchmarks.md's hand-written section, and are never checked."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dynamo_meter import Meter
from bench.people_balances_bench import _settle
from bench.support import embedded_api, report

SIZES = (10, 50, 150, 300)
OTHERS = 10  # accounts the groups are shared with, in turn
ROUTES = (("home", "GET", "/users/me/groups?limit=50"),
          ("people", "GET", "/users/me/people"),
          ("expenses", "GET", "/users/me/expenses?limit=25"),
          ("stats", "GET", "/users/me/stats"),
          ("rename", "PATCH", "/users/me"))


def _grow(client, sign_in, me_h, others, have: int, groups: int) -> None:
    """Add groups ``have`` .. ``groups``-1, one expense each with one other account."""
    from tests.ledger.helpers import join_directly

    for index in range(have, groups):
        group = client.post("/groups", json={"name": f"G{index}", "currency": "EUR"},
                            headers=me_h).get_json()
        their = join_directly(group["groupId"], others[index % len(others)], "MEMBER",
                              f"O{index}")
        reply = client.post(f"/groups/{group['groupId']}/expenses", headers=me_h, json={
            "description": "Dinner", "amount": 1000, "splitMode": "EQUAL",
            "date": "2026-01-15",
            "payments": [{"participantId": group["myParticipantId"], "amount": 1000}],
            "splits": [{"participantId": group["myParticipantId"]}, {"participantId": their}]})
        assert reply.status_code == 201, reply.get_json()


def _request(client, headers, method: str, path: str, names: iter):
    if method == "PATCH":
        return client.patch(path, headers=headers, json={"displayName": next(names)})
    return client.get(path, headers=headers)


def _at(client, meter, headers, held: list, timed: bool) -> dict:
    """{route: (bill, best ms)} and the rename worker's bill, at the current size."""
    import itertools

    from app.users import mirror

    names = (f"Renamed {n}" for n in itertools.count())
    found = {}
    for route, method, path in ROUTES:
        _request(client, headers, method, path, names)  # warm-up
        client.get("/users/me", headers=headers)  # the identity cached, as for a warm client
        with meter.block() as bill:
            reply = _request(client, headers, method, path, names)
        assert reply.status_code == 200, reply.get_json()
        best = None
        for _ in range(3 if timed else 0):
            start = time.perf_counter()
            reply = _request(client, headers, method, path, names)
            elapsed = (time.perf_counter() - start) * 1000
            assert reply.status_code == 200, reply.get_json()
            best = elapsed if best is None else min(best, elapsed)
        found[route] = (bill, best)
    user_id = client.get("/users/me", headers=headers).get_json()["userId"]
    held.clear()
    with meter.block() as bill:
        synced = mirror.mirror_names(user_id)
    assert synced > 0
    found["worker"] = (bill, None)
    return found


def measure(sizes=SIZES, timed: bool = True) -> dict:
    """{size: {route: (bill, best ms or None)}} at each of ``sizes`` (ascending)."""
    import boto3

    from app.core import handoff
    from app.users.mirror import QUEUE

    held: list = []
    found = {}
    handoff.use_local_runner(QUEUE.name, held.append)
    try:
        with embedded_api() as (client, sign_in, endpoint):
            meter = Meter(boto3.client("dynamodb", endpoint_url=endpoint,
                                       region_name="us-east-1"))
            me_h, _ = sign_in("me-cross@example.com")
            others = [sign_in(f"o{index}-cross@example.com")[1] for index in range(OTHERS)]
            have = 0
            for size in sizes:
                _grow(client, sign_in, me_h, others, have, size)
                have = size
                _settle(endpoint)
                meter.hook_models()
                found[size] = _at(client, meter, me_h, held, timed)
    finally:
        handoff.use_local_runner(QUEUE.name, None)
    return found


WHAT = {"home": "GET /users/me/groups?limit=50 (home)",
        "people": "GET /users/me/people",
        "expenses": "GET /users/me/expenses first page (limit 25)",
        "stats": "GET /users/me/stats",
        "rename": "PATCH /users/me (rename; the rosters' mirroring handed to the worker)",
        "worker": "the profile mirror worker's run after a rename"}
KEYS = {"home": "cross_group_home_calls", "people": "cross_group_people_calls",
        "expenses": "cross_group_expenses_calls", "stats": "cross_group_stats_calls",
        "rename": "cross_group_rename_calls", "worker": "cross_group_worker_calls"}


def report_rows(measured: dict) -> list:
    """One counted row per route: its DynamoDB calls at each size, the last size's detail."""
    sizes = list(measured)
    last = sizes[-1]
    rows = []
    for route in (*(name for name, _, _ in ROUTES), "worker"):
        bills = [measured[size][route][0] for size in sizes]
        rows.append((KEYS[route],
                     f"{WHAT[route]}, DynamoDB calls at 10 / 50 / 150 / 300 groups "
                     "(one expense each, 10 other accounts)",
                     " / ".join(str(b.total_calls) for b in bills)
                     + f" ({bills[-1].calls_text()} at {last})"))
    return rows


def times_table(measured: dict) -> str:
    """docs/benchmarks.md's hand-written table of the times."""
    lines = ["| groups | " + " | ".join(WHAT[name].split(" (")[0] for name, _, _ in ROUTES)
             + " |", "|---" * (len(ROUTES) + 1) + "|"]
    for size, found in measured.items():
        cells = [f"{found[name][1]:.0f} ms" if found[name][1] is not None else "-"
                 for name, _, _ in ROUTES]
        lines.append(f"| {size} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list) -> None:
    sizes = tuple(int(arg) for arg in argv) or SIZES
    measured = measure(sizes)
    if sizes == SIZES:
        report("cross_group_bench", report_rows(measured))
    print(times_table(measured))


if __name__ == "__main__":
    main(sys.argv[1:])
