"""GET /users/me is one DynamoDB call (issue 33): the request's strongly consistent liveness
read of the profile is the profile the view returns. A deletion mark is still seen at once,
and nothing one request read is reused by the next."""
from __future__ import annotations

from app.account import steps
from models.users import Profile
from tests.support import aws_calls


def test_me_is_the_liveness_read(client, sign_in):
    headers, user = sign_in("solo@example.com", display_name="Solo")
    client.get("/users/me", headers=headers)  # the identity is cached from here
    with aws_calls.recorded() as made:
        reply = client.get("/users/me", headers=headers)
    assert reply.status_code == 200 and reply.get_json()["displayName"] == "Solo"
    assert made == ["GetItem"]


def test_a_rename_and_a_mark_are_seen_by_the_next_request(client, sign_in):
    headers, user = sign_in("next@example.com", display_name="Before")
    assert client.get("/users/me", headers=headers).get_json()["displayName"] == "Before"
    assert client.patch("/users/me", json={"displayName": "After"},
                        headers=headers).status_code == 200
    assert client.get("/users/me", headers=headers).get_json()["displayName"] == "After"
    steps.mark(Profile.get(*Profile.key(user)))
    assert client.get("/users/me", headers=headers).status_code == 401
