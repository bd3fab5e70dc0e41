"""Any OpenAI-compatible chat-completions endpoint (``POST {base}/chat/completions``) with a
function tool: a hosted one, or a model the user serves on their own machine."""
from __future__ import annotations

import urllib3

from app.chat.drafters import tool
from app.chat.drafters.base import Context, DrafterError, Proposal
from app.core import chat_completion


class OpenAICompatibleDrafter:
    def __init__(self, *, base_url: str, api_key: str, model: str, timeout: float) -> None:
        self.base_url, self.api_key, self.model, self.timeout = base_url, api_key, model, timeout
        self.http = urllib3.PoolManager(retries=False)

    def draft(self, context: Context) -> Proposal:
        body = chat_completion.forced_tool(
            self.model, [{"role": "system", "content": tool.SYSTEM},
                         {"role": "user", "content": tool.user_turn(context)}],
            name=tool.NAME, description=tool.DESCRIPTION, parameters=tool.SCHEMA)
        message = chat_completion.message(self.base_url, body, api_key=self.api_key,
                                          timeout=self.timeout, error=DrafterError,
                                          http=self.http)
        function = chat_completion.tool_call(message, tool.NAME)
        if function is not None:
            return tool.proposal_of(function.get("arguments"), context)
        text = (message.get("content") or "").strip()
        if not text:
            raise DrafterError("MALFORMED", "no tool call and no text")
        return Proposal(reply=text, questions=[text])
