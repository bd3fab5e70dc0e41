"""FxRates: reference-rate publications newer than the history shipped with the code.

One row per publication day, ``ECB#<yyyy-mm-dd>`` -> that day's per-EUR rates as decimal
strings. The Maintenance job writes them; rate lookups read them (app.currencies)."""
from __future__ import annotations

from pynamodb.attributes import MapAttribute, UnicodeAttribute
from pynamodb.models import Model

from models.base import table

ECB_PREFIX = "ECB#"


@table("fx-rates")
class FxRates(Model):
    """One source's rates of one publication day."""

    class Meta:
        table_name = "fx-rates"

    Key = UnicodeAttribute(hash_key=True)
    Rates = MapAttribute()  # code -> decimal string, per 1 EUR
    FetchedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(day: str) -> str:
        return f"{ECB_PREFIX}{day}"
