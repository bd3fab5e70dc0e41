"""Round trips: our JSON export -> tailspend-json import -> export is the same group, and our
CSV export -> splitwise-csv import reproduces every net (hypothesis over random groups)."""
from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings, strategies as st

from tests.imports.conftest import Importer

_emails = itertools.count()
NAMES = ["Ann", "Bo", "Chloé", "Dev", "Eun-ji"]


def _partition(draw, total: int, parts: int) -> list:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1,
                                max_size=parts - 1)))
    edges = [0] + cuts + [total]
    return [b - a for a, b in zip(edges, edges[1:], strict=False)]


@st.composite
def items(draw, people: int):
    amount = draw(st.integers(1, 50_000))
    members = draw(st.lists(st.integers(0, people - 1), min_size=1, max_size=people,
                            unique=True))
    mode = draw(st.sampled_from(["EQUAL", "EXACT", "PERCENT", "SHARES"]))
    if mode == "EQUAL":
        values = [0] * len(members)
    elif mode == "EXACT":
        values = _partition(draw, amount, len(members))
    elif mode == "PERCENT":
        values = _partition(draw, 10_000, len(members))
    else:
        values = draw(st.lists(st.integers(1, 5), min_size=len(members),
                               max_size=len(members)))
    return amount, mode, list(zip(members, values, strict=True))


@st.composite
def groups(draw):
    people = draw(st.integers(2, 5))
    rows = []
    for index in range(draw(st.integers(1, 5))):
        if draw(st.booleans()) or index == 0:
            parts = draw(st.lists(items(people), min_size=1, max_size=2))
            total = sum(amount for amount, _, _ in parts)
            payers = draw(st.lists(st.integers(0, people - 1), min_size=1, max_size=2,
                                   unique=True))
            paid = _partition(draw, total, len(payers))
            if 0 in paid:
                paid, payers = [total], payers[:1]
            rows.append(("expense", index, parts, list(zip(payers, paid, strict=True)),
                         draw(st.sampled_from([None, "FOOD", "=1+1"]))))
        else:
            payer, payee = draw(st.lists(st.integers(0, people - 1), min_size=2, max_size=2,
                                         unique=True))
            rows.append(("settlement", index, payer, payee, draw(st.integers(1, 20_000))))
    return people, rows


def _create(importer: Importer, people: int, rows: list) -> str:
    post = importer.client.post
    group = post("/groups", json={"name": "Random trip", "currency": "EUR"},
                 headers=importer.headers).get_json()
    ids = [group["myParticipantId"]]
    for name in NAMES[1:people]:
        ids.append(post(f"/groups/{group['groupId']}/participants", json={"displayName": name},
                        headers=importer.headers).get_json()["participantId"])
    base = f"/groups/{group['groupId']}"
    for row in rows:
        if row[0] == "expense":
            _, index, parts, payments, category = row
            body = {"description": f"Row {index}", "date": f"2026-02-{index + 1:02d}",
                    "category": category,
                    "payments": [{"participantId": ids[p], "amount": a} for p, a in payments],
                    "items": [{"name": f"Item {n}", "amount": amount, "splitMode": mode,
                               "splits": [{"participantId": ids[m], "value": v}
                                          for m, v in splits]}
                              for n, (amount, mode, splits) in enumerate(parts)]}
            reply = post(f"{base}/expenses", json=body, headers=importer.headers)
        else:
            _, index, payer, payee, amount = row
            reply = post(f"{base}/settlements", json={
                "payerId": ids[payer], "payeeId": ids[payee], "amount": amount,
                "date": f"2026-02-{index + 1:02d}", "note": f"back {index}"},
                headers=importer.headers)
        assert reply.status_code == 201, reply.get_json()
    return group["groupId"]


def _comparable(export: dict) -> dict:
    """The export with ids, versions and timestamps replaced by who and what."""
    name = {p["participantId"]: p["displayName"] for p in export["participants"]}
    expenses = [{"date": e["date"], "description": e["description"],
                 "category": e["category"], "currency": e["currency"], "amount": e["amount"],
                 "payments": [(name[p["participantId"]], p["amount"]) for p in e["payments"]],
                 "items": [(i["name"], i["amount"], i["splitMode"],
                            [(name[s["participantId"]], s["value"], s["amount"])
                             for s in i["splits"]]) for i in e["items"]]}
                for e in export["expenses"]]
    settlements = [(s["date"], name[s["payerId"]], name[s["payeeId"]], s["amount"], s["note"])
                   for s in export["settlements"]]
    nets = {row["displayName"]: row["net"] for row in export["balances"]["balances"]}
    return {"expenses": expenses, "settlements": settlements, "nets": nets,
            "participants": sorted(name.values())}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(group=groups())
def test_export_import_export_is_the_same_group_and_csv_reproduces_every_net(
        client, sign_in, group):
    people, rows = group
    headers, user_id = sign_in(f"round{next(_emails)}@example.com", display_name="Ann")
    importer = Importer(client, headers, user_id)
    original_id = _create(importer, people, rows)
    original = importer.export(original_id)
    me = original["group"]["myParticipantId"]

    status = importer.run("tailspend-json", importer.client.get(
        f"/groups/{original_id}/export?format=json", headers=headers).get_data(as_text=True),
        me=me)
    assert status["status"] == "DONE", status
    copy = importer.export(status["groupId"])
    assert _comparable(copy) == _comparable(original)
    assert copy["group"]["myRole"] == "OWNER"

    status = importer.run("splitwise-csv", importer.export(original_id, "csv"), me="Ann")
    assert status["status"] == "DONE", status
    assert [w for w in status["warnings"] if "skipped" not in w["message"]] == []
    from_csv = _comparable(importer.export(status["groupId"]))
    assert from_csv["nets"] == _comparable(original)["nets"]
    assert len(from_csv["settlements"]) == len(original["settlements"])
    assert from_csv["participants"] == _comparable(original)["participants"]
