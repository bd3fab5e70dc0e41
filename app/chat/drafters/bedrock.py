"""Amazon Bedrock's Converse API with tool use (boto3 ``bedrock-runtime``, ``converse``)."""
from __future__ import annotations

from app.chat.drafters import tool
from app.chat.drafters.base import Context, DrafterError, Proposal

REFUSALS = {"guardrail_intervened", "content_filtered"}


class BedrockDrafter:
    def __init__(self, *, model_id: str, region: str, timeout: float, client=None) -> None:
        self.model_id = model_id
        if client is None:
            import boto3
            from botocore.config import Config

            client = boto3.client("bedrock-runtime", region_name=region, config=Config(
                read_timeout=timeout, connect_timeout=min(timeout, 5),
                retries={"max_attempts": 1}))
        self.client = client

    def draft(self, context: Context) -> Proposal:
        from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

        try:
            reply = self.client.converse(
                modelId=self.model_id,
                system=[{"text": tool.SYSTEM}],
                messages=[{"role": "user", "content": [{"text": tool.user_turn(context)}]}],
                toolConfig={"tools": [{"toolSpec": {"name": tool.NAME,
                                                    "description": tool.DESCRIPTION,
                                                    "inputSchema": {"json": tool.SCHEMA}}}],
                            "toolChoice": {"tool": {"name": tool.NAME}}},
                inferenceConfig={"maxTokens": 800, "temperature": 0})
        except ReadTimeoutError:
            raise DrafterError("TIMEOUT") from None
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            raise DrafterError("TIMEOUT" if "Timeout" in code else "UNAVAILABLE") from None
        except BotoCoreError:
            raise DrafterError("UNAVAILABLE") from None
        if reply.get("stopReason") in REFUSALS:
            raise DrafterError("REFUSED")
        content = ((reply.get("output") or {}).get("message") or {}).get("content") or []
        for block in content:
            use = block.get("toolUse") if isinstance(block, dict) else None
            if use and use.get("name") == tool.NAME:
                return tool.proposal_of(use.get("input"), context)
        text = " ".join(b.get("text", "") for b in content if isinstance(b, dict)).strip()
        if not text:
            raise DrafterError("MALFORMED", "no tool use and no text")
        return Proposal(reply=text, questions=[text])
