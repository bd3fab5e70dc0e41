"""The expense body: the one definition of what an expense records, whoever writes it.

An expense row, a recurring template's ``Template`` map and the occurrences it records all
carry the same body; create, edit, recurring materialisation, a participant transfer's
rewrite and the export read and write it only through :class:`ExpenseBody`. Its fields are
the stored attributes ``models.groups.ExpenseBodyAttributes`` declares, which Expense and
ExpenseTemplateMap both inherit, each named by the table beside them
(``models.groups.BODY_FIELDS``: ``exchange_rate`` is stored as ``ExchangeRate``). Adding a
field means declaring its attribute and its row of that table there, adding it to
``app.ledger.expense_input.ExpenseInput`` (what every door hands in, with its API name in
``WIRE_NAMES`` for the draft body), to the REST schemas (app.ledger.schemas: the request
field, loaded under the input's name, and the reply's) and to the export's ``EXPORT``
(app.imports.export: its CSV column, or why none). A field no money rule
reads (text such as the category or the notes) is recorded as sent; one the ledger computes
is named in ``BUILT`` and made by ``build`` (app.ledger.expense_build: the one place an
ExpenseInput's fields become the body's).
tests/ledger/test_expense_body.py fails when any path drops a field.

The currency is body: the body's amounts are minor units of it. A converted body (a
currency other than the group's, with a rate) also records ``exchange_rate`` (a decimal
string; on a template it may be ``"auto"``: each occurrence's reference rate),
``rate_source``, ``rate_date`` and ``group_amount``, and each payment and split carries its
``GroupAmount`` (app.money.fx apportions them). A kept body has a foreign currency and no rate.

What is not body: the date (an occurrence's, a template's being its schedule), ids,
versions, audit."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Dict, List, NamedTuple, Optional

from app.money.splits import EXPENSE
from models.groups import BODY_FIELDS, ExtraMap, ItemMap, PaymentMap, SplitMap

# Body field -> stored attribute: the table declared beside the attributes
# (models.groups.ledger.BODY_FIELDS).
ATTRIBUTES = BODY_FIELDS
# Fields the ledger's build computes (app.ledger.expense_build.build: the money,
# its currency and the recorded conversion). Every other field is recorded exactly as the
# door's ExpenseInput sends it: the build, an edit's merge and a stored body read back as
# input copy those by name, so a new text field needs no ledger code.
BUILT = ("description", "amount", "payments", "items", "currency", "exchange_rate",
         "rate_source", "rate_date", "group_amount", "kind", "extras")
AS_SENT = tuple(name for name in ATTRIBUTES if name not in BUILT)
# The fields recording a conversion (absent on a kept or group-currency body).
RATE_FIELDS = ("exchange_rate", "rate_source", "rate_date", "group_amount")
# Fields naming participants (what a transfer renames); every other field is kept as is.
# Extras name no one, but their shares are aligned with the participants' order, which a
# transfer folding the source into the target changes.
PARTICIPANT_FIELDS = ("payments", "items", "extras")


def _int(value) -> Optional[int]:
    return None if value is None else int(value)


def _converted(share) -> Dict[str, int]:
    """``{"GroupAmount": n}`` for a converted share, nothing otherwise (so a body read back
    from a row equals the body it was built from)."""
    value = getattr(share, "GroupAmount", None)
    return {} if value is None else {"GroupAmount": int(value)}


def _payment(p) -> PaymentMap:
    return PaymentMap(ParticipantId=p.ParticipantId, Amount=int(p.Amount), **_converted(p))


def _item(i) -> ItemMap:
    return ItemMap(Name=i.Name, Amount=int(i.Amount), SplitMode=i.SplitMode,
                   Splits=[SplitMap(ParticipantId=s.ParticipantId, Value=int(s.Value or 0),
                                    Amount=int(s.Amount), **_converted(s))
                           for s in i.Splits or []])


def _extra(e) -> ExtraMap:
    group = getattr(e, "GroupShares", None)
    return ExtraMap(Name=e.Name, Amount=int(e.Amount), Shares=[int(v) for v in e.Shares or []],
                    **({} if group is None else {"GroupShares": [int(v) for v in group]}))


class ExpenseBody(NamedTuple("_Body", [(name, Any) for name in ATTRIBUTES])):
    """A validated body; payments and items in their stored shapes, owed amounts resolved.

    Its fields are ``ATTRIBUTES``' (description, category, notes, amount, payments, items,
    currency, exchange_rate, rate_source, rate_date, group_amount, kind: INCOME, or None
    for an EXPENSE, so an expense's row is the bytes it was before kinds). A NamedTuple, not a
    frozen dataclass: it is built on the API's cold-start path."""

    __slots__ = ()

    # --- reading -------------------------------------------------------------------------
    @classmethod
    def from_row(cls, row: Any) -> "ExpenseBody":
        """The body of an Expense row or an ExpenseTemplateMap (the same attribute names)."""
        values = {name: getattr(row, attribute) for name, attribute in ATTRIBUTES.items()}
        values["amount"] = int(values["amount"])
        values["payments"] = [_payment(p) for p in values["payments"] or []]
        values["items"] = [_item(i) for i in values["items"] or []]
        values["group_amount"] = _int(values["group_amount"])
        values["extras"] = [_extra(e) for e in values["extras"]] if values["extras"] else None
        return cls(**values)

    @classmethod
    def from_template(cls, template: Any) -> "ExpenseBody":
        """The body a recurring template (its row) records on every occurrence."""
        return cls.from_row(template.Template)

    # --- writing -------------------------------------------------------------------------
    def to_row_attributes(self) -> Dict[str, Any]:
        """``{attribute: value}`` for an Expense row (put or update)."""
        return {attribute: getattr(self, name) for name, attribute in ATTRIBUTES.items()}

    def to_template_attributes(self) -> Dict[str, Any]:
        """``{attribute: value}`` for a template's ExpenseTemplateMap."""
        return self.to_row_attributes()

    def as_row(self) -> SimpleNamespace:
        """A row-shaped view (``.Payments``, ``.Items`` ...) for readers of stored rows."""
        return SimpleNamespace(**self.to_row_attributes())

    @property
    def kind_shown(self) -> str:
        """The kind replies and exports show: EXPENSE when none is stored."""
        return self.kind or EXPENSE

    @property
    def converted(self) -> bool:
        """Counts in the group currency at a recorded rate (each share has a GroupAmount)."""
        return self.group_amount is not None

    # --- participants --------------------------------------------------------------------
    @property
    def participant_ids(self) -> set:
        ids = {p.ParticipantId for p in self.payments}
        for item in self.items:
            ids.update(s.ParticipantId for s in item.Splits)
        return ids

    def participant_attributes(self) -> Dict[str, Any]:
        """``{attribute: value}`` of the fields naming participants (PARTICIPANT_FIELDS)."""
        return {ATTRIBUTES[name]: getattr(self, name) for name in PARTICIPANT_FIELDS}

    def with_participants(self, payments: List[PaymentMap], items: List[ItemMap],
                          extras: Optional[List[ExtraMap]] = None) -> "ExpenseBody":
        """The same body naming other participants (a transfer's rewrite): every other
        field is kept as it is."""
        return self._replace(payments=list(payments), items=list(items),
                             extras=list(extras) if extras else None)


def compared(body: Any, **row_fields: Any) -> Dict[str, Any]:
    """The fields an edit's activity diff compares (app.core.changelog.diff_of):
    every body field (``ATTRIBUTES``), so a field added here shows up in diffs with no code
    of its own, and the row's own (the date). ``body`` is an ExpenseBody, or a stored row
    (an Expense, a template's map) read as is: no copy is built just to be compared."""
    if isinstance(body, ExpenseBody):
        return {**body._asdict(), **row_fields}
    return {**{name: getattr(body, attribute) for name, attribute in ATTRIBUTES.items()},
            **row_fields}
