"""A money rule's refusal that keeps the amounts it quotes as numbers, and their currency.

The ledger refuses in minor units ("payments sum to 1200 but the expense amount is 1230"):
that is the REST reply, word for word. A door that speaks other units (an MCP tool takes
and shows decimal strings) re-says the same refusal from its structure with :meth:`said`,
instead of rewriting the English text: each quoted amount is a named placeholder of the
message (and of each detail) with its minor-unit value, and is in the body's currency or,
for a converted total, the group's."""
from __future__ import annotations

from typing import Callable, Dict, List, Mapping, NamedTuple, Optional

from app.errors import Invalid


class Quoted(NamedTuple):
    """One amount a refusal quotes: minor units, in the group currency or the body's."""

    minor: int
    in_group: bool = False


# (minor units, currency code or None) -> the text a door shows for it.
Say = Callable[[int, Optional[str]], str]


def _minor_units(minor: int, currency: Optional[str]) -> str:
    return str(minor)


class MoneyInvalid(Invalid):
    """400 VALIDATION_ERROR about amounts: ``template`` and ``detail_templates`` name the
    quoted amounts (``{paid}``), ``amounts`` holds them, ``field`` is the field path.

    ``currency`` and ``group_currency`` are filled in by whoever knows them (the ledger's
    build: :meth:`priced`); ``message`` and ``details`` are the minor-unit text."""

    def __init__(self, template: str, amounts: Mapping[str, Quoted], *,
                 field: Optional[str] = None,
                 detail_templates: Optional[Mapping[str, List[str]]] = None,
                 extra: Optional[Mapping[str, object]] = None,
                 currency: Optional[str] = None, group_currency: Optional[str] = None) -> None:
        self.template, self.amounts = template, dict(amounts)
        self.field, self.detail_templates = field, dict(detail_templates or {})
        self.extra = dict(extra or {})
        self.currency, self.group_currency = currency, group_currency
        message, details = self._rendered(_minor_units)
        super().__init__(message, details=details)

    def _rendered(self, say: Say) -> tuple:
        values = {name: say(q.minor, self.group_currency if q.in_group else self.currency)
                  for name, q in self.amounts.items()}
        details: Dict[str, object] = {} if self.detail_templates else {
            "field": self.field, **{name: q.minor for name, q in self.amounts.items()},
            **self.extra}
        if self.field is None:
            details.pop("field", None)
        details.update({key: [t.format(**values) for t in templates]
                        for key, templates in self.detail_templates.items()})
        return self.template.format(**values), details

    def said(self, say: Say) -> Invalid:
        """The same refusal with every quoted amount as ``say(minor, currency)`` puts it."""
        message, details = self._rendered(say)
        return Invalid(message, code=self.code, details=details)

    def priced(self, currency: Optional[str], group_currency: Optional[str]) -> "MoneyInvalid":
        """This refusal with the currencies its amounts are in (those not known yet)."""
        return MoneyInvalid(self.template, self.amounts, field=self.field,
                            detail_templates=self.detail_templates, extra=self.extra,
                            currency=self.currency or currency,
                            group_currency=self.group_currency or group_currency)

    def reshaped(self, field: str) -> "MoneyInvalid":
        """As a field error: ``details = {field: [message]}`` (how the ledger replies)."""
        return MoneyInvalid(self.template, self.amounts, field=field,
                            detail_templates={field: [self.template]}, extra=self.extra,
                            currency=self.currency, group_currency=self.group_currency)
