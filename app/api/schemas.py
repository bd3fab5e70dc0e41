"""Shapes shared by every area: the error envelope, list paging, money and ids."""
from __future__ import annotations

import functools
import re

import marshmallow as ma
from marshmallow import fields, validate

from app.api.smorest_adapter import SharedByDocumentation
from app.limits import MAX_DISPLAY_NAME
from app.money.currencies import CODES
from app.money.splits import MAX_AMOUNT


class Schema(SharedByDocumentation, ma.Schema):
    """The base of every TailSpend schema (its deep copy is itself: app.api.smorest_adapter)."""


class Strict(Schema):
    """Unknown fields are errors, so a typo never silently does nothing."""

    class Meta:
        unknown = ma.RAISE


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"example": "NOT_FOUND"})
    message = fields.String(required=True)
    details = fields.Dict(metadata={"description": "Field errors or other context"})


class ErrorEnvelopeSchema(Schema):
    """Every error: ``{"error": {"code", "message", "details"}}``."""

    error = fields.Nested(ErrorBodySchema, required=True)


class PageArgsSchema(Strict):
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=100))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=2048))


class StrictInteger(fields.Integer):
    """An integer; a fractional or boolean value is an error, never truncated."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):  # marshmallow's custom-field hook
        if isinstance(value, bool):  # True == 1 in Python: check the type itself
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Money(StrictInteger):
    """Integer minor units, 1..MAX_AMOUNT unless told otherwise."""

    def __init__(self, *, minimum: int = 1, **kwargs):
        kwargs.setdefault("validate", validate.Range(min=minimum, max=MAX_AMOUNT))
        super().__init__(**kwargs)


class StrictBoolean(fields.Boolean):
    """JSON true or false only: 0, 1 and "yes" are errors, not booleans."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):  # 0 == False in Python, so check the type itself
            raise self.make_error("invalid", input=value)
        return value


def Id(**kwargs) -> fields.UUID:  # noqa: N802 — reads like a field type
    """A lowercase UUID v4 id."""
    return fields.String(validate=validate.Regexp(
        r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
        error="Must be a lowercase UUID v4."), **kwargs)


def page_schema(item_schema, name: str):
    """``{"items": [...], "nextCursor": str|null}`` for one item schema."""
    return Schema.from_dict({
        "items": fields.List(fields.Nested(item_schema), required=True),
        "nextCursor": fields.String(allow_none=True, required=True),
    }, name=name)


class CurrencyCode(validate.OneOf):
    """marshmallow's OneOf over the ISO 4217 codes, read from their table on first use (a
    check or the OpenAPI document's ``enum``) rather than when the schemas are imported."""

    def __init__(self, *, error: str) -> None:  # the choices are not read yet
        self.labels, self.labels_text, self.error = [], "", error

    @functools.cached_property
    def choices(self) -> list:
        return sorted(CODES)

    @functools.cached_property
    def choices_text(self) -> str:
        return ", ".join(self.choices)


CURRENCY = CurrencyCode(error="Must be an ISO 4217 currency code such as EUR.")

RATE_PATTERN = r"^[0-9]{1,24}(\.[0-9]{1,24})?$"


def ExchangeRate(*, auto: bool = True, **kwargs) -> fields.String:  # noqa: N802 — a field type
    """A rate as a decimal string (never a JSON number): 1 unit of the row's currency in the
    group currency, <= 12 significant digits, > 0 (the service checks digits and sign);
    ``"auto"``: the ECB reference rate of the row's date."""
    pattern = rf"^(auto|{RATE_PATTERN[1:-1]})$" if auto else RATE_PATTERN
    return fields.String(validate=validate.Regexp(
        pattern, error="Must be a decimal string such as \"1.0832\"" +
        (" or \"auto\"." if auto else ".")), metadata={
        "description": "Decimal string, <= 12 significant digits, > 0" +
        ('; "auto": the ECB reference rate of the date' if auto else ""),
        "example": "1.0832"}, **kwargs)


# Reply schemas dump domain objects (model rows, small dataclasses) with ``attribute=``
# naming the row's attribute; the two helpers below cover what one attribute cannot say.

class Derived:
    """A reply field computed from the whole object (``getter(obj)``), typed for the document
    by the field class it is mixed into (fields.Function would leave the type out)."""

    def __init__(self, getter, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.getter = getter

    def get_value(self, obj, attr, accessor=None, default=ma.missing):
        return self.getter(obj)


class DerivedString(Derived, fields.String):
    pass


class DerivedBoolean(Derived, fields.Boolean):
    pass


class DerivedInteger(Derived, fields.Integer):
    pass


class DerivedList(Derived, fields.List):
    pass


class DerivedDict(Derived, fields.Dict):
    pass


class DerivedNested(Derived, fields.Nested):
    pass


class OmitNone:
    """Reply fields named in ``OMIT_NONE`` are left out when None, not sent as null: api.md
    documents them as present only when set (a row without the attribute)."""

    OMIT_NONE: tuple = ()

    @ma.post_dump
    def _omit_none(self, data, **kwargs):
        for name in self.OMIT_NONE:
            if data.get(name, 0) is None:
                del data[name]
        return data


class NamePattern(validate.Regexp):
    """marshmallow's Regexp with app.names' pattern, compiled on its first use (a check or
    the OpenAPI document's ``pattern``) rather than when the schemas are imported."""

    def __init__(self, *, error: str) -> None:  # no pattern to compile yet
        self.error = error

    @property
    def regex(self) -> re.Pattern:
        from app import names

        return names.pattern()


class DisplayName(fields.String):
    """A human-visible name (app.names): NFC-normalised on load; control, format and
    bidirectional-override characters refused; 1..``max_length`` characters once
    normalised, not blank."""

    def __init__(self, *, max_length: int = MAX_DISPLAY_NAME, **kwargs):
        kwargs.setdefault("validate", [validate.Length(min=1, max=max_length),
                                       NamePattern(error="Must not be blank.")])
        metadata = kwargs.pop("metadata", {})
        note = ("Stored NFC-normalised; control (Cc), format (Cf: zero-width, bidi marks and "
                "overrides) and line/paragraph separator characters are refused.")
        description = metadata.get("description")
        metadata = {**metadata, "description": f"{description} {note}" if description else note}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        from app import names

        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return names.normalise(text)
        except ValueError as error:
            raise ma.ValidationError(str(error)) from None
