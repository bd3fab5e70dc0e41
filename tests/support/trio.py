"""A signed-in user's group with two guests, Ann and Bo, made through the API: the group the
chat and receipts tests work in (each adds its own calls on top)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Trio:
    client: object
    headers: dict
    user_id: str
    group_id: str
    me: str
    ann: str
    bo: str

    @classmethod
    def signed_in(cls, client, sign_in, email: str, display_name: str):
        """``email`` signs in as ``display_name`` and makes the EUR group "Trip" with Ann and
        Bo as guests."""
        headers, user_id = sign_in(email, display_name=display_name)
        group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                            headers=headers).get_json()
        ids = []
        for name in ("Ann", "Bo"):
            reply = client.post(f"/groups/{group['groupId']}/participants",
                                json={"displayName": name}, headers=headers)
            assert reply.status_code == 201, reply.get_json()
            ids.append(reply.get_json()["participantId"])
        return cls(client, headers, user_id, group["groupId"], group["myParticipantId"], *ids)
