"""Write tools: expenses (add, update, delete, comment), settlements (record, settle up,
delete), groups (create, add a guest).

Each authorizes as its REST route does, through the request's cached group access
(app.api.context.group_access), and calls the same service. Money arrives as decimal strings
in the body's currency (add_expense's and record_settlement's ``currency``, default the
group's; ``groupAmount`` always in the group's) and is converted exactly to minor units with
that currency's exponent (app.money.currencies.parse_minor); the converted body then goes
through the REST route's own schema and service, so every limit and rule is theirs, and a
refusal that quotes an amount is said in the tool's units from its structure
(app.mcp.units, app.money.refusals). The conversion uses the currency read
with the authorization; the service's commit checks that currency is unchanged
(CURRENCY_CHANGED), so a concurrent currency change cannot slip a wrongly scaled amount in.
``idempotencyKey`` goes through the REST idempotency records, under the connection's grant id
(as a PAT's go under its token id)."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict

from marshmallow import ValidationError

from app.ledger import views as comments_api, views as expenses_api
from app.groups import views as groups_api
from app.ledger import views as settlements_api
from app.api.context import group_access
from app.mcp.tool import Dumped, Tool
from app.mcp.units import in_units, to_minor
from app.errors import Invalid, version_conflict
from app.ledger import expense_input
from app.ledger.expense_input import ExpenseInput
from app.money.settlement_input import SettlementInput
from app.money.splits import ADJUSTMENT
from app.mcp.errors import balances_changed
from app.ledger.schemas import (CommentSchema, ExpenseCreateSchema, ExpensePatchSchema,
                                ExpenseSchema)
from app.groups.schemas import GroupSchema, ParticipantSchema
from app.mcp.schemas import (AddCommentArgs, AddExpenseArgs, AddGuestArgs, CreateGroupArgs,
                             DeletedSchema, ExpenseArgs, RecordSettlementArgs, SetHouseholdArgs,
                             SettlementArgs, SettleUpArgs, SettleUpSchema, UpdateExpenseArgs)
from app.ledger.schemas import SettlementSchema
from app.core import idempotency
from app.core.access import Access
from app.groups import groups, participants
from app.ledger import balances, comments, expense_delete, expenses, settlements

LOCAL_ARGS = ("groupId", "expenseId", "currency", "idempotencyKey")  # not part of the REST body
NO_GROUP = "no group"  # what a tool outside any group (create_group) authorizes against


def _split(split: dict, mode: str, currency: str, path: str) -> dict:
    value = split.get("value")
    if mode == "EXACT":
        if not isinstance(value, str):
            raise Invalid("The arguments have invalid fields.", details={
                f"{path}.value": ["EXACT values are decimal strings such as \"4.10\"."]})
        value = to_minor(value, currency, f"{path}.value", minimum=0)
    elif mode == ADJUSTMENT:
        if not isinstance(value, str):
            raise Invalid("The arguments have invalid fields.", details={
                f"{path}.value": ["ADJUSTMENT values are signed decimal strings such as "
                                  "\"-2.50\" or \"0\"."]})
        negative = value.startswith("-")
        value = to_minor(value[1:] if negative else value, currency, f"{path}.value",
                         minimum=0) * (-1 if negative else 1)
    elif isinstance(value, str):
        raise Invalid("The arguments have invalid fields.", details={
            f"{path}.value": [f"{mode} values are integers (PERCENT in basis points)."]})
    return {**split, "value": value} if value is not None else dict(split)


def _splits(splits: list, mode: str, currency: str, path: str) -> list:
    return [_split(split, mode, currency, f"{path}.{i}") for i, split in enumerate(splits)]


def _money_fields(args: Dict[str, Any], currency: str) -> dict:
    """The body's money fields (those sent) in integer minor units."""
    body = {k: v for k, v in args.items() if k not in LOCAL_ARGS}
    if "payments" in args:
        body["payments"] = [{**p, "amount": to_minor(p["amount"], currency,
                                                     f"payments.{i}.amount")}
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
        body["splits"] = _splits(args["splits"], args.get("split_mode", ""), currency, "splits")
    if args.get("extras") is not None:
        body["extras"] = [{**extra, "amount": _signed_minor(extra["amount"], currency,
                                                            f"extras.{i}.amount")}
                          for i, extra in enumerate(args["extras"])]
    return body


def _signed_minor(value: str, currency: str, path: str) -> int:
    """A signed decimal string (an extra: a discount is negative) -> minor units."""
    negative = value.startswith("-")
    minor = to_minor(value.lstrip("-"), currency, path)
    return -minor if negative else minor


def body_currency(args: Dict[str, Any], group_currency: str) -> str:
    """The currency a body's amounts are written in: ``currency`` when sent, else the group's."""
    return args.get("currency") or group_currency


def _rate_fields(args: Dict[str, Any], group_currency: str, *,
                 rate: str = "exchange_rate", total: str = "group_amount") -> dict:
    """``currency``, the rate and the group amount as the REST schema loads them (under
    ``rate`` and ``total``: an expense's ExpenseInput names, a settlement's API names): the
    group amount is a decimal string in the GROUP currency, so its exponent is that one's."""
    fields = {name: args[name] for name in ("currency", rate) if name in args}
    if args.get(total) is not None:
        fields[total] = to_minor(args[total], group_currency, "groupAmount")
    elif total in args:
        fields[total] = None
    return fields


def expense_body(args: Dict[str, Any], group_currency: str) -> ExpenseInput:
    """The ExpenseInput (integer minor units) of add_expense's arguments: amounts in the
    body's currency, groupAmount in the group's, loaded by the REST route's own schema."""
    body = _money_fields(args, body_currency(args, group_currency))
    body.update(_rate_fields(args, group_currency))
    return _rest_load(ExpenseCreateSchema, body)


def _rest_load(schema: type, body: dict):
    """The REST route's validation of the converted body (its limits, its messages): the
    tool's arguments loaded under the REST schema's names go back under its API names."""
    rest = schema()
    api = {name: field.data_key or name for name, field in rest.fields.items()}
    try:
        return rest.load({api.get(name, name): value for name, value in body.items()})
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_": error.messages}
        raise Invalid("The arguments have invalid fields.", details=messages) from None


def once(caller, access, tool: str, args: Dict[str, Any], run: Callable[[], Any],
         schema) -> Any:
    """Run ``run`` once per idempotencyKey: a repeat with the same arguments replays the first
    reply (writing nothing), with other arguments it is IDEMPOTENCY_KEY_REUSED. The reply is
    stored as ``schema`` dumps it, and handed back already dumped.

    ``access`` is the caller's authorization for this call, made before (or NO_GROUP for a
    tool outside any group): a replay never answers a caller the tool would refuse now."""
    if not isinstance(access, Access) and access is not NO_GROUP:
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


def _add_expense(caller, args: dict):
    access = group_access(args["groupId"], "MEMBER", writing=True,
                          prefetch=balances.BALANCES_PREFETCH)
    group_currency = access.group.Currency
    return once(caller, access, "add_expense", args, lambda: in_units(
        lambda: expenses.create_expense(access, expense_body(args, group_currency)),
        body_currency(args, group_currency), group_currency), ExpenseSchema)


MONEY_ARGS = ("payments", "items", "amount", "splits")


def _edited_currency(access, args: dict) -> str:
    """The currency an edit's amounts are in: the one it sends, else the expense's own (read
    only when amounts are sent). The update is conditioned on the version this read checks,
    so an edit that changed the currency meanwhile is VERSION_CONFLICT, never mis-scaled."""
    group_currency = access.group.Currency
    if args.get("currency") or not any(name in args for name in MONEY_ARGS):
        return body_currency(args, group_currency)
    current = expenses.load_expense(access.group_id, args["expenseId"])
    if int(current.Version) != args["version"]:
        raise version_conflict("expense", int(current.Version))
    return current.Currency or group_currency


def _update_expense(caller, args: dict):
    access = group_access(args["groupId"], "MEMBER", writing=True,
                          prefetch=balances.BALANCES_PREFETCH)
    group_currency = access.group.Currency
    currency = _edited_currency(access, args)

    def run():
        body = _money_fields(args, currency)
        body.update(_rate_fields(args, group_currency))
        edit = _rest_load(ExpensePatchSchema, body)
        return expenses.update_expense(access, args["expenseId"], edit.version, edit.changes)

    return in_units(run, currency, group_currency)


def _set_household(caller, args: dict):
    access = group_access(args["groupId"], "VIEWER")
    return participants.update_participant(access, args["participantId"],
                                           household=args["household"])


def _delete_expense(caller, args: dict) -> dict:
    access = group_access(args["groupId"], "MEMBER", writing=True,
                          prefetch=balances.BALANCES_PREFETCH)
    expense_delete.delete_expense(access, args["expenseId"])
    return {"deleted": True, "expenseId": args["expenseId"]}


def settlement_input(args: Dict[str, Any], currency: str, group_currency: str) -> SettlementInput:
    """The SettlementInput of record_settlement's arguments (loaded by the REST settlement
    schema's fields, so only the decimals are left): ``amount`` in minor units of
    ``currency``, ``group_amount`` of the group's, each held to the REST range by to_minor."""
    fields = {name: args[name] for name in SettlementInput._fields if name in args}
    fields["amount"] = to_minor(args["amount"], currency, "amount")
    if args.get("group_amount") is not None:
        fields["group_amount"] = to_minor(args["group_amount"], group_currency, "groupAmount")
    return SettlementInput.of(**fields)


def _record_settlement(caller, args: dict):
    access = group_access(args["groupId"], "MEMBER", writing=True,
                          prefetch=balances.BALANCES_PREFETCH)
    group_currency = access.group.Currency
    currency = body_currency(args, group_currency)
    return once(caller, access, "record_settlement", args, lambda: in_units(
        lambda: settlements.create_settlement(
            access, settlement_input(args, currency, group_currency)),
        currency, group_currency), SettlementSchema)


def _settle_up(caller, args: dict):
    """Every transfer of the plan get_balances shows, each recorded as record_settlement
    records one. Under an idempotencyKey a retry replays what the first call recorded; a
    call that failed part way frees its key, and its retry reads the plan again, so only
    what is still owed is recorded."""
    access = group_access(args["groupId"], "MEMBER", prefetch=balances.BALANCES_PREFETCH,
                          writing=True)

    def run() -> dict:
        plan = balances.group_balances(access)
        wanted = args.get("revision")
        if wanted is not None and wanted != plan.revision:
            raise balances_changed(plan.revision)
        recorded = [settlements.create_settlement(access, SettlementInput.of(
                        payer_id=t.from_id, payee_id=t.to_id, amount=t.amount,
                        date=args.get("date"), note=args.get("note")))
                    for t in plan.transfers]
        return {"currency": plan.currency, "recorded": recorded}

    return once(caller, access, "settle_up", args, run, SettleUpSchema)


def _delete_settlement(caller, args: dict) -> dict:
    access = group_access(args["groupId"], "MEMBER", writing=True,
                          prefetch=balances.BALANCES_PREFETCH)
    settlements.delete_settlement(access, args["settlementId"])
    return {"deleted": True, "settlementId": args["settlementId"]}


def _add_comment(caller, args: dict):
    access = group_access(args["groupId"], writing=True)
    return once(caller, access, "add_comment", args,
                lambda: comments.add_comment(access, args["expenseId"], args["body"]),
                CommentSchema)


def _create_group(caller, args: dict):
    return once(caller, NO_GROUP, "create_group", args, lambda: groups.create_group(
        caller.user_id, name=args["name"], currency=args["currency"]), GroupSchema)


def _add_guest(caller, args: dict):
    access = group_access(args["groupId"], "MEMBER", writing=True)
    return once(caller, access, "add_guest", args, lambda: participants.add_guest(
        access, display_name=args["displayName"], role=args["role"]), ParticipantSchema)


MONEY = ("Amounts are decimal strings (\"12.30\"; no more decimals than the currency has) "
         "in currency, which defaults to the group currency (list_groups and get_group show "
         "it).")
FOREIGN = ("Another currency (currency: an ISO 4217 code) is either converted into the group "
           "currency, with exchangeRate (1 unit of currency = rate units of the group currency, "
           "or \"auto\" for the ECB reference rate of the date) or groupAmount (what was "
           "really charged, in the group currency), or, with neither, kept in its own "
           "currency with its own balances (get_balances otherCurrencies).")
RETRY = "Send an idempotencyKey and reuse it if you retry."

TOOLS = (
    Tool(
        name="add_expense", title="Add an expense",
        description="Record an expense in a group (the user needs the MEMBER role). " + MONEY
                    + " " + FOREIGN + " payments: who paid how much (they add up to the total). Who owes "
                    "what: " + expense_input.EITHER_FORM + " splitMode EQUAL splits evenly "
                    "(omit values); EXACT takes each split's value as a decimal string; "
                    "PERCENT takes basis points (2500 = 25%); SHARES takes weights; "
                    "ADJUSTMENT takes a signed decimal string per split (\"2.50\": 2.50 more "
                    "than an equal share of the rest, \"-2.50\": less, \"0\": just the "
                    "equal share). With amount and payments but no splitMode or splits, the "
                    "group's default split (get_group group.defaultSplit) shares it. kind INCOME "
                    "records money the group received (\"got 20 back from the deposit\", a "
                    "refund, a sale): payments name who received it, splits whom it belongs "
                    "to. Tax, tip, service or a discount (\"plus 10% tip\", \"with 8% tax\"): "
                    "extras, included in the total. Get participant ids from get_group. date "
                    "defaults to today. " + RETRY,
        args=AddExpenseArgs, result=ExpenseSchema, rest_view=expenses_api.create_expense,
        run=_add_expense, creates=True),
    Tool(
        name="update_expense", title="Correct an expense",
        description="Change an expense (MEMBER role), e.g. \"it was 40, not 45\": send its "
                    "version (from get_expense or list_expenses) and only the fields that "
                    "change; amounts as in add_expense, in the expense's own currency unless "
                    "currency is sent (exchangeRate or groupAmount change its conversion; "
                    "exchangeRate null keeps it in its currency). Changing the amount of a one-item "
                    "expense: send amount and payments (they must still add up). A stale "
                    "version is refused with VERSION_CONFLICT: read the expense again.",
        args=UpdateExpenseArgs, result=ExpenseSchema, rest_view=expenses_api.update_expense,
        run=_update_expense, writes=True, destructive=True),
    Tool(
        name="set_household", title="Put someone in a household",
        description="Set the household a participant settles up with, e.g. a couple or a "
                    "family who pay as one (the user may set their own; an OWNER anyone's). "
                    "get_balances then lists each household with its members' summed net and "
                    "plans payments between households and people on their own; each "
                    "payment names the member who pays or receives for the household. "
                    "household null takes them out.",
        args=SetHouseholdArgs, result=ParticipantSchema,
        rest_view=groups_api.patch_participant, run=_set_household, writes=True,
        # households are the settle-up's units; the REST route also changes roles, so it
        # refuses PATs, and this tool takes the household alone
        own_scope="settlements:write"),
    Tool(
        name="delete_expense", title="Delete an expense",
        description="Delete an expense (MEMBER role); its effect on the balances is undone. "
                    "It stays in the group's trash, with its comments, for 30 days, where a "
                    "member can restore it in the app. Confirm with the user first.",
        args=ExpenseArgs, result=DeletedSchema, rest_view=expenses_api.delete_expense,
        run=_delete_expense, writes=True, destructive=True),
    Tool(
        name="record_settlement", title="Record a payment between members",
        description="Record that payerId paid payeeId back (MEMBER role). " + MONEY
                    + " " + FOREIGN + " To record a transfer get_balances suggests: payerId is its "
                    "fromParticipantId, payeeId its toParticipantId, amount its "
                    "amountFormatted number. date defaults to today. " + RETRY,
        args=RecordSettlementArgs, result=SettlementSchema,
        rest_view=settlements_api.create_settlement, run=_record_settlement, creates=True),
    Tool(
        name="settle_up", title="Settle up the whole group",
        description="Record every payment of the current settle-up plan (the transfers "
                    "get_balances shows) in one call (MEMBER role), so that every balance "
                    "is 0; answers the settlements it recorded. Send the revision "
                    "get_balances answered to be sure the plan the user saw is the one "
                    "recorded. date defaults to today. " + RETRY,
        args=SettleUpArgs, result=SettleUpSchema,
        rest_view=settlements_api.create_settlement, run=_settle_up, creates=True),
    Tool(
        name="delete_settlement", title="Delete a recorded payment",
        description="Delete a settlement (MEMBER role); its effect on the balances is "
                    "undone. It stays in the group's trash for 30 days. Confirm with the user "
                    "first.",
        args=SettlementArgs, result=DeletedSchema, rest_view=settlements_api.delete_settlement,
        run=_delete_settlement, writes=True, destructive=True),
    Tool(
        name="add_comment", title="Comment on an expense",
        description="Add a comment to an expense (any participant may comment); @handle "
                    "mentions notify those group members. " + RETRY,
        args=AddCommentArgs, result=CommentSchema, rest_view=comments_api.add_comment,
        run=_add_comment, creates=True),
    Tool(
        name="create_group", title="Create a group",
        description="Create an expense group with the user as its owner; answers its groupId "
                    "and the user's participant id. Add the other people with add_guest. "
                    + RETRY,
        args=CreateGroupArgs, result=GroupSchema, rest_view=groups_api.create_group,
        run=_create_group, creates=True),
    Tool(
        name="add_guest", title="Add a person to a group",
        description="Add a guest participant by name (MEMBER role): someone without an "
                    "account (yet) who can pay and share expenses; answers their "
                    "participantId. " + RETRY,
        args=AddGuestArgs, result=ParticipantSchema, rest_view=groups_api.add_guest,
        run=_add_guest, creates=True),
)
