"""The import's balance check reads back exactly the rows its run wrote (issue 31 section 2):
strongly consistent BatchGetItem calls of at most 100 keys naming the written expenses,
settlements and BALANCE#v1, no Query over the group's expenses or settlements; keys that
come back unprocessed are sent again, and a written row that does not come back fails the
import."""
from __future__ import annotations

from contextlib import contextmanager

from models.groups import GroupItem
from models.pynamodb_adapter import table_connection

ROWS = 130  # two BatchGetItem calls' worth with BALANCE#v1


def _splitwise_file(rows: int) -> str:
    lines = ["Date,Description,Category,Cost,Currency,Ana,Bo", ""]
    for index in range(rows):
        if index % 10 == 9:
            lines.append(f"2026-03-{index % 28 + 1:02d},Bo paid Ana,Payment,1.00,EUR,-1.00,1.00")
        else:
            lines.append(f"2026-03-{index % 28 + 1:02d},Row {index},General,2.00,EUR,1.00,-1.00")
    return "\r\n".join(lines) + "\r\n"


@contextmanager
def batch_gets(tamper=None):
    """Every BatchGetItem's request (its keys and ConsistentRead) and, through ``tamper``,
    its reply: botocore's own provide-client-params and after-call events on the table's
    client, so everything of ours runs unchanged."""
    events = table_connection(GroupItem).connection.client.meta.events
    sent, queries = [], []

    def record(params, **_):
        for table in params.get("RequestItems", {}).values():
            sent.append(({(k["GroupId"]["S"], k["SK"]["S"]) for k in table["Keys"]},
                         table.get("ConsistentRead"), len(table["Keys"])))

    def query(params, **_):
        queries.append(params)

    def after(parsed, **_):
        if tamper is not None:
            tamper(len(sent), parsed)

    events.register("provide-client-params.dynamodb.BatchGetItem", record, unique_id="rb-keys")
    events.register("provide-client-params.dynamodb.Query", query, unique_id="rb-query")
    events.register("after-call.dynamodb.BatchGetItem", after, unique_id="rb-reply")
    try:
        yield sent, queries
    finally:
        events.unregister("provide-client-params.dynamodb.BatchGetItem", unique_id="rb-keys")
        events.unregister("provide-client-params.dynamodb.Query", unique_id="rb-query")
        events.unregister("after-call.dynamodb.BatchGetItem", unique_id="rb-reply")


def _money_rows(group_id: str) -> set:
    return {(gid, sk) for page in GroupItem.raw_pages(group_id, keys_only=True)
            for gid, sk in page if sk.startswith(("EXPENSE#", "SETTLEMENT#"))}


def _check_calls(sent: list, group_id: str) -> list:
    """The BatchGetItem calls that read the group's money rows back."""
    return [call for call in sent
            if any(gid == group_id and sk != "META" for gid, sk in call[0])]


def _values(query: dict) -> list:
    return [v.get("S", "") for v in query.get("ExpressionAttributeValues", {}).values()]


def test_the_check_reads_back_exactly_the_written_keys_consistently(importer):
    unprocessed: set = set()

    def first_call_throttles_half(call: int, parsed: dict) -> None:
        responses = parsed.get("Responses") or {}
        if unprocessed or not any(len(items) > 50 for items in responses.values()):
            return
        table, items = next(iter(responses.items()))
        kept, dropped = items[:len(items) // 2], items[len(items) // 2:]
        responses[table] = kept
        unprocessed.update({(i["GroupId"]["S"], i["SK"]["S"]) for i in dropped})
        parsed["UnprocessedKeys"] = {table: {"Keys": [
            {"GroupId": i["GroupId"], "SK": i["SK"]} for i in dropped], "ConsistentRead": True}}

    with batch_gets(first_call_throttles_half) as (sent, queries):
        status = importer.run("splitwise-csv", _splitwise_file(ROWS), me="Ana")
    assert status["status"] == "DONE", status
    assert status["counts"]["expenses"] + status["counts"]["settlements"] == ROWS
    group_id = status["groupId"]
    written = _money_rows(group_id)
    assert len(written) == ROWS
    calls = _check_calls(sent, group_id)
    read = set().union(*(keys for keys, _, _ in calls))
    assert read == written | {(group_id, "BALANCE#v1")}
    assert all(consistent is True and count <= 100 for _, consistent, count in calls)
    # The unprocessed half was asked for again, in a call of its own.
    assert unprocessed and any(keys == unprocessed for keys, _, _ in calls)
    # No Query walked the group's expenses or settlements.
    assert not [q for q in queries if any(v.startswith(("EXPENSE#", "SETTLEMENT#"))
                                          for v in _values(q))]
    assert importer.nets(group_id) == {"Ana": 117 * 100 - 13 * 100, "Bo": -(117 - 13) * 100}


def test_a_written_row_that_does_not_come_back_fails_the_import(importer):
    lost = []

    def lose_one_expense(call: int, parsed: dict) -> None:
        for items in (parsed.get("Responses") or {}).values():
            for item in items:
                if not lost and item["SK"]["S"].startswith("EXPENSE#"):
                    lost.append(item["SK"]["S"])
                    items.remove(item)
                    return

    with batch_gets(lose_one_expense):
        status = importer.run("splitwise-csv", _splitwise_file(12), me="Ana")
    assert lost
    assert status["status"] == "FAILED"
    assert status["error"]["message"].startswith("The imported balances do not equal")
