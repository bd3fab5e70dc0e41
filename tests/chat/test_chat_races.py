"""Races with real threads against the serialized embedded endpoint: parallel messages never
overspend credit, two confirms of one draft create one expense, a confirm racing a revision
of its draft leaves one consistent outcome."""
from __future__ import annotations

import pytest

from app.credits import service as credits
from app.chat import drafting
from app.core import handoff
from app.core.clock import now_iso
from models.users import ChatBalance
from tests.chat.conftest import make_chat
from tests.support.threads import live_app, together

pytestmark = pytest.mark.race


@pytest.fixture
def live(live_db, tmp_path):
    app = live_app(live_db, tmp_path)
    client = app.test_client()

    def sign_in(email, *, admin=False, display_name=None):
        reply = client.post("/dev/tokens", json={"email": email, "displayName": display_name})
        data = reply.get_json()
        return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

    queued: list = []
    handoff.use_local_runner("chat", queued.append)
    yield make_chat(client, sign_in), queued, app.extensions["tailspend"].settings
    handoff.use_local_runner("chat", None)


def test_parallel_messages_never_spend_more_than_the_balance(live):
    chat, queued, _ = live
    ChatBalance(*ChatBalance.key(chat.user_id), Free=0, Credits=3, Version=1,
                Period=credits.period_of(now_iso())).save()
    sessions = [chat.session() for _ in range(3)]
    replies = together([lambda i=i: chat.say(sessions[i % 3], f"I paid {i + 1} for tea")
                        for i in range(6)])
    codes = sorted(r.status_code for r in replies)
    admitted = codes.count(202)
    assert 1 <= admitted <= 3 and set(codes) <= {202, 402, 409}, codes
    assert codes.count(402) >= 3
    balance = chat.client.get("/users/me/credits", headers=chat.headers).get_json()
    assert balance["balance"] == 3 - admitted >= 0
    assert sum(e["delta"] for e in balance["items"]) == -admitted
    assert len(queued) == admitted


def _draft(chat, queued, settings, text="I paid 30 for the taxi with Ann"):
    sid = chat.session()
    chat.say(sid, text)
    drafting.process(queued.pop(), settings)
    return sid, chat.read(sid)["drafts"][0]


def test_two_confirms_of_one_draft_create_one_expense(live):
    chat, queued, settings = live
    for _ in range(2):
        sid, draft = _draft(chat, queued, settings)
        replies = together([lambda: chat.confirm(sid, draft)] * 2)
        codes = sorted(r.status_code for r in replies)
        assert codes == [201, 409], [r.get_json() for r in replies]
        loser = next(r for r in replies if r.status_code == 409)
        assert loser.get_json()["error"]["code"] == "DRAFT_CONFIRMED"
    listed = chat.client.get(f"/groups/{chat.group_id}/expenses", headers=chat.headers)
    assert len(listed.get_json()["items"]) == 2


def test_a_confirm_racing_a_revision_has_one_outcome(live):
    chat, queued, settings = live
    seen = set()
    for _ in range(3):
        sid, draft = _draft(chat, queued, settings)
        chat.say(sid, "actually it was 36")
        item = queued.pop()
        confirmed, outcome = together([lambda: chat.confirm(sid, draft),
                                       lambda: drafting.process(item, settings)])
        assert outcome == "done"
        drafts = {d["status"]: d for d in chat.read(sid)["drafts"]}
        if confirmed.status_code == 201:
            seen.add("confirm first")
            # The expense is the version confirmed; the revision became a new open draft.
            assert confirmed.get_json()["items"][0]["amount"] == 3000
            assert drafts["SAVED"]["expense"]["items"][0]["amount"] == 3000
            assert drafts["OPEN"]["expense"]["items"][0]["amount"] == 3600
        else:
            seen.add("revision first")
            assert confirmed.get_json()["error"]["code"] == "VERSION_CONFLICT"
            assert set(drafts) == {"OPEN"} and drafts["OPEN"]["version"] == 2
            assert drafts["OPEN"]["expense"]["items"][0]["amount"] == 3600
    assert seen
