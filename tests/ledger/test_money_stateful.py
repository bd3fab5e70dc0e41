"""Stateful oracle (issue 30, items 1 and 11-13; issue 45: income, extras and every split
mode): random operations through HTTP on groups in EUR, JPY and KWD (exponents 2, 0 and 3:
kept and converted rows, expenses and income in every split mode, with and without extras,
edits that turn one into the other, conversions and their undo, guests, transfers, removals)
and after every step, for every group:

- the served balances equal a recomputation from scratch, folded from a replica that was
  synced only through GET /changes (every section: the main one and each kept currency);
- each section's nets sum to 0, and every non-zero net belongs to a roster participant;
- that replica equals a full fetch (group, participants, expenses, conversions).

One moto and one app serve every example (each example makes its own fresh groups), so the
run stays within seconds on a loaded machine."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, \
    run_state_machine_as_test
from moto import mock_aws

import models
from tests.property.test_splits import adjustments_for, parts_summing_to
from tests.support.tables import create_all_tables

STAGE = "test"
CURRENCIES = ("EUR", "JPY", "KWD")
FOREIGN = ("EUR", "JPY", "KWD", "USD")
# Plausible client rates: 1 unit of the row's currency in the group currency (each well
# within 100x of any ECB reference, so the outlier rule never interferes).
RATES = {("JPY", "EUR"): "0.0061", ("KWD", "EUR"): "3.01", ("USD", "EUR"): "0.91",
         ("EUR", "JPY"): "162.5", ("KWD", "JPY"): "490.2", ("USD", "JPY"): "151.3",
         ("EUR", "KWD"): "0.332", ("JPY", "KWD"): "0.00204", ("USD", "KWD"): "0.307"}
WORLD: dict = {}
MODES = ("EQUAL", "EXACT", "PERCENT", "SHARES", "ADJUSTMENT")


def splits_for(data, mode: str, amount: int, among: list) -> list:
    """Valid splits of ``amount`` in ``mode`` over ``among``."""
    if mode == "EQUAL":
        return [{"participantId": p} for p in among]
    values = {"EXACT": lambda: parts_summing_to(amount, len(among)),
              "PERCENT": lambda: parts_summing_to(10_000, len(among)),
              "SHARES": lambda: st.lists(st.integers(1, 5), min_size=len(among),
                                         max_size=len(among)),
              "ADJUSTMENT": lambda: adjustments_for(amount, len(among))}[mode]()
    return [{"participantId": p, "value": v}
            for p, v in zip(among, data.draw(values), strict=True)]


@pytest.fixture(scope="module")
def world(_session_app):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        _session_app.extensions["tailspend"].authenticator.identities.clear()
        client = _session_app.test_client()
        token = client.post("/dev/tokens", json={"email": "oracle@example.com"}).get_json()
        WORLD.update(client=client,
                     headers={"Authorization": f"Bearer {token['accessToken']}"})
        yield WORLD
        WORLD.clear()


def _ok(reply, *codes):
    assert reply.status_code in codes, (reply.status_code, reply.get_json(silent=True))
    return reply.get_json(silent=True)


def _fold(into: dict, section: str, pid: str, value: int) -> None:
    nets = into.setdefault(section, {})
    nets[pid] = nets.get(pid, 0) + int(value)


class MoneyMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.client, self.headers = WORLD["client"], WORLD["headers"]
        self.groups, self.current = {}, None

    # --- HTTP ------------------------------------------------------------------------
    def post(self, path, body):
        return self.client.post(path, json=body, headers=self.headers)

    def get(self, path):
        return _ok(self.client.get(path, headers=self.headers), 200)

    def base(self, currency):
        return f"/groups/{self.groups[currency]['id']}"

    # --- rules -----------------------------------------------------------------------
    @initialize(currency=st.sampled_from(CURRENCIES), converted=st.booleans())
    def a_group_where_a_guest_paid_in_a_kept_currency(self, currency, converted):
        """One group per example (EUR, JPY or KWD), starting with a kept row a guest paid,
        so conversions, transfers and removals meet converted nets from the first steps."""
        made = _ok(self.post("/groups", {"name": f"Trip {currency}", "currency": currency}),
                   201)
        gid = made["groupId"]
        people = [made["myParticipantId"]]
        for n in range(2):
            people.append(_ok(self.post(f"/groups/{gid}/participants",
                                        {"displayName": f"Guest {n}"}), 201)["participantId"])
        self.groups[currency] = {"id": gid, "people": people, "since": 0, "replica": {}}
        self.current = currency
        row = {"EUR": "JPY", "JPY": "KWD", "KWD": "EUR"}[currency]
        _ok(self.post(self.base(currency) + "/expenses", {
            "description": "Kept", "date": "2026-11-28", "amount": 3001, "currency": row,
            "payments": [{"participantId": people[1], "amount": 3001}],
            "splitMode": "EQUAL", "splits": [{"participantId": p} for p in people]}), 201)
        if converted:  # and often already converted: the nets a transfer must carry along
            _ok(self.post(self.base(currency) + "/conversions",
                          {"currency": row, "exchangeRate": RATES[(row, currency)]}), 201)

    def _body(self, data, row, converted, amount, kind) -> dict:
        group = self.current
        people = self.groups[group]["people"]
        payer = data.draw(st.sampled_from(people))
        among = data.draw(st.lists(st.sampled_from(people), min_size=1, unique=True))
        # Tax, tip and discounts on some rows: the shorthand's amount is the total, its one
        # item the amount less the extras, split in any mode.
        extras = [{"name": name, "amount": data.draw(st.integers(-amount // 4, amount // 2))}
                  for name in data.draw(st.lists(st.sampled_from(("tax", "tip", "discount")),
                                                 max_size=2))]
        total = amount + sum(e["amount"] for e in extras)
        mode = data.draw(st.sampled_from(MODES))
        body = {"description": "Row", "date": "2026-11-28", "amount": total,
                "payments": [{"participantId": payer, "amount": total}],
                "splitMode": mode, "splits": splits_for(data, mode, amount, among),
                "currency": row, "kind": kind, "extras": extras}
        if converted and row != group:
            body["exchangeRate"] = RATES[(row, group)]
        return body

    @rule(data=st.data(), row=st.sampled_from(FOREIGN), converted=st.booleans(),
          amount=st.integers(1, 50_000), kind=st.sampled_from(("EXPENSE", "INCOME")))
    def add_expense(self, data, row, converted, amount, kind):
        body = self._body(data, row, converted, amount, kind)
        reply = self.post(self.base(self.current) + "/expenses", body)
        # A converted total that rounds to 0 is refused like any out-of-bounds amount.
        made = _ok(reply, 201, 400)
        if reply.status_code == 201:
            assert made["kind"] == kind
            for item in made["items"]:  # owed sums exactly to the amount, either kind
                assert sum(split["amount"] for split in item["splits"]) == item["amount"]

    @rule(data=st.data(), row=st.sampled_from(FOREIGN), converted=st.booleans(),
          amount=st.integers(1, 50_000))
    def income_cancels_the_same_expense(self, data, row, converted, amount):
        """An INCOME and the EXPENSE with the same body leave every net where it was."""
        base = self.base(self.current)
        before = self.get(base + "/balances")
        body = self._body(data, row, converted, amount, "EXPENSE")
        spent = self.post(base + "/expenses", body)
        if _ok(spent, 201, 400) is None or spent.status_code == 400:
            return
        _ok(self.post(base + "/expenses", {**body, "kind": "INCOME"}), 201)
        after = self.get(base + "/balances")
        assert (after["balances"], after["otherCurrencies"]) == \
            (before["balances"], before["otherCurrencies"])

    @rule(data=st.data())
    def turn_an_expense_round(self, data):
        """An edit may change the kind: every net of the row moves the other way."""
        group = self.current
        rows = self.groups[group]["replica"].get("EXPENSE", {})
        if not rows:
            return
        row = rows[data.draw(st.sampled_from(sorted(rows)))]
        kind = "INCOME" if row["kind"] == "EXPENSE" else "EXPENSE"
        reply = self.client.patch(f"{self.base(group)}/expenses/{row['expenseId']}",
                                  json={"kind": kind, "version": row["version"]},
                                  headers=self.headers)
        assert _ok(reply, 200)["kind"] == kind

    @rule(data=st.data())
    def convert(self, data):
        group = self.current
        before = self.get(self.base(group) + "/balances")
        kept = [s["currency"] for s in before["otherCurrencies"]]
        currency = data.draw(st.sampled_from(kept or [c for c in FOREIGN if c != group]))
        reply = self.post(self.base(group) + "/conversions",
                          {"currency": currency, "exchangeRate": RATES[(currency, group)]})
        made = _ok(reply, 201, 400)
        if reply.status_code == 400:  # nothing kept, or a net that would round to 0
            after = self.get(self.base(group) + "/balances")
            assert (after["balances"], after["otherCurrencies"]) == \
                (before["balances"], before["otherCurrencies"])
            return
        kept, converted = made["keptNets"], made["groupNets"]
        assert sum(converted.values()) == 0 and sum(kept.values()) == 0
        assert all(converted.get(pid) for pid, v in kept.items() if v)  # none rounds to 0
        assert all(abs(v) <= 10 ** 11 for v in converted.values())

    @rule(data=st.data())
    def undo_conversion(self, data):
        group = self.current
        ids = sorted(self.groups[group]["replica"].get("CONVERSION", {}))
        if not ids:
            return
        conversion_id = data.draw(st.sampled_from(ids))
        reply = self.client.delete(f"{self.base(group)}/conversions/{conversion_id}",
                                   headers=self.headers)
        _ok(reply, 204)

    @rule()
    def add_guest(self):
        group = self.current
        made = _ok(self.post(self.base(group) + "/participants", {"displayName": "Late"}), 201)
        self.groups[group]["people"].append(made["participantId"])

    @rule(data=st.data())
    def transfer(self, data):
        group = self.current
        people = self.groups[group]["people"]
        if len(people) < 3:
            return
        source = data.draw(st.sampled_from(people[1:]))  # a guest
        target = data.draw(st.sampled_from([p for p in people if p != source]))
        reply = self.post(f"{self.base(group)}/participants/{source}/transfer",
                          {"targetParticipantId": target})
        assert _ok(reply, 200)["sourceRemoved"] is True
        people.remove(source)

    @rule(data=st.data())
    def remove(self, data):
        group = self.current
        people = self.groups[group]["people"]
        if len(people) < 2:
            return
        guest = data.draw(st.sampled_from(people[1:]))
        reply = self.client.delete(f"{self.base(group)}/participants/{guest}",
                                   headers=self.headers)
        _ok(reply, 204, 409)
        if reply.status_code == 409:
            assert reply.get_json()["error"]["code"] == "PARTICIPANT_REFERENCED"
            assert self._referenced(group, guest)
        else:
            assert not self._referenced(group, guest)
            people.remove(guest)

    def _referenced(self, group, pid) -> bool:
        """Named by a replicated row, or holding a net in any section (replica = truth,
        the invariant checks it after every step)."""
        replica = self.groups[group]["replica"]
        for row in replica.get("EXPENSE", {}).values():
            if pid in str(row["payments"]) or pid in str(row["items"]):
                return True
        return any(pid in row["keptNets"] or pid in row["groupNets"]
                   for row in replica.get("CONVERSION", {}).values())

    # --- the oracle ------------------------------------------------------------------
    def sync(self, group):
        state = self.groups[group]
        while True:
            page = self.get(f"{self.base(group)}/changes?since={state['since']}&limit=7")
            assert page["reset"] is False
            for change in page["changes"]:
                table = state["replica"].setdefault(change["kind"], {})
                if change["op"] == "DELETE":
                    table.pop(change["id"], None)
                else:
                    table[change["id"]] = change["data"]
            state["since"] = page["nextSince"]
            if not page["hasMore"]:
                return

    def recompute(self, group) -> dict:
        """Nets by section from the replica's rows alone."""
        nets: dict = {}
        replica = self.groups[group]["replica"]
        for row in replica.get("EXPENSE", {}).values():
            converted = row.get("groupAmount") is not None
            section = group if converted or row["currency"] == group else row["currency"]
            key = "groupAmount" if converted else "amount"
            sign = -1 if row["kind"] == "INCOME" else 1
            for payment in row["payments"]:
                _fold(nets, section, payment["participantId"], sign * payment[key])
            for item in row["items"]:
                for split in item["splits"]:
                    _fold(nets, section, split["participantId"], -sign * split[key])
            for extra in row["extras"]:
                for share in extra["shares"]:
                    _fold(nets, section, share["participantId"], -sign * share[key])
        for row in replica.get("CONVERSION", {}).values():
            for pid, value in row["keptNets"].items():
                _fold(nets, row["currency"], pid, -value)
            for pid, value in row["groupNets"].items():
                _fold(nets, group, pid, value)
        return {section: {p: v for p, v in values.items() if v}
                for section, values in nets.items() if any(values.values())}

    def full_fetch(self, group) -> dict:
        base = self.base(group)
        head = self.get(base)
        return {"GROUP": {head["groupId"]: head},
                "PARTICIPANT": {p["participantId"]: p
                                for p in self.get(base + "/participants")["items"]},
                "EXPENSE": {e["expenseId"]: e
                            for e in self.get(base + "/expenses?limit=100")["items"]},
                "CONVERSION": {c["conversionId"]: c
                               for c in self.get(base + "/conversions?limit=100")["items"]}}

    @invariant()
    def check(self):
        for group in self.groups:
            self.sync(group)
            replica = self.groups[group]["replica"]
            fetched = self.full_fetch(group)
            assert {kind: replica.get(kind, {}) for kind in fetched} == fetched
            served = self.get(self.base(group) + "/balances")
            shown = {group: {r["participantId"]: r["net"] for r in served["balances"]
                             if r["net"]}}
            for section in served["otherCurrencies"]:
                shown[section["currency"]] = {r["participantId"]: r["net"]
                                              for r in section["balances"] if r["net"]}
            shown = {k: v for k, v in shown.items() if v}
            assert shown == self.recompute(group)
            roster = set(fetched["PARTICIPANT"])
            for nets in shown.values():
                assert sum(nets.values()) == 0
                assert set(nets) <= roster, "a net on someone no longer in the group"
            assert served["revision"] == self.groups[group]["since"]
            self.check_pairwise(group, shown)

    def check_pairwise(self, group, shown):
        """The pairwise view's transfers net, in every section, to exactly its nets."""
        pairwise = self.get(self.base(group) + "/balances?view=pairwise")
        assert pairwise["view"] == "pairwise"
        sections = {group: pairwise["transfers"]}
        sections.update({s["currency"]: s["transfers"] for s in pairwise["otherCurrencies"]})
        settled = {}
        for section, transfers in sections.items():
            for t in transfers:
                _fold(settled, section, t["fromParticipantId"], -t["amount"])
                _fold(settled, section, t["toParticipantId"], t["amount"])
        settled = {k: {p: v for p, v in nets.items() if v} for k, nets in settled.items()}
        assert {k: v for k, v in settled.items() if v} == shown


def test_balances_and_the_changes_replica_survive_random_money(world):
    run_state_machine_as_test(MoneyMachine, settings=settings(
        max_examples=14, stateful_step_count=5, deadline=None, database=None,
        phases=[Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
