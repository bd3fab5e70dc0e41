"""A local OpenAI-compatible chat-completions endpoint (a real HTTP server on 127.0.0.1):
what the chat drafter's and the receipt vision engine's tests talk to.

Each POST is recorded (``requests``: path, headers, JSON body) and answered with the next
queued ``(status, body, delay)``: a body that is bytes is sent as is (a malformed reply),
anything else as JSON, after ``delay`` seconds (a slow endpoint, for the timeout cases)."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional


def completion(message: dict, finish: str = "tool_calls", model: str = "local") -> dict:
    """A chat.completion reply whose one choice is ``message`` (an assistant turn)."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", **message},
                         "finish_reason": finish}]}


def tool_call(name: str, arguments: Any) -> dict:
    """An assistant turn calling the function ``name``; ``arguments`` that are not a string
    are sent as their JSON text (as the API does)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"content": None, "tool_calls": [{"id": "call_1", "type": "function",
                                             "function": {"name": name, "arguments": text}}]}


class FakeOpenAI:
    """The endpoint; ``url`` is its base (``.../v1``), as a client's settings name it."""

    def __init__(self) -> None:
        self.requests: list = []
        self.answers: list = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                owner.requests.append({"path": self.path, "headers": dict(self.headers),
                                       "body": json.loads(body)})
                status, answer, delay = owner.answers.pop(0)
                time.sleep(delay)
                data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client timed out and hung up (the timeout cases)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def answer(self, body: Any, *, status: int = 200, delay: float = 0.0) -> None:
        """Queue the reply to the next request."""
        self.answers.append((status, body, delay))

    @property
    def last(self) -> Optional[dict]:
        return self.requests[-1] if self.requests else None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
