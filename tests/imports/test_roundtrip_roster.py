"""Our JSON export imported back keeps every participant (issue 31 section 2): a member in
no expense and a member whose net is 0 are in the roster and in the balances."""
from __future__ import annotations


def test_members_with_no_expense_or_a_zero_net_come_back(importer, client):
    post, h = client.post, importer.headers
    group = post("/groups", json={"name": "Trip", "currency": "EUR"}, headers=h).get_json()
    base = f"/groups/{group['groupId']}"
    ids = [group["myParticipantId"]] + [
        post(f"{base}/participants", json={"displayName": name}, headers=h).get_json()[
            "participantId"] for name in ("Bo", "Cy", "Di")]
    # Bo pays 10.00 for Ima and Bo; Cy pays 5.00 for Cy alone (net 0); Di is in nothing.
    for payer, among, amount in ((ids[1], ids[:2], 1000), (ids[2], ids[2:3], 500)):
        assert post(f"{base}/expenses", json={
            "description": "x", "date": "2026-02-01",
            "payments": [{"participantId": payer, "amount": amount}],
            "items": [{"name": "x", "amount": amount, "splitMode": "EQUAL",
                       "splits": [{"participantId": p} for p in among]}]},
            headers=h).status_code == 201
    exported = client.get(f"{base}/export?format=json", headers=h).get_data(as_text=True)
    status = importer.run("tailspend-json", exported, me="Ima Porter")
    assert status["status"] == "DONE", status
    back = client.get(f"/groups/{status['groupId']}/participants", headers=h).get_json()
    names = sorted(p["displayName"] for p in (back.get("items") or back))
    assert names == ["Bo", "Cy", "Di", "Ima Porter"]
    assert importer.nets(status["groupId"]) == importer.nets(group["groupId"]) == {
        "Ima Porter": -500, "Bo": 500, "Cy": 0, "Di": 0}
