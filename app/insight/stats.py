"""GET /groups/{id}/stats and GET /users/me/stats: where the money went.

A group's stats are one pass over its expense rows in the date range: a Query of
GroupExpensesIndex by date (never a Scan; comment rows are not in that index, and the few
settlement and conversion rows that share it, for the statement, are skipped by the Expense
class's discriminator filter: billed as read, never counted). A user's stats are one pass over their
projection's expense rows (their own shares, kept by the groups stream: issue 50)."""
from __future__ import annotations

from decimal import Decimal
from typing import Dict, Optional

from app.errors import Invalid
from app.money import fx
from app.money.stats import Tallies, row_key
from app.core.access import Access
from app.core.live import read_live_with
from app.currencies.rates import reference_rate
from models.groups import Expense, GroupItem
from models.users import MyEntry
from models.users.mine import EXPENSE_SORT

# Rows per Query page: AWS caps a page at 1 MB anyway (~1,000 expense rows); a bound keeps
# every call short on the embedded engine too, whose cost per page grows with the page.
PAGE_SIZE = 500


def _check_range(date_from: Optional[str], date_to: Optional[str]) -> None:
    if date_from and date_to and date_from > date_to:
        raise Invalid("from must not be after to.", details={"from": ["Must not be after to."]})


def group_stats(access: Access, *, by: str, date_from: Optional[str],
                date_to: Optional[str]) -> dict:
    _check_range(date_from, date_to)
    main = access.group.Currency
    tallies = Tallies(main)
    tallies.section(main)
    for expense in Expense.listing(access.group_id, date_from, date_to,
                                   page_size=PAGE_SIZE):
        tallies.add_group_expense(expense, by)
    own = tallies.sections.pop(main)
    return {"currency": main, "by": by, "from": date_from, "to": date_to,
            "total": own.total.as_dict(), "rows": own.sorted_rows(by),
            "otherCurrencies": [tallies.sections[c].as_dict(by) for c in sorted(tallies.sections)]}


def my_stats(user_id: str, *, by: str, date_from: Optional[str], date_to: Optional[str],
             display_currency: Optional[str], day: str) -> dict:
    """Read from my projection (app.insight.projection): my share of each expense of my
    groups is one row, so this is one Query per 1 MB page however many groups I have, plus
    the account check (a read of my profile)."""
    _check_range(date_from, date_to)
    read_live_with(user_id, GroupItem, [])
    tallies = Tallies("")
    low = EXPENSE_SORT + (date_from or "")
    high = EXPENSE_SORT + ((date_to + "~") if date_to else "~")
    for entry in MyEntry.newest_first(user_id, low, high, page_size=PAGE_SIZE):
        tallies.add_share(entry.Currency, row_key(entry, by, entry.GroupId), int(entry.Owed),
                          int(entry.Paid))
    sections = [tallies.sections[c] for c in sorted(tallies.sections)]
    reply: dict = {"by": by, "from": date_from, "to": date_to,
                   "sections": [s.as_dict(by) for s in sections]}
    if display_currency:
        reply["display"] = _display(sections, display_currency, day)
    return reply


def _display(sections, currency: str, day: str) -> dict:
    """Each section's total at the day's reference rate into ``currency``, summed."""
    spent = paid = count = 0
    rates: Dict[str, str] = {}
    used = day
    for section in sections:
        if section.currency == currency:
            rate = Decimal(1)
        else:
            rate, used = reference_rate(section.currency, currency, day)
        rates[section.currency] = fx.rate_text(rate)
        spent += fx.convert(section.total.spent, rate, section.currency, currency)
        paid += fx.convert(section.total.paid, rate, section.currency, currency)
        count += section.total.count
    first = sections[0].currency if sections else currency
    return {"currency": currency, "rate": rates.get(first, "1"), "rates": rates,
            "rateDate": used, "total": {"spent": spent, "paid": paid, "count": count}}
