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


def test_every_participant_in_nothing_comes_back_with_its_role_type_and_name(importer, client,
                                                                          sign_in):
    """Issue 42 item 8: members and guests who took part in nothing, MEMBER and VIEWER, come
    back with their display name and role. The importer named by `me` is the USER OWNER
    again; every other account comes back as a GUEST (POST /imports: accounts are not
    carried over, they claim their guest), holding the role it held."""
    from tests.ledger.helpers import join_directly

    post, h = client.post, importer.headers
    group = post("/groups", json={"name": "Trip", "currency": "EUR"}, headers=h).get_json()
    base = f"/groups/{group['groupId']}"
    for name, role in (("Gus", "MEMBER"), ("Vera", "VIEWER")):
        assert post(f"{base}/participants", json={"displayName": name, "role": role},
                    headers=h).status_code == 201
    for email, name, role in (("mo@example.com", "Mo", "MEMBER"),
                              ("vi@example.com", "Vi", "VIEWER")):
        join_directly(group["groupId"], sign_in(email, display_name=name)[1], role, name)
    before = client.get(f"{base}/participants", headers=h).get_json()["items"]
    assert len(before) == 5
    exported = client.get(f"{base}/export?format=json", headers=h).get_data(as_text=True)
    status = importer.run("tailspend-json", exported, me=group["myParticipantId"])
    assert status["status"] == "DONE", status
    back = client.get(f"/groups/{status['groupId']}/participants", headers=h).get_json()
    assert sorted((p["displayName"], p["type"], p["role"]) for p in back["items"]) == [
        ("Gus", "GUEST", "MEMBER"), ("Ima Porter", "USER", "OWNER"), ("Mo", "GUEST", "MEMBER"),
        ("Vera", "GUEST", "VIEWER"), ("Vi", "GUEST", "VIEWER")]
    assert status["counts"]["participants"] == len(before)
    assert set(importer.nets(status["groupId"])) == {p["displayName"] for p in before}
