"""Schemathesis's stateful phase over a live `python -m app serve`: no 5xx, no schema violation.

The document's links (app.api.openapi_links) chain each create to the operations that take
its id, so the state machine sends real ids: it creates a group, adds an expense to it,
comments on that expense, edits the comment... Every reply is judged by schemathesis's checks
(not a server error; status code, content type, headers and body as documented; and the
stateful ones, such as a deleted resource staying gone). It runs against the real server
process, signed in as real local users through POST /dev/tokens, for a bounded number of
scenarios and steps.

What a link cannot carry is filled in here, most of the time (never always, so generated
values still reach the server, and never in a negative case, which must stay invalid):
participants of the group with payments that add up (JSON Schema cannot say "sums match"), a
start date inside the allowed window, an enabled invite and its code, a user who may be
invited, and, for a scenario's first step, a group (or expense) an earlier scenario created.
A second user does what only another user can (ask to join, answer an invitation).

STATEFUL_FUZZ_SCALE=10 multiplies the scenarios to explore longer than the suite does.
"""
from __future__ import annotations

import collections
import datetime
import os
import random
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import FlakyStrategyDefinition

from app.api.openapi_links import LINKS
from tests.local.serving import call

REALISTIC = 0.8  # share of positive cases given what a link cannot carry
GROUP = ("groups.create_group",)
# Each run walks one part of the link graph (operationIds, scenarios, steps per scenario):
# with every operation in one machine, most steps went to roots that lead nowhere and few
# chains got three links deep. DELETE /users/me is in none: it would end the run's user
# (tests/account covers it).
RUNS = {
    "expenses": (GROUP + (
        "expenses.create_expense", "expenses.get_expense", "expenses.update_expense",
        "expenses.delete_expense", "expenses.get_expense_by_id", "expenses.list_expenses",
        "comments.list_comments", "comments.add_comment", "comments.edit_comment",
        "comments.delete_comment", "balances.get_balances", "export.export_group",
        "changes.list_changes", "changes.list_activity"), 2, 12),
    "money": (GROUP + (
        "groups.add_guest", "groups.list_participants", "groups.patch_participant",
        "groups.remove_participant", "groups.transfer_participant",
        "settlements.create_settlement", "settlements.list_settlements",
        "settlements.get_settlement", "settlements.update_settlement",
        "settlements.delete_settlement", "recurring.create_recurring", "recurring.list_recurring",
        "recurring.get_recurring", "recurring.update_recurring", "recurring.delete_recurring",
        "balances.create_conversion", "balances.list_conversions", "balances.get_conversion",
        "balances.delete_conversion", "insight.send_reminder"),
        3, 10),
    "membership": (GROUP + (
        "groups.get_group", "groups.patch_group", "groups.delete_group", "groups.leave_group",
        "invite.get_invite", "invite.patch_invite", "invite.rotate_invite",
        "invite.preview_invite", "join_requests.submit", "join_requests.list_pending",
        "join_requests.approve", "join_requests.deny", "join_requests.cancel", "people.invite",
        "people.group_invitations", "people.revoke", "people.accept", "people.decline",
        "notifications.mute", "notifications.unmute"), 3, 10),
    "account": ((
        "people.request_friend", "people.remove_friend", "notifications.register_device",
        "notifications.unregister_device", "developer.create_token", "developer.revoke_token",
        "oauth.register", "oauth.authorize"), 3, 4),
    # The chat assistant: a session, its messages (drafted by local mode's worker thread).
    "chat": ((
        "chat.create_session", "chat.get_session", "chat.post_message", "chat.list_sessions",
        "chat.confirm_draft"), 2, 6),
    # Receipts: an upload's row, its routes and the expense a confirm makes (no file reaches
    # the embedded S3 here, so complete fails the receipt and scan/confirm are refused: the
    # upload path itself is tests/receipts/test_receipts_serve.py).
    # Share links: a link, its session (the session token rides into claim) and its revoke.
    "links": (GROUP + (
        "groups.add_guest", "links.create_link", "links.list_links", "links.revoke_link",
        "links.open_link", "links.start_session", "links.claim"), 2, 6),
    "receipts": (GROUP + (
        "receipts.create_receipt", "receipts.complete_receipt", "receipts.get_receipt",
        "receipts.scan_receipt", "receipts.confirm_receipt", "receipts.detach_receipt",
        "expenses.get_expense", "expenses.delete_expense", "comments.list_comments",
        "comments.add_comment"), 2, 8),
}
# What only the other user can do: ask to join, cancel that, answer an invitation, leave (the
# first user owns every group alone, and a last owner cannot leave).
AS_OTHER_USER = {"join_requests.submit", "join_requests.cancel", "people.accept",
                 "people.decline", "groups.leave_group"}
# There a 404 can name what the body points at, not the linked resource: a wrong invite code
# (api.md: "bad code -> 404") or a user the caller may not see; and the other user rightly
# gets 404 from a group they are not in. Schemathesis's "created resource not found" check
# reads every 404 after a create as the created resource gone. (Per-operation
# [[operations]] settings could say so, but in schemathesis 4.32.5 any such entry makes it
# ignore schema.include(): the check is excluded per call instead.)
BODY_404 = {"join_requests.submit", "invite.preview_invite", "people.invite",
            "people.request_friend"}
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class Session:
    """One live server, its two signed-in users and its document, for every run."""

    def __init__(self, server):
        self.server = server
        self.token, _ = self.sign_in("stateful@example.com")
        self.other_token, self.other_user_id = self.sign_in("stateful-other@example.com")
        # Only a friend or a discoverable user can be invited.
        assert call("PUT", self.server.url + "/people/me/handle",
                    {"handle": "stateful_other", "discoverable": True}, self.other_token)[0] == 200
        config = schemathesis.Config.from_dict({
            "headers": {"Authorization": f"Bearer {self.token}"},
            # Only the document's own links: inferred ones would hide a missing link.
            "phases": {"stateful": {"inference": {"algorithms": []}}},
        })
        self.schema = schemathesis.openapi.from_url(self.server.url + "/openapi.json",
                                                    config=config)

    def sign_in(self, email):
        status, body = call("POST", self.server.url + "/dev/tokens",
                            {"email": email, "displayName": email.split("@")[0], "admin": True})
        assert status == 201, body
        return body["accessToken"], body["userId"]


@pytest.fixture(scope="module")
def session(served_app):
    # One address sends every request: the shared server lifts the per-IP window
    # (tests/support/served.py), which would answer most of the run 429.
    return Session(served_app)


def _operation_id(case):
    return case.operation.definition.raw["operationId"]


def _ids(value, found):
    """Every uuid a reply hands out, wherever it sits in the body."""
    if isinstance(value, dict):
        for item in value.values():
            _ids(item, found)
    elif isinstance(value, list):
        for item in value:
            _ids(item, found)
    elif isinstance(value, str) and UUID.match(value):
        found.add(value)


class World:
    """What the run has learnt from replies, across scenarios (the server keeps it all)."""

    def __init__(self, other_user_id):
        self.other_user_id = other_user_id
        self.handed_out: set = set()  # every id a reply named
        self.participants = collections.defaultdict(list)  # groupId -> participantIds
        self.expenses = collections.defaultdict(list)  # groupId -> expenseIds
        self.expense_groups: dict = {}  # expenseId -> groupId
        self.codes: dict = {}  # groupId -> invite code
        self.removed: list = []  # URIs (as segments) of what a reply removed or consumed
        self.linked = collections.defaultdict(collections.Counter)  # label -> statuses
        self.failures: list = []
        self.random = random.Random(20)

    def resource(self, operation_id, case):
        """The URI of what the case acts on, one spelling per resource."""
        path = case.path_parameters or {}
        if operation_id == "expenses.get_expense_by_id":
            group = self.expense_groups.get(path["expenseId"])
            return f"/groups/{group}/expenses/{path['expenseId']}"
        if operation_id in ("people.accept", "people.decline"):
            return f"/groups/{path['groupId']}/invitations/{self.other_user_id}"
        if operation_id in ("notifications.mute", "notifications.unmute"):
            return f"/groups/{path['groupId']}/mute"
        return case.formatted_path

    def removed_before(self, operation_id, case) -> bool:
        """Whether an earlier reply removed what this case acts on (or something it is under)."""
        segments = self.resource(operation_id, case).split("/")
        return any(segments[:len(gone)] == gone for gone in self.removed)

    def learn(self, operation_id, case, status, body):
        if status >= 300:
            return
        path = case.path_parameters or {}
        # Removed by a DELETE, or consumed by an action: schemathesis's "created resource not
        # found" check only knows a DELETE of the same URI or one above it.
        if case.method.upper() == "DELETE":
            self.removed.append(self.resource(operation_id, case).split("/"))
        elif operation_id in ("people.accept", "people.decline"):
            self.removed.append(self.resource(operation_id, case).split("/"))
        elif operation_id in ("join_requests.approve", "join_requests.deny",
                              "groups.transfer_participant"):
            self.removed.append(case.formatted_path.split("/")[:-1])
        if not isinstance(body, dict):
            return
        _ids(body, self.handed_out)
        group = path.get("groupId") or body.get("groupId")
        if operation_id == "groups.create_group":
            self.participants[group].append(body["myParticipantId"])
        elif operation_id == "groups.add_guest":
            self.participants[group].append(body["participantId"])
        elif operation_id == "groups.list_participants":
            self.participants[group] = [item["participantId"] for item in body["items"]]
        elif operation_id == "expenses.create_expense":
            self.expenses[group].append(body["expenseId"])
            self.expense_groups[body["expenseId"]] = group
        elif operation_id in ("invite.get_invite", "invite.patch_invite", "invite.rotate_invite"):
            if body["enabled"]:
                self.codes[group] = body["code"]
            else:
                self.codes.pop(group, None)

    def _realistic(self, case) -> bool:
        negative = case.meta is not None and case.meta.generation.mode.is_negative
        # A negative case stays as generated: made valid, it would rightly be accepted.
        return not negative and self.random.random() < REALISTIC

    def _live(self, uri) -> bool:
        segments = uri.split("/")
        return not any(segments[:len(gone)] == gone for gone in self.removed)

    def fill_in_path(self, case):
        """A scenario's first step names a group (and expense) an earlier one created."""
        path = case.path_parameters or {}
        if "groupId" not in path or not self._realistic(case):
            return
        groups = [group for group in self.participants if self._live(f"/groups/{group}")]
        if not groups:
            return
        path["groupId"] = self.random.choice(groups)
        if "expenseId" in path:
            expenses = [expense for expense in self.expenses[path["groupId"]]
                        if self._live(f"/groups/{path['groupId']}/expenses/{expense}")]
            if expenses:
                path["expenseId"] = self.random.choice(expenses)

    def fill_in_body(self, operation_id, case):
        """Give a generated body what a link cannot carry."""
        body = case.body
        if not isinstance(body, dict) or not self._realistic(case):
            return
        path = case.path_parameters or {}
        people = self.participants.get(path.get("groupId"), [])
        if operation_id in ("expenses.create_expense", "recurring.create_recurring") and people:
            amount = body.get("amount")
            total = amount if isinstance(amount, int) and 0 < amount <= 10**9 else 1000
            body.pop("items", None)
            body.update(payments=[{"participantId": people[0], "amount": total}], amount=total,
                        splitMode="EQUAL", splits=[{"participantId": p} for p in people[:3]])
            if operation_id == "recurring.create_recurring":
                body["startDate"] = datetime.date.today().isoformat()
                body.pop("endDate", None)
                body.pop("timeZone", None)
        elif operation_id == "settlements.create_settlement" and len(people) > 1:
            body.update(payerId=people[0], payeeId=people[1])
        elif operation_id == "insight.send_reminder" and people:
            body["participantId"] = people[-1]
        elif operation_id == "groups.transfer_participant":
            others = [p for p in people if p != path.get("participantId")]
            if others:
                body["targetParticipantId"] = others[-1]
        elif operation_id in ("people.invite", "people.request_friend"):
            body["userId"] = self.other_user_id
            body.pop("participantId", None)
        elif operation_id == "invite.patch_invite":
            body["enabled"] = True  # a disabled invite admits no join request
        elif operation_id == "join_requests.submit" and path.get("groupId") in self.codes:
            body.update(code=self.codes[path["groupId"]], mode="NEW")
            body.pop("targetParticipantId", None)

    def fill_in_query(self, operation_id, case):
        if (operation_id == "invite.preview_invite" and isinstance(case.query, dict)
                and (case.path_parameters or {}).get("groupId") in self.codes
                and self._realistic(case)):
            case.query["code"] = self.codes[case.path_parameters["groupId"]]


def workflow(session, operations):
    """A state machine over ``operations`` and the World it learns into."""
    world = World(session.other_user_id)
    other = {"headers": {"Authorization": f"Bearer {session.other_token}"}}
    schema = session.schema.include(operation_id=sorted(operations))

    class Workflow(schema.as_state_machine()):
        def step(self, input):
            self.linked = input.transition is not None and input.is_applied
            if input.transition is None:
                world.fill_in_path(input.case)
            return super().step(input)

        def before_call(self, case):
            world.fill_in_body(_operation_id(case), case)
            world.fill_in_query(_operation_id(case), case)

        def get_call_kwargs(self, case):
            return other if _operation_id(case) in AS_OTHER_USER else {}

        def after_call(self, response, case):
            super().after_call(response, case)
            ids = set((case.path_parameters or {}).values())
            if self.linked and ids <= world.handed_out:
                world.linked[case.operation.label][response.status_code] += 1
            try:
                body = response.json()
            except ValueError:
                body = None
            world.learn(_operation_id(case), case, response.status_code, body)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # Ids that must name existing rows and signed cursors cannot be said in a
            # schema: a schema-valid request may rightly be refused.
            excluded = [schemathesis.checks.positive_data_acceptance]
            operation_id = _operation_id(case)
            if operation_id in BODY_404 | AS_OTHER_USER or (
                    response.status_code == 404 and world.removed_before(operation_id, case)):
                excluded.append(schemathesis.checks.ensure_resource_availability)
            try:
                case.validate_response(response, additional_checks=additional_checks,
                                       excluded_checks=excluded, transport_kwargs=kwargs or None,
                                       recorder=self.recorder)
            except Exception as failure:
                world.failures.append(failure)
                raise

    return Workflow, world


def test_every_linked_operation_is_in_a_run():
    linked = set(LINKS).union(*LINKS.values())
    assert linked <= set().union(*(operations for operations, _, _ in RUNS.values()))


@pytest.mark.parametrize("run", list(RUNS))
def test_stateful_run_finds_no_server_error_and_no_schema_violation(session, run):
    operations, scenarios, steps = RUNS[run]
    machine, world = workflow(session, set(operations))
    try:
        machine.run(settings=settings(
            max_examples=scenarios * int(os.environ.get("STATEFUL_FUZZ_SCALE", "1")),
            stateful_step_count=steps, deadline=None, database=None, phases=[Phase.generate],
            suppress_health_check=list(HealthCheck)))
    except FlakyStrategyDefinition:
        # A scenario replayed a prefix after the server's state had moved on, so other steps
        # were possible: schemathesis's own runner ends the phase there too. Every failure
        # seen until then is in world.failures.
        pass
    assert not world.failures, world.failures[0]
    # Which operations got a real id from a link varies from run to run (a short run may get
    # none): tests/contract/test_openapi_links.py is what fails when a link stops resolving.
    print(f"\n{run}: {len(world.linked)} operations reached with ids from links:",
          {label: dict(statuses) for label, statuses in world.linked.items()})
