"""Any OpenAI-compatible chat-completions endpoint (``POST {base}/chat/completions``) with a
function tool: a hosted one, or a model the user serves on their own machine."""
from __future__ import annotations

import json

import urllib3

from app.services.chat.drafters import tool
from app.services.chat.drafters.base import Context, DrafterError, Proposal


class OpenAICompatibleDrafter:
    def __init__(self, *, base_url: str, api_key: str, model: str, timeout: float) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key, self.model, self.timeout = api_key, model, timeout
        self.http = urllib3.PoolManager(retries=False)

    def draft(self, context: Context) -> Proposal:
        body = {"model": self.model, "temperature": 0,
                "messages": [{"role": "system", "content": tool.SYSTEM},
                             {"role": "user", "content": tool.user_turn(context)}],
                "tools": [{"type": "function", "function": {
                    "name": tool.NAME, "description": tool.DESCRIPTION,
                    "parameters": tool.SCHEMA}}],
                "tool_choice": {"type": "function", "function": {"name": tool.NAME}}}
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            reply = self.http.request("POST", self.url, body=json.dumps(body).encode(),
                                      headers=headers,
                                      timeout=urllib3.Timeout(total=self.timeout))
        except urllib3.exceptions.TimeoutError:
            raise DrafterError("TIMEOUT") from None
        except urllib3.exceptions.HTTPError:
            raise DrafterError("UNAVAILABLE") from None
        if reply.status != 200:
            raise DrafterError("UNAVAILABLE", f"HTTP {reply.status}")
        try:
            message = json.loads(reply.data)["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise DrafterError("MALFORMED", "not a chat completion") from None
        if message.get("refusal"):
            raise DrafterError("REFUSED")
        for call in message.get("tool_calls") or []:
            function = (call or {}).get("function") or {}
            if function.get("name") == tool.NAME:
                return tool.proposal_of(function.get("arguments"), context)
        text = (message.get("content") or "").strip()
        if not text:
            raise DrafterError("MALFORMED", "no tool call and no text")
        return Proposal(reply=text, questions=[text])
