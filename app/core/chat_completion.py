"""One call of an OpenAI-compatible chat-completions endpoint (``POST {base}/chat/completions``)
forcing one function tool: what the chat drafter (app.chat.drafters.openai_compat)
and the receipt vision engine (app.receipts.scan.engines.vision) both send.

Every failure is raised as the caller's own error class, ``error(code, detail)``, with a
code the caller logs and stores (never the model's text): TIMEOUT, UNAVAILABLE (no answer,
or not HTTP 200), MALFORMED (not a chat completion), REFUSED (the model's refusal)."""
from __future__ import annotations

import json
from typing import Callable, List, Optional

import urllib3

ErrorClass = Callable[..., Exception]


def forced_tool(model: str, messages: List[dict], *, name: str, description: str,
                parameters: dict) -> dict:
    """A request body offering one function tool and requiring the model to call it."""
    return {"model": model, "temperature": 0, "messages": messages,
            "tools": [{"type": "function", "function": {
                "name": name, "description": description, "parameters": parameters}}],
            "tool_choice": {"type": "function", "function": {"name": name}}}


def message(base_url: str, body: dict, *, api_key: Optional[str], timeout: float,
            error: ErrorClass, http: Optional[urllib3.PoolManager] = None) -> dict:
    """POST ``body`` to ``{base_url}/chat/completions``: the reply's ``choices[0].message``
    (a dict), or ``error`` (see the module docstring). No retries: the caller's request is
    waiting, and its timeout bounds the whole call."""
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    try:
        reply = (http or urllib3.PoolManager(retries=False)).request(
            "POST", base_url.rstrip("/") + "/chat/completions", body=json.dumps(body).encode(),
            headers=headers, timeout=urllib3.Timeout(total=timeout))
    except urllib3.exceptions.TimeoutError:
        raise error("TIMEOUT") from None
    except urllib3.exceptions.HTTPError:
        raise error("UNAVAILABLE") from None
    if reply.status != 200:
        raise error("UNAVAILABLE", f"HTTP {reply.status}")
    try:
        answer = json.loads(reply.data)["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise error("MALFORMED", "not a chat completion") from None
    if not isinstance(answer, dict):
        raise error("MALFORMED", "not a chat completion")
    if answer.get("refusal"):
        raise error("REFUSED")
    return answer


def tool_call(answer: dict, name: str) -> Optional[dict]:
    """The answer's first call of the function ``name`` (``{"name", "arguments"}``, the
    arguments as sent: a JSON string, usually), or None when it called no such function."""
    for call in answer.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and function.get("name") == name:
            return function
    return None
