"""A drafter's proposal is never trusted: it becomes a draft only if the REST validation of
an expense accepts it, in one of the caller's groups, naming only that group's roster.

It is judged once, here: the draft holds the resulting ExpenseInput (stored as its wire
body, ExpenseInput.to_draft), and confirming re-checks only the
roster before the ledger records it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from app.errors import Invalid
from app.chat.drafters.base import WHICH_GROUP, Context, Proposal
from app.core.i18n import Texts, texts
from app.ledger import expense_build, expense_input, households
from app.ledger.expense_input import ITEM_NAME_MAX, TEXT_MAX, ExpenseInput

MAX_REPLY = 2000
MAX_QUESTIONS = 5
MAX_QUESTION = 300
BODY_FIELDS = {expense_input.WIRE_NAMES[name] for name in expense_input.REQUEST_FIELDS} | {"date"}


@dataclass
class Checked:
    """What is shown: the reply, the questions, and a valid draft body (or None). Beside a
    draft the reply is its summary; a refused proposal's is the refusal."""

    reply: str
    questions: List[str] = field(default_factory=list)
    group_id: Optional[str] = None
    expense: Optional[ExpenseInput] = None
    participants: list = field(default_factory=list)  # [(participantId, displayName)]
    facts: dict = field(default_factory=dict)
    # A household draft instead of an expense: [{participantId, household}] (None: none)
    households: Optional[List[dict]] = None


def validate_body(body, roster_ids: set) -> ExpenseInput:
    """The body as a REST create would take it, or Invalid (the same expense_build.build,
    plus: only known fields, the REST text limits, only this roster's participants)."""
    if not isinstance(body, dict):
        raise Invalid("The draft is not an expense body.")
    unknown = set(body) - BODY_FIELDS
    if unknown:
        raise Invalid(f"The draft has fields an expense does not: {sorted(unknown)}.")
    _text_limits(body)
    expense = ExpenseInput.from_draft(body)
    check_roster(expense, roster_ids)
    expense_build.build(expense)
    return expense


def check_roster(expense: ExpenseInput, roster_ids: set) -> None:
    if not expense.participant_ids <= roster_ids:
        raise Invalid("The draft names someone who is not in the group.")


def _text_limits(body: dict) -> None:
    """The REST create's text limits (ExpenseInput's TEXT_MAX, which its schema reads): a
    model's draft is held to them before it is stored."""
    for name, limit in TEXT_MAX.items():
        value = body.get(name)
        if value is not None and (not isinstance(value, str) or len(value) > limit
                                  or (name == "description" and not value.strip())):
            raise Invalid(f"{name} must be text of at most {limit} characters.",
                          details={name: [f"Longer than {limit} or not text."]})
    for item in body.get("items") or []:
        name = item.get("name") if isinstance(item, dict) else None
        if name is not None and (not isinstance(name, str) or len(name) > ITEM_NAME_MAX):
            raise Invalid(f"An item name must be at most {ITEM_NAME_MAX} characters.",
                          details={"items": [f"name longer than {ITEM_NAME_MAX}."]})


def check(proposal: Proposal, context: Context) -> Checked:
    questions = [str(q)[:MAX_QUESTION] for q in (proposal.questions or [])][:MAX_QUESTIONS]
    reply = str(proposal.reply or "")[:MAX_REPLY] or " ".join(questions) or "Done."
    result = Checked(reply=reply, questions=questions, facts=dict(proposal.facts or {}))
    if proposal.expense is None and not proposal.households:
        return result
    group = context.group(proposal.group_id)
    t = texts(context.locale)
    if group is None:
        return _refused(result, t.gettext(WHICH_GROUP))
    if proposal.expense is None:
        return _households(result, proposal.households, group, t)
    roster = dict(group.participants)
    try:
        body = validate_body(proposal.expense, set(roster))
    except Invalid as error:
        return _refused(result, t.gettext("I couldn't make a valid expense of that ({reason}) "
                                          "— could you say it another way?",
                                          reason=error.message))
    result.group_id, result.expense = group.group_id, body
    result.participants = [(pid, roster[pid]) for pid in sorted(body.participant_ids,
                                                                key=list(roster).index)]
    result.reply = summary(body, group, t)  # never the model's own words about the money
    return result


def validate_households(changes, roster_ids: set) -> List[dict]:
    """A household proposal as PATCH participant would take each change, or Invalid: a
    list of ``{participantId, household}`` naming this roster's participants once each,
    each label 1 to MAX_HOUSEHOLD characters once trimmed, or null (out of a household)."""
    if not isinstance(changes, list) or not changes or len(changes) > len(roster_ids):
        raise Invalid("The proposal is not a list of household changes.")
    checked: List[dict] = []
    for change in changes:
        if not isinstance(change, dict) or set(change) - {"participantId", "household"}:
            raise Invalid("A household change names a participant and a household.")
        pid, label = change.get("participantId"), change.get("household")
        if pid not in roster_ids or any(c["participantId"] == pid for c in checked):
            raise Invalid("The proposal names someone who is not in the group, or twice.")
        if label is not None:
            if not isinstance(label, str):
                raise Invalid("A household is a name, or null.")
            label = households.checked_label(label)
        checked.append({"participantId": pid, "household": label})
    return checked


def _households(result: Checked, changes, group, t: Texts) -> Checked:
    roster = dict(group.participants)
    try:
        result.households = validate_households(changes, set(roster))
    except Invalid as error:
        return _refused(result, t.gettext("I couldn't make a valid expense of that ({reason}) "
                                          "— could you say it another way?",
                                          reason=error.message))
    result.group_id = group.group_id
    result.participants = [(c["participantId"], roster[c["participantId"]])
                           for c in result.households]
    result.reply = households_summary(result.households, group, t)
    return result


def households_summary(changes: List[dict], group, t: Texts) -> str:
    """What the user confirms about households, from the validated changes, in the
    writer's language."""
    names = dict(group.participants)

    def who(pid):
        return t.gettext("you") if pid == group.my_participant_id else names.get(pid, "?")

    by_label: dict = {}
    for change in changes:
        by_label.setdefault(change["household"], []).append(who(change["participantId"]))
    said = [t.gettext("{people}: household “{household}”", people=t.join(people),
                      household=label) if label is not None else
            t.gettext("{people}: no household", people=t.join(people))
            for label, people in by_label.items()]
    return t.gettext("In the group “{group}”: {changes}. Confirm to save it.",
                     group=group.name, changes="; ".join(said))[:MAX_REPLY]


def _refused(result: Checked, question: str) -> Checked:
    """No draft: the drafter's reply and questions were about the draft it proposed (a model
    says "Confirm to save it"), so the user reads only why there is none."""
    result.reply, result.questions = question, [question]
    return result


def summary(expense: ExpenseInput, group, t: Texts) -> str:
    """What the user confirms, said from the validated input itself, naming the group, in
    the writer's language."""
    currency = expense.currency or group.currency
    items = expense.items or ()
    total = sum(int(item.amount) for item in items) if items else int(expense.amount or 0)
    names = dict(group.participants)

    def who(pid):
        return t.gettext("you") if pid == group.my_participant_id else names.get(pid, "?")

    payers = [who(p.participant_id) for p in expense.payments or ()]
    sharing = list(dict.fromkeys(who(s.participant_id) for item in items for s in item.splits))
    sharing = sharing or [who(s.participant_id) for s in expense.splits or ()]
    return t.gettext("{description}: {money} paid by {payers}, split between {sharing}, in the "
                     "group \u201c{group}\u201d. Confirm to save it.",
                     description=expense.description or t.gettext("Expense"),
                     money=t.money(total, currency), payers=t.join(payers or ["?"]),
                     sharing=t.join(sharing or ["?"]), group=group.name)[:MAX_REPLY]

