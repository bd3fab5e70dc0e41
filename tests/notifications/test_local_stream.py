"""Local mode: the stream poller reads the embedded endpoint's stream into the same handler."""
from __future__ import annotations

# Imported before any fixture points the models somewhere: its bootstrap() reads the env.
from app.handlers import notifications
from app.local.stream_poller import StreamPoller
from app.groups.join_requests import submit_join_request
from models.groups import Invite
from models.notifications import Notification, NotificationItem
from tests.ledger.helpers import make_group, make_user


def test_a_change_reaches_history_through_the_embedded_stream(live_db, recorder):
    owner = make_user("owner@example.com", "Owner")
    access, _ = make_group(owner)
    code = Invite.get(*Invite.key(access.group_id)).Code
    applicant = make_user("ann@example.com", "Ann")
    fed = []

    def handler(event, context):
        fed.extend(event["Records"])
        return notifications.lambda_handler(event, context)

    poller = StreamPoller(live_db, NotificationItem.Meta.table_name, handler)
    dynamodb, streams = poller._clients()
    arn = dynamodb.describe_table(TableName=poller.table_name)["Table"]["LatestStreamArn"]
    iterators: dict = {}
    poller.poll_once(iterators, streams, arn)  # nothing yet (group rows live in another table)
    submit_join_request(applicant, access.group_id, code=code, mode="NEW")
    assert poller.poll_once(iterators, streams, arn) == 1
    assert [r["dynamodb"]["NewImage"]["Type"]["S"] for r in fed] == ["JOIN_REQUEST_SUBMITTED"]
    rows = list(Notification.history(owner))
    assert [(row.Type, row.Body) for row in rows] == [
        ("JOIN_REQUEST_SUBMITTED", "Ann asked to join Trip.")]
    # The history row and the dispatch mark are stream records too, but the filter drops them.
    assert poller.poll_once(iterators, streams, arn) == 0
    assert len(list(Notification.history(owner))) == 1
