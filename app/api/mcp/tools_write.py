"""Write tools: add_expense (expenses:write), record_settlement (settlements:write) and
add_comment (expenses:write, as its REST route).

Money arrives as decimal strings in the group currency and is converted exactly to minor
units with the currency's exponent (app.money.currencies.parse_minor); the converted body
then goes through the REST route's own schema and service, so every limit and rule is theirs.
The conversion uses the currency read with the authorization; the service's commit checks
that currency is unchanged (CURRENCY_CHANGED), so a concurrent currency change cannot slip a
wrongly scaled amount in. ``idempotencyKey`` goes through the REST idempotency records, under
the connection's grant id (as a PAT's go under its token id)."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict

from marshmallow import ValidationError

from app.api import comments as comments_api, expenses as expenses_api
from app.api import settlements as settlements_api
from app.api.mcp.tool import Dumped, Tool
from app.errors import Invalid
from app.money.currencies import parse_minor
from app.schemas.expenses import CommentSchema, ExpenseCreateSchema, ExpenseSchema
from app.schemas.mcp import AddCommentArgs, AddExpenseArgs, RecordSettlementArgs
from app.schemas.settlements import SettlementCreateSchema, SettlementSchema
from app.services.core import idempotency
from app.services.core.access import Access, authorize
from app.services.ledger import comments, expenses, settlements

LOCAL_ARGS = ("groupId", "expenseId", "currency", "idempotencyKey")  # not part of the REST body


def to_minor(value: Any, currency: str, path: str) -> int:
    """A decimal string in ``currency`` -> minor units, or Invalid naming the argument."""
    try:
        return parse_minor(value, currency)
    except ValueError as error:
        raise Invalid("The arguments have invalid fields.", details={path: [str(error)]}) from None


def _split(split: dict, mode: str, currency: str, path: str) -> dict:
    value = split.get("value")
    if mode == "EXACT":
        if not isinstance(value, str):
            raise Invalid("The arguments have invalid fields.", details={
                f"{path}.value": ["EXACT values are decimal strings such as \"4.10\"."]})
        value = to_minor(value, currency, f"{path}.value")
    elif isinstance(value, str):
        raise Invalid("The arguments have invalid fields.", details={
            f"{path}.value": [f"{mode} values are integers (PERCENT in basis points)."]})
    return {**split, "value": value} if value is not None else dict(split)


def _splits(splits: list, mode: str, currency: str, path: str) -> list:
    return [_split(split, mode, currency, f"{path}.{i}") for i, split in enumerate(splits)]


def expense_body(args: Dict[str, Any], currency: str) -> dict:
    """The REST expense body (integer minor units) for add_expense's arguments."""
    if args.get("currency") not in (None, currency):
        raise Invalid("The amounts must be in the group currency.",
                      details={"currency": [f"The group's currency is {currency}."]})
    body = {k: v for k, v in args.items() if k not in LOCAL_ARGS}
    body["payments"] = [{**p, "amount": to_minor(p["amount"], currency, f"payments.{i}.amount")}
                        for i, p in enumerate(args["payments"])]
    if "items" in args:
        body["items"] = [{**item, "amount": to_minor(item["amount"], currency,
                                                     f"items.{i}.amount"),
                          "splits": _splits(item["splits"], item["splitMode"], currency,
                                            f"items.{i}.splits")}
                         for i, item in enumerate(args["items"])]
    if "amount" in args:
        body["amount"] = to_minor(args["amount"], currency, "amount")
    if "splits" in args:
        body["splits"] = _splits(args["splits"], args.get("splitMode", ""), currency, "splits")
    return _rest_load(ExpenseCreateSchema, body)


def _rest_load(schema: type, body: dict) -> dict:
    """The REST route's validation of the converted body (its limits, its messages)."""
    try:
        return schema().load(body)
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_": error.messages}
        raise Invalid("The arguments have invalid fields.", details=messages) from None


def once(caller, access: Access, tool: str, args: Dict[str, Any], run: Callable[[], Any],
         schema) -> Any:
    """Run ``run`` once per idempotencyKey: a repeat with the same arguments replays the first
    reply (writing nothing), with other arguments it is IDEMPOTENCY_KEY_REUSED. The reply is
    stored as ``schema`` dumps it, and handed back already dumped.

    ``access`` is the caller's authorization for this call, made before: a replay never
    answers a caller the tool would refuse now (demoted, removed)."""
    if not isinstance(access, Access):
        raise TypeError(f"{tool}: authorize the caller before an idempotent replay")
    key = args.get("idempotencyKey")
    if key is None:
        return run()
    canonical = json.dumps({k: v for k, v in args.items() if k != "idempotencyKey"},
                           sort_keys=True, default=str).encode()
    outcome = idempotency.once(caller.credential_id, key,
                               idempotency.request_hash("TOOL", tool, canonical),
                               owner=caller.user_id, run=lambda: Dumped(schema().dump(run())),
                               kept=lambda dumped: (200, json.dumps(dumped)))
    if isinstance(outcome, idempotency.Replay):
        return Dumped(json.loads(outcome.body))
    return outcome


def _add_expense(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"], "MEMBER")
    return once(caller, access, "add_expense", args, lambda: expenses.create_expense(
        access, expense_body(args, access.group.Currency)), ExpenseSchema)


def _record_settlement(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"], "MEMBER")

    def run() -> dict:
        body = {k: v for k, v in args.items() if k not in LOCAL_ARGS}
        body["amount"] = to_minor(args["amount"], access.group.Currency, "amount")
        body = _rest_load(SettlementCreateSchema, body)
        return settlements.create_settlement(access, payer_id=body["payerId"],
                                             payee_id=body["payeeId"], amount=body["amount"],
                                             date=body.get("date"), note=body.get("note"))

    return once(caller, access, "record_settlement", args, run, SettlementSchema)


def _add_comment(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"])
    return once(caller, access, "add_comment", args,
                lambda: comments.add_comment(access, args["expenseId"], args["body"]),
                CommentSchema)


TOOLS = (
    Tool(
        name="add_expense", title="Add an expense",
        description="Record an expense in a group (the user needs the MEMBER role). Amounts are "
                    "decimal strings in the group currency (\"12.30\"), never more decimals "
                    "than the currency has. payments: who paid how much (they must add up to "
                    "the total). "
                    "Either items (each with amount, splitMode and splits) or the shorthand "
                    "amount + splitMode + splits. splitMode EQUAL splits evenly; EXACT takes each "
                    "split's value as a decimal string; PERCENT takes basis points (2500 = 25%); "
                    "SHARES takes weights. Get participant ids from get_group. Send an "
                    "idempotencyKey and reuse it if you retry.",
        args=AddExpenseArgs, args_extra=AddExpenseArgs.JSON_EXTRA, result=ExpenseSchema,
        rest_view=expenses_api.create_expense, run=_add_expense, creates=True),
    Tool(
        name="record_settlement", title="Record a payment between members",
        description="Record that payerId paid payeeId back (MEMBER role): amount is a decimal "
                    "string in the group currency (\"25.00\"); optional date (YYYY-MM-DD) and "
                    "note. get_balances lists the payments that settle the group up.",
        args=RecordSettlementArgs, result=SettlementSchema,
        rest_view=settlements_api.create_settlement, run=_record_settlement, creates=True),
    Tool(
        name="add_comment", title="Comment on an expense",
        description="Add a comment to an expense (any participant may comment); @handle "
                    "mentions notify those group members.",
        args=AddCommentArgs, result=CommentSchema, rest_view=comments_api.add_comment,
        run=_add_comment, creates=True),
)
