"""The chat assistant sets households (issue 45, Deliver 5): "Ann and Bo are one household",
"put Carla in the Smith household", "Ann leaves her household" become HOUSEHOLD drafts,
confirmed like an expense draft (once; a replay is 409 DRAFT_CONFIRMED) under PATCH
participant's household rules (an OWNER sets anyone's, a member only their own), through the
chat API with the rule drafter and with a model drafter's tool call."""
from __future__ import annotations

import pytest

from app.chat.drafters import tool
from app.chat.drafters.base import Context, GroupContext
from tests.ledger.helpers import join_directly


def _people(chat) -> dict:
    reply = chat.client.get(f"/groups/{chat.group_id}/participants", headers=chat.headers)
    return {p["participantId"]: p.get("household") for p in reply.get_json()["items"]}


def _draft(chat, sid, text) -> dict:
    before = {d["draftId"] for d in chat.read(sid)["drafts"]}
    assert chat.say(sid, text).status_code == 202
    session = chat.read(sid)
    (draft,) = [d for d in session["drafts"] if d["draftId"] not in before]
    return draft, session["messages"][-1]


def test_two_people_become_one_household_and_confirm_sets_both(chat):
    sid = chat.session()
    draft, reply = _draft(chat, sid, "Ann and Bo are one household")
    assert draft["kind"] == "HOUSEHOLD" and draft["expense"] is None
    assert draft["households"] == [{"participantId": chat.ann, "household": "Ann & Bo"},
                                   {"participantId": chat.bo, "household": "Ann & Bo"}]
    assert "Ann & Bo" in reply["text"] and "Confirm" in reply["text"]
    assert _people(chat)[chat.ann] is None  # nothing changes before the confirmation
    done = chat.confirm(sid, draft)
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["kind"] == "HOUSEHOLD"
    assert {p["participantId"]: p["household"] for p in done.get_json()["participants"]} == {
        chat.ann: "Ann & Bo", chat.bo: "Ann & Bo"}
    assert _people(chat) == {chat.me: None, chat.ann: "Ann & Bo", chat.bo: "Ann & Bo"}
    again = chat.confirm(sid, draft)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "DRAFT_CONFIRMED"
    balances = chat.client.get(f"/groups/{chat.group_id}/balances",
                               headers=chat.headers).get_json()
    assert [h["household"] for h in balances["households"]] == ["Ann & Bo"]


def test_put_someone_in_a_named_household_uses_the_groups_spelling(chat, client):
    assert client.patch(f"/groups/{chat.group_id}/participants/{chat.ann}",
                        json={"household": "Smith"}, headers=chat.headers).status_code == 200
    sid = chat.session()
    draft, _ = _draft(chat, sid, "put Bo in the smith household")
    assert draft["households"] == [{"participantId": chat.bo, "household": "smith"}]
    assert chat.confirm(sid, draft).status_code == 200
    # one household, under the label its first member set
    assert _people(chat)[chat.bo] == "Smith"


def test_leaving_a_household_clears_it(chat, client):
    for pid in (chat.ann, chat.me):
        client.patch(f"/groups/{chat.group_id}/participants/{pid}",
                     json={"household": "Smith"}, headers=chat.headers)
    sid = chat.session()
    draft, reply = _draft(chat, sid, "Ann leaves her household")
    assert draft["households"] == [{"participantId": chat.ann, "household": None}]
    assert "no household" in reply["text"]
    assert chat.confirm(sid, draft).status_code == 200
    assert _people(chat) == {chat.me: "Smith", chat.ann: None, chat.bo: None}


def test_an_unknown_name_is_asked_about(chat):
    sid = chat.session()
    assert chat.say(sid, "Zed and Ann are one household").status_code == 202
    session = chat.read(sid)
    assert session["drafts"] == []
    assert "Zed" in session["messages"][-1]["questions"][0]


def test_a_member_sets_only_their_own_household(chat, client, sign_in, inline_worker):
    headers, user_id = sign_in("member@example.com", display_name="Mia")
    mia = join_directly(chat.group_id, user_id, "MEMBER", "Mia")
    sid = client.post("/chat/sessions", json={"groupId": chat.group_id},
                      headers=headers).get_json()["sessionId"]

    def draft_of(text):
        client.post(f"/chat/sessions/{sid}/messages", json={"text": text}, headers=headers)
        drafts = client.get(f"/chat/sessions/{sid}", headers=headers).get_json()["drafts"]
        return next(d for d in drafts if d["status"] == "OPEN")

    def confirm(draft):
        return client.post(f"/chat/sessions/{sid}/drafts/{draft['draftId']}/confirm",
                           json={"version": draft["version"]}, headers=headers)

    others = draft_of("Ann and Bo are one household")
    refused = confirm(others)
    assert refused.status_code == 403, refused.get_json()
    assert _people(chat)[chat.ann] is None
    mine = draft_of("put me in the Smith household")
    assert mine["households"] == [{"participantId": mia, "household": "Smith"}]
    assert confirm(mine).status_code == 200
    assert _people(chat)[mia] == "Smith"


def test_an_expense_draft_is_not_turned_into_a_household_one(chat):
    sid = chat.session()
    assert chat.say(sid, "I paid 30 for pizza with Ann").status_code == 202
    assert chat.say(sid, "Ann and Bo are one household").status_code == 202
    drafts = {d["kind"]: d for d in chat.read(sid)["drafts"]}
    assert sorted(drafts) == ["EXPENSE", "HOUSEHOLD"]
    expense = drafts["EXPENSE"]
    assert expense["version"] == 1 and expense["expense"]["items"][0]["amount"] == 3000


def _model_context(chat) -> Context:
    group = GroupContext(chat.group_id, "Trip", "EUR", chat.me,
                         ((chat.me, "Dana"), (chat.ann, "Ann"), (chat.bo, "Bo")))
    return Context(text="Anna und Bo sind ein Haushalt", today="2026-12-05", groups=(group,),
                   session_group_id=chat.group_id, locale="de")


def test_a_model_drafter_proposes_households_in_any_language(chat, settings):
    """The tool a model calls carries households, so a model drafter understands them in
    every language it reads ("Anna und Bo sind ein Haushalt"); the server checks and words
    the summary in the writer's language."""
    assert "households" in tool.SCHEMA["properties"]
    arguments = {"reply": "ok", "groupId": chat.group_id, "households": [
        {"participantId": chat.ann, "household": "Haushalt Süd"},
        {"participantId": chat.bo, "household": "Haushalt Süd"}]}

    class Model:
        def draft(self, context):
            return tool.proposal_of(arguments, context)

    from app.chat import drafting

    sid = chat.session()
    message = chat.client.post(f"/chat/sessions/{sid}/messages",
                               json={"text": "Anna und Bo sind ein Haushalt"},
                               headers={**chat.headers, "Accept-Language": "de"})
    assert message.status_code == 202
    # the inline worker already ran the rule drafter (which reads English only): run the
    # model drafter on a fresh message instead
    from app.chat import admission

    admitted = admission.post_message(chat.user_id, sid, "Anna und Bo sind ein Haushalt",
                                      monthly=settings.chat_monthly_credits,
                                      cost=settings.chat_message_credits, locale="de")
    assert drafting.process(admission.work_item(admitted), settings, drafter=Model()) == "done"
    session = chat.read(sid)
    (draft,) = [d for d in session["drafts"] if d["status"] == "OPEN"]
    assert draft["households"] == arguments["households"]
    assert "Haushalt „Haushalt Süd“" in session["messages"][-1]["text"]  # in German
    assert chat.confirm(sid, draft).status_code == 200
    assert _people(chat)[chat.bo] == "Haushalt Süd"
    # a stranger named by the model is refused: no draft
    arguments["households"] = [{"participantId": "someone-else", "household": "X"}]
    admitted = admission.post_message(chat.user_id, sid, "x", locale="de",
                                      monthly=settings.chat_monthly_credits,
                                      cost=settings.chat_message_credits)
    drafting.process(admission.work_item(admitted), settings, drafter=Model())
    assert len(chat.read(sid)["drafts"]) == len(session["drafts"])


ROSTER = (("me", "Dana"), ("ann", "Ann"), ("bo", "Bo"), ("carla", "Carla"))


def _rule(text, households=()):
    from app.chat.drafters.rules import RuleDrafter

    group = GroupContext("g", "Trip", "EUR", "me", ROSTER, households=households)
    return RuleDrafter().draft(Context(text=text, today="2026-12-05", groups=(group,),
                                       session_group_id="g"))


@pytest.mark.parametrize("text, held, expected", [
    ("Ann and Bo are one household", (), [("ann", "Ann & Bo"), ("bo", "Ann & Bo")]),
    ("ann, bo and I form a household", (("bo", "Smith"),),
     [("ann", "Smith"), ("bo", "Smith"), ("me", "Smith")]),
    ("Ann and Bo are one household called Smiths", (), [("ann", "Smiths"), ("bo", "Smiths")]),
    ("Ann and Bo are the Miller household", (), [("ann", "Miller"), ("bo", "Miller")]),
    ("put Carla in the Smith household", (), [("carla", "Smith")]),
    ("move Carla to the Smiths' household", (), [("carla", "Smiths")]),
    ("add Carla and Bo to the Smith household", (), [("carla", "Smith"), ("bo", "Smith")]),
    ("Ann leaves her household", (("ann", "Smith"),), [("ann", None)]),
    ("I left my household", (), [("me", None)]),
    ("take Bo out of his household", (), [("bo", None)]),
])
def test_the_rule_drafter_reads_household_sentences(text, held, expected):
    proposal = _rule(text, held)
    assert proposal.expense is None and not proposal.questions, proposal
    assert [(c["participantId"], c["household"]) for c in proposal.households] == expected


def test_an_expense_sentence_is_not_read_as_a_household_one():
    proposal = _rule("I paid 30 for the household shopping with Ann")
    assert proposal.households is None and proposal.expense is not None
