"""SES v2 sending and the bounce/complaint handler, against botocore's Stubber (the calls and
parameters the real API validates)."""
from __future__ import annotations

import json

import boto3
import pytest
from botocore.stub import ANY, Stubber

from app.notifications import feedback, mail, ses
from tests.support.lambda_context import lambda_context
from tests.support.settings import installed


@pytest.fixture
def stubbed():
    client = boto3.client("sesv2", region_name="us-east-1", aws_access_key_id="x",
                          aws_secret_access_key="x")
    previous = ses._client.get("sesv2"), feedback._client.get("sesv2")
    ses.use(client)
    feedback.use(client)
    with Stubber(client) as stub:
        yield stub
        stub.assert_no_pending_responses()
    for module, before in zip((ses, feedback), previous, strict=True):
        module._client.pop("sesv2", None)
        if before is not None:
            module.use(before)


def _mail() -> mail.Mail:
    return mail.compose(to="bob@example.com", user_id="u-bob", event_type="EXPENSE_ADDED",
                        title="New expense in Trip", body="Olive added \u201cDinner\u201d.",
                        locale="en")


def test_a_notification_goes_raw_through_the_configuration_set(stubbed):
    stubbed.add_response("send_email", {"MessageId": "m-1"}, {
        "FromEmailAddress": "TailSpend <no-reply@mail.tailspend.app>",
        "Destination": {"ToAddresses": ["bob@example.com"]},
        "Content": {"Raw": {"Data": ANY}}, "ConfigurationSetName": "tailspend-prod"})
    with installed(smtp_url=None, ses_configuration_set="tailspend-prod",
                   mail_from="TailSpend <no-reply@mail.tailspend.app>",
                   serving_origin="https://tailspend.app"):
        assert mail.send(_mail()) is True


def test_an_ses_refusal_is_logged_not_raised(stubbed):
    stubbed.add_client_error("send_email", "MessageRejected", "Email address is not verified.")
    with installed(smtp_url=None, ses_configuration_set="tailspend-prod"):
        assert mail.send(_mail()) is False


def test_without_a_transport_nothing_is_sent(stubbed):
    with installed(smtp_url=None, ses_configuration_set=None):
        assert mail.enabled() is False and mail.send(_mail()) is False


def _sns(message: dict) -> dict:
    return {"EventSource": "aws:sns", "Sns": {"Message": json.dumps(message)}}


def test_permanent_bounces_and_complaints_suppress_the_address(stubbed):
    stubbed.add_response("put_suppressed_destination", {},
                         {"EmailAddress": "gone@example.com", "Reason": "BOUNCE"})
    stubbed.add_response("put_suppressed_destination", {},
                         {"EmailAddress": "angry@example.com", "Reason": "COMPLAINT"})
    from app.handlers import mail_feedback

    event = {"Records": [
        _sns({"eventType": "Bounce", "bounce": {"bounceType": "Permanent", "bouncedRecipients": [
            {"emailAddress": "gone@example.com"}]}}),
        _sns({"eventType": "Bounce", "bounce": {"bounceType": "Transient", "bouncedRecipients": [
            {"emailAddress": "full@example.com"}]}}),
        _sns({"notificationType": "Complaint", "complaint": {"complainedRecipients": [
            {"emailAddress": "angry@example.com"}]}}),
        _sns({"eventType": "Delivery"}),
        {"Sns": {"Message": "not json"}}]}
    assert mail_feedback.lambda_handler(event, lambda_context()) == {"suppressed": 2}


def test_suppressions_reads_nothing_from_other_events():
    assert feedback.suppressions({"eventType": "Send"}) == []
    assert feedback.suppressions({"eventType": "Bounce", "bounce": {}}) == []
