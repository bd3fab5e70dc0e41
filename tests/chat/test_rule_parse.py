"""The rule-based drafter's parse table: real phrasings and the draft each must give.

Roster of "Trip" (EUR): Dana (the caller, "me"), Ann Lee, Bo, Zoë. Today is 2026-12-01 (a
Tuesday). Each row: text -> (amount in minor units, payer, who shares, split mode, date), or
a question (the drafter asks instead of guessing)."""
from __future__ import annotations

import pytest

from app.chat.drafters.base import Context, GroupContext
from app.chat.drafters.rules import RuleDrafter

GROUP = GroupContext("g1", "Trip", "EUR", "me",
                     (("me", "Dana"), ("ann", "Ann Lee"), ("bo", "Bo"), ("zoe", "Zoë")))
ALL = {"me", "ann", "bo", "zoe"}
TODAY = "2026-12-01"

TABLE = [
    ("I paid 42.50 for dinner with Ann and Bo, split equally", 4250, "me", {"me", "ann", "bo"}, "EQUAL", TODAY),
    ("I paid 30€ for the taxi with Ann", 3000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid €30 for the taxi with Ann", 3000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid EUR 30 for the taxi with Ann", 3000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid 30 EUR for the taxi with Ann", 3000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid 30 euros for the taxi with Ann", 3000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid 12,50 € for coffee with Bo", 1250, "me", {"me", "bo"}, "EQUAL", TODAY),
    ("I paid 1,234.50 EUR for the hotel, everyone", 123450, "me", ALL, "EQUAL", TODAY),
    ("I paid 1.234,50 € for the hotel for everyone", 123450, "me", ALL, "EQUAL", TODAY),
    ("Bo paid 30€ for the taxi yesterday, I owe half", 3000, "bo", {"me", "bo"}, "EQUAL", "2026-11-30"),
    ("Ann paid 18 for lunch with me", 1800, "ann", {"me", "ann"}, "EQUAL", TODAY),
    ("paid by Bo: 25 for drinks with Ann", 2500, "bo", {"bo", "ann"}, "EQUAL", TODAY),
    ("I covered 60 for pizza with ann and bo", 6000, "me", {"me", "ann", "bo"}, "EQUAL", TODAY),
    ("Dinner with ANN and bo, I paid 45", 4500, "me", {"me", "ann", "bo"}, "EQUAL", TODAY),
    ("I paid 20 for snacks with Zoe", 2000, "me", {"me", "zoe"}, "EQUAL", TODAY),
    ("I paid 20 for snacks with zoë", 2000, "me", {"me", "zoe"}, "EQUAL", TODAY),
    ("I paid 20 for snacks with Anne", 2000, "me", {"me", "ann"}, "EQUAL", TODAY),
    ("I bought groceries for 90", 9000, "me", ALL, "EQUAL", TODAY),
    ("groceries 90 split evenly", 9000, "me", ALL, "EQUAL", TODAY),
    ("I paid 90 for the hotel last Friday", 9000, "me", ALL, "EQUAL", "2026-11-27"),
    ("I paid 90 for the hotel on Saturday", 9000, "me", ALL, "EQUAL", "2026-11-28"),
    ("I paid 90 for the hotel on 2026-11-20", 9000, "me", ALL, "EQUAL", "2026-11-20"),
    ("I paid 90 for the hotel on Nov 20", 9000, "me", ALL, "EQUAL", "2026-11-20"),
    ("I paid 90 for the hotel on 20 November", 9000, "me", ALL, "EQUAL", "2026-11-20"),
    ("I paid 90 for the hotel 3 days ago", 9000, "me", ALL, "EQUAL", "2026-11-28"),
    ("I paid 90 for the hotel the day before yesterday", 9000, "me", ALL, "EQUAL", "2026-11-29"),
    ("I paid 60 for the cabin, split three ways with Ann and Bo", 6000, "me", {"me", "ann", "bo"}, "EQUAL", TODAY),
    ("I paid 80 for fuel, split four ways", 8000, "me", ALL, "EQUAL", TODAY),
    ("I paid 90 for groceries with Ann, 2 shares for Bo", 9000, "me", {"me", "ann", "bo"}, "SHARES", TODAY),
    ("I paid 60 for pizza, Ann owes 20", 6000, "me", {"me", "ann"}, "EXACT", TODAY),
    ("Ann paid 100 for tickets, Bo 60%, Ann 40%", 10000, "ann", {"ann", "bo"}, "PERCENT", TODAY),
    ("we spent 75.20 on wine with Bo", 7520, "me", {"me", "bo"}, "EQUAL", TODAY),
    ("Zoë paid 14 for the bus for me and Ann", 1400, "zoe", {"me", "ann"}, "EQUAL", TODAY),
    ("I paid 33.33 for the movie with everybody", 3333, "me", ALL, "EQUAL", TODAY),
]
QUESTIONS = [
    ("Cy paid 20 for lunch", "Cy"),
    ("I paid 20 for lunch with Max", "Max"),
    ("dinner with Ann", "How much"),
    ("I paid 20 or 30 for lunch", "several amounts"),
    ("hotel 300 split three ways", "three ways"),
    ("I paid 10.555 for stamps", "isn't an amount"),
]


def _draft(text):
    return RuleDrafter().draft(Context(text=text, today=TODAY, groups=(GROUP,)))


@pytest.mark.parametrize("text, amount, payer, among, mode, day", TABLE)
def test_phrasing_gives_its_draft(text, amount, payer, among, mode, day):
    proposal = _draft(text)
    assert proposal.questions == [], proposal.questions
    body = proposal.expense
    (item,) = body["items"]
    assert (item["amount"], body["payments"][0]["participantId"],
            {s["participantId"] for s in item["splits"]}, item["splitMode"], body["date"]) == (
        amount, payer, among, mode, day)


@pytest.mark.parametrize("text, asked", QUESTIONS)
def test_unclear_phrasing_is_a_question_not_a_guess(text, asked):
    proposal = _draft(text)
    assert proposal.expense is None
    assert any(asked in q for q in proposal.questions), proposal.questions


# Another currency than the group's: the draft keeps it (its own balances, no rate), in that
# currency's minor units.
FOREIGN = [
    ("I paid USD 12 for coffee", "USD", 1200),
    ("I paid 12.5 dollars for drinks", "USD", 1250),
    ("I paid £45 for tickets", "GBP", 4500),
    ("I paid 3000 JPY for the museum", "JPY", 3000),
]


@pytest.mark.parametrize("text, currency, amount", FOREIGN)
def test_a_named_currency_is_kept_in_the_draft(text, currency, amount):
    proposal = _draft(text)
    assert proposal.questions == [], proposal.questions
    assert (proposal.expense["currency"], proposal.expense["items"][0]["amount"]) == (
        currency, amount)


def test_several_groups_ask_which_unless_one_is_named():
    other = GroupContext("g2", "Flat", "EUR", "me2", (("me2", "Dana"), ("x", "Xia")))
    ask = RuleDrafter().draft(Context(text="I paid 10 for milk", today=TODAY, groups=(GROUP, other)))
    assert ask.expense is None and "Which group" in ask.questions[0]
    named = RuleDrafter().draft(Context(text="I paid 10 for milk in the Flat", today=TODAY,
                                        groups=(GROUP, other)))
    assert named.group_id == "g2" and named.expense is not None


# Money the group received (issue 45): the drafter proposes kind INCOME, its "payer" being
# who received it; every other phrasing stays an EXPENSE (the table above sends none).
INCOME = [
    ("got 20 back from the deposit", 2000, "me", ALL, "Deposit back"),
    ("Ann got 45 back from the hotel, split with Bo", 4500, "ann", {"ann", "bo"}, "Hotel back"),
    ("Bo received a 30 refund for the tickets", 3000, "bo", ALL, "Tickets"),
]


@pytest.mark.parametrize("text, amount, receiver, among, description", INCOME)
def test_money_received_is_drafted_as_income(text, amount, receiver, among, description):
    proposal = _draft(text)
    assert proposal.questions == [], proposal.questions
    body = proposal.expense
    (item,) = body["items"]
    assert body["kind"] == "INCOME"
    assert (item["amount"], body["payments"][0]["participantId"],
            {s["participantId"] for s in item["splits"]}, body["description"]) == (
        amount, receiver, among, description)
    assert "received by" in proposal.reply


def test_expense_phrasings_carry_no_kind():
    for text, *_ in TABLE:
        assert "kind" not in _draft(text).expense, text


def test_more_or_less_than_an_equal_share_is_an_adjustment():
    proposal = _draft("I paid 90 for the cabin with Ann and Bo, Ann 10 more, Bo 4.50 less")
    assert proposal.questions == [], proposal.questions
    (item,) = proposal.expense["items"]
    assert item["splitMode"] == "ADJUSTMENT" and item["amount"] == 9000
    assert {s["participantId"]: s["value"] for s in item["splits"]} == {
        "me": 0, "ann": 1000, "bo": -450}


def test_an_income_draft_reads_back_as_an_income_input_and_builds():
    from app.ledger.expense_build import build
    from app.ledger.expense_input import ExpenseInput

    body = _draft("got 20 back from the deposit").expense
    expense = ExpenseInput.from_draft(body)
    assert expense.kind == "INCOME" and expense.to_draft()["kind"] == "INCOME"
    draft = build(expense, "EUR")
    assert draft.nets == {"me": -1500, "ann": 500, "bo": 500, "zoe": 500}


def test_the_model_tool_types_kind_and_adjustment_and_passes_income_through():
    from app.chat.drafters.tool import SCHEMA, proposal_of

    assert SCHEMA["properties"]["kind"]["enum"] == ["EXPENSE", "INCOME"]
    assert "ADJUSTMENT" in SCHEMA["properties"]["splitMode"]["enum"]
    proposal = proposal_of({"reply": "Deposit back", "groupId": "g1", "amount": "20",
                            "kind": "INCOME", "splitMode": "ADJUSTMENT",
                            "splits": [{"participantId": "me", "value": 0},
                                       {"participantId": "ann", "value": 500}]},
                           Context(text="got 20 back", today=TODAY, groups=(GROUP,)))
    assert proposal.expense["kind"] == "INCOME"
    assert proposal.expense["items"][0]["splitMode"] == "ADJUSTMENT"


def test_a_message_naming_nobody_uses_the_groups_default_split():
    group = GroupContext("g1", "Trip", "EUR", "me", GROUP.participants,
                        default_split=("SHARES", (("me", 2), ("ann", 1))))

    def draft(text):
        return RuleDrafter().draft(Context(text=text, today=TODAY, groups=(group,)))

    (item,) = draft("I bought groceries for 90").expense["items"]
    assert item["splitMode"] == "SHARES"
    assert [(s["participantId"], s["value"]) for s in item["splits"]] == [("me", 2), ("ann", 1)]
    # Naming people, or saying how, overrides the default.
    (item,) = draft("I paid 90 for groceries with Bo").expense["items"]
    assert (item["splitMode"], {s["participantId"] for s in item["splits"]}) == (
        "EQUAL", {"me", "bo"})
    assert draft("groceries 90 split evenly").expense["items"][0]["splitMode"] == "EQUAL"
# Tax, tip, service and discounts: the said amount is the items', the extra comes on top
# (or off), and the payment is the whole.
EXTRAS = [
    ("I paid 60 for dinner with Ann and Bo plus 10% tip", 6000, [("tip", 600)]),
    ("I paid 50 for groceries with 8% tax", 5000, [("tax", 400)]),
    ("Dinner 80 with everyone, plus 12.5% service and 8% tax", 8000,
     [("service", 1000), ("tax", 640)]),
    ("I paid 40 for pizza with Bo, 10% discount", 4000, [("discount", -400)]),
    ("I paid 30 for the taxi with Ann plus a 5 tip", 3000, [("tip", 500)]),
]


@pytest.mark.parametrize("text, items, extras", EXTRAS)
def test_tax_tip_and_discounts_become_extras(text, items, extras):
    proposal = _draft(text)
    assert proposal.questions == [], proposal.questions
    body = proposal.expense
    assert body["items"][0]["amount"] == items
    assert [(x["name"], x["amount"]) for x in body["extras"]] == extras
    assert body["payments"][0]["amount"] == items + sum(amount for _, amount in extras)
