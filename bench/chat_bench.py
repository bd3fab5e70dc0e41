"""DynamoDB calls per admitted chat message, per drafted message (the worker) and per
confirm, and the consumed capacity the chat clients log for each (moto's estimate of it:
real DynamoDB reports its own numbers in the same log line, ``chat.capacity``).

Run: .venv/bin/python bench/chat_bench.py"""
from __future__ import annotations

import contextlib

from support import bench_app, count_dynamodb_calls


@contextlib.contextmanager
def captured_capacity():
    """The ``chat.capacity`` lines the block logs (what CloudWatch would receive)."""
    from app.logs import logger

    lines: list = []
    original = logger.info

    def keep(message, *args, **kwargs):
        if message == "chat.capacity":
            lines.append(kwargs.get("extra", {}))
        return original(message, *args, **kwargs)

    logger.info = keep
    try:
        yield lines
    finally:
        logger.info = original


def main() -> None:
    from app.config import Settings
    from app.chat import drafting
    from app.core import handoff

    settings = Settings()
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        group = client.post("/groups", headers=headers,
                            json={"name": "Bench", "currency": "EUR"}).get_json()
        for name in ("Ann", "Bo"):
            client.post(f"/groups/{group['groupId']}/participants", headers=headers,
                        json={"displayName": name})
        sid = client.post("/chat/sessions", headers=headers,
                          json={"groupId": group["groupId"]}).get_json()["sessionId"]
        queued: list = []
        handoff.use_local_runner("chat", queued.append)
        rows = []
        for round_ in range(2):
            with count_dynamodb_calls() as calls, captured_capacity() as logged:
                reply = client.post(f"/chat/sessions/{sid}/messages", headers=headers,
                                    json={"text": f"I paid {40 + round_}.50 for dinner with "
                                                  "Ann and Bo"})
            assert reply.status_code == 202, reply.get_json()
            rows.append((f"admit message {round_ + 1} (POST …/messages)", str(calls), logged[-1]))
            with count_dynamodb_calls() as calls, captured_capacity() as logged:
                drafting.process(queued.pop(), settings)
            rows.append((f"draft message {round_ + 1} (worker)", str(calls), logged[-1]))
        draft = client.get(f"/chat/sessions/{sid}", headers=headers).get_json()["drafts"][0]
        with count_dynamodb_calls() as calls, captured_capacity() as logged:
            reply = client.post(f"/chat/sessions/{sid}/drafts/{draft['draftId']}/confirm",
                                headers=headers, json={"version": draft["version"]})
        assert reply.status_code == 201, reply.get_json()
        rows.append(("confirm (POST …/confirm)", str(calls), logged[-1]))
        handoff.use_local_runner("chat", None)
    for label, calls, capacity in rows:
        print(f"{label:42} calls {calls}")
        if capacity:
            print(f"{'':42} logged: {capacity['calls']} calls, {capacity['readUnits']} RCU, "
                  f"{capacity['writeUnits']} WCU")


if __name__ == "__main__":
    main()
