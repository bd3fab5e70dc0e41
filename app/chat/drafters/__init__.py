"""Drafters: turn one chat message (and the session's open draft) into a proposal.

One interface (:class:`Drafter`), chosen by configuration (app.chat.drafting.make_drafter; kept out of this package so the
API, which only validates drafts, loads none of the providers): Amazon
Bedrock's Converse API with tool use, any OpenAI-compatible chat-completions endpoint, or the
offline rule-based drafter (the local default and the test double). Whatever a drafter
proposes is only a proposal: app.chat.proposals validates it exactly as a REST
create would before anyone sees it."""
from __future__ import annotations

