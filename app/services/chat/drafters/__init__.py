"""Drafters: turn one chat message (and the session's open draft) into a proposal.

One interface (:class:`Drafter`), chosen by configuration (:func:`make_drafter`): Amazon
Bedrock's Converse API with tool use, any OpenAI-compatible chat-completions endpoint, or the
offline rule-based drafter (the local default and the test double). Whatever a drafter
proposes is only a proposal: app.services.chat.proposals validates it exactly as a REST
create would before anyone sees it."""
from __future__ import annotations

from app.services.chat.drafters.base import (Context, Drafter, DrafterError, GroupContext,
                                             Proposal)

__all__ = ["Context", "Drafter", "DrafterError", "GroupContext", "Proposal", "make_drafter"]


def make_drafter(settings) -> Drafter:
    """The drafter ``settings.chat_drafter`` names (``rules``, ``bedrock`` or ``openai``)."""
    if settings.chat_drafter == "bedrock":
        from app.services.chat.drafters.bedrock import BedrockDrafter

        return BedrockDrafter(model_id=settings.chat_bedrock_model_id,
                              region=settings.chat_bedrock_region or settings.region,
                              timeout=settings.chat_drafter_timeout)
    if settings.chat_drafter == "openai":
        from app.services.chat.drafters.openai_compat import OpenAICompatibleDrafter

        return OpenAICompatibleDrafter(base_url=settings.chat_openai_base_url,
                                       api_key=settings.chat_openai_api_key,
                                       model=settings.chat_openai_model,
                                       timeout=settings.chat_drafter_timeout)
    from app.services.chat.drafters.rules import RuleDrafter

    return RuleDrafter()
