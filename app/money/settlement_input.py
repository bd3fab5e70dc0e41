"""SettlementInput: what any door hands the ledger to record or edit a settlement.

The REST schemas load straight into it (app.ledger.schemas; camelCase only there, through
marshmallow's data_key), MCP's record_settlement and settle_up build it, and
app.ledger.settlements takes it. Amounts are integer minor units of ``currency``
(``group_amount`` in the group's). ``sent`` names the fields a body carried, so an edit can
tell "cleared" (sent as null) from "not sent"; the service judges every value."""
from __future__ import annotations

from typing import Any, FrozenSet, NamedTuple, Optional


class SettlementInput(NamedTuple):
    """One settlement's body as a door received it, typed; see the module docstring."""

    payer_id: Optional[str] = None
    payee_id: Optional[str] = None
    amount: Any = None
    date: Optional[str] = None
    note: Optional[str] = None
    currency: Optional[str] = None
    exchange_rate: Optional[str] = None
    group_amount: Any = None
    sent: FrozenSet[str] = frozenset()

    @classmethod
    def of(cls, **fields: Any) -> "SettlementInput":
        """An input carrying exactly ``fields`` (None: sent as null)."""
        return cls(**fields, sent=frozenset(fields))

    def sent_or(self, name: str, default: Any) -> Any:
        """The value sent for ``name``, else ``default`` (an edit keeps what it did not send)."""
        return getattr(self, name) if name in self.sent else default
