"""Receipts reach credits and the ledger without passing through chat (issue 43, item 3)."""
from __future__ import annotations

from tests.platform.test_architecture import GRAPH


def _reachable(start: str) -> set:
    """Every project module ``start`` imports, directly or through others; ``from app import
    x`` names the package ``app`` too, which is not a way into x's neighbours."""
    seen, todo = set(), [start]
    while todo:
        for dep in GRAPH[todo.pop()] - seen:
            if not start.startswith(dep + "."):
                seen.add(dep)
                todo.append(dep)
    return seen


def _area_modules(area: str) -> list:
    return sorted(n for n in GRAPH if n == f"app.{area}" or n.startswith(f"app.{area}."))


def test_no_receipts_module_reaches_chat_even_indirectly():
    reached = {name: sorted(m for m in _reachable(name) if m.startswith("app.chat"))
               for name in _area_modules("receipts")}
    assert {name: chat for name, chat in reached.items() if chat} == {}


def test_credits_is_its_own_area_that_chat_and_receipts_both_use():
    credits = set(_area_modules("credits"))
    assert "app.credits.service" in credits and "app.credits.errors" in credits
    assert not {m for name in credits for m in _reachable(name)
                if m.startswith(("app.chat", "app.receipts"))}
    for user in ("app.chat.admission", "app.receipts.scanning"):
        assert "app.credits.service" in GRAPH[user], user
