"""Parsers and the net-cell reconstruction, without a database: the details each format has."""
from __future__ import annotations

import pytest

from app.imports import reconstruct
from app.imports.formats import spliit
from app.imports.model import EXPENSE, SETTLEMENT, ImportFileError
from app.imports.parse import parse_file


def _nets(row) -> dict:
    return {key: value for key, value in row.nets().items() if value}


# --- Splitwise net cells -> payments + EXACT splits ------------------------------------------

def test_one_positive_cell_pays_the_whole_cost_and_every_cell_is_reproduced():
    cells = {"a": 4000, "b": -2000, "c": -2000}
    row, warning = reconstruct.expense_from_nets(3, 6000, cells, date="2026-01-01",
                                                 currency="EUR", description="x",
                                                 category=None)
    assert warning is None and row.payments == [("a", 6000)]
    assert row.items[0].mode == "EXACT" and dict(row.items[0].splits) == {
        "a": 2000, "b": 2000, "c": 2000}
    assert _nets(row) == cells


def test_several_positive_cells_pay_in_proportion_to_their_cells():
    cells = {"a": 1000, "b": 2000, "c": -3000}
    row, _ = reconstruct.expense_from_nets(3, 9001, cells, date="2026-01-01", currency="EUR",
                                           description="x", category=None)
    # Apportioned by the contract's rounding rule: the leftover unit goes, in list order, to a
    # payer whose exact share has a fraction (a's 3000.33).
    assert dict(row.payments) == {"a": 3001, "b": 6000} and _nets(row) == cells


def test_a_cost_below_what_the_payers_are_owed_imports_the_cells_with_a_warning():
    cells = {"a": 500, "b": -500}
    row, warning = reconstruct.expense_from_nets(7, 100, cells, date="2026-01-01",
                                                 currency="EUR", description="x",
                                                 category=None)
    assert row.total == 500 and _nets(row) == cells and "amount 500" in warning


def test_cells_that_do_not_sum_to_zero_cannot_be_imported():
    with pytest.raises(ImportFileError) as raised:
        reconstruct.expense_from_nets(9, 100, {"a": 100, "b": -99}, date="2026-01-01",
                                      currency="EUR", description="x", category=None)
    assert raised.value.line == 9


def test_splitwise_reads_by_position_in_any_language_with_payments_and_checks_totals():
    text = ("Exportiert am 2026-05-01\n"
            "Fecha,Descripción,Categoría,Coste,Moneda,Ana,Bea,Cai\n\n"
            "2026-05-01,Cena,Restaurantes,30.00,EUR,20.00,-10.00,-10.00\n"
            "2026-05-02,Bea pagó a Ana,Pago,10.00,EUR,-10.00,10.00,0.00\n"
            "2026-05-03,Raro,Pago,9.00,EUR,6.00,-3.00,-3.00\n"
            "2026-05-04,Nada,General,0.00,EUR,0.00,0.00,0.00\n\n"
            "2026-05-31,Saldo total, , ,EUR,16.00,0.00,-16.00\n")
    parsed = parse_file("splitwise-csv", text)

    assert list(parsed.members.values()) == ["Ana", "Bea", "Cai"]
    kinds = [(row.line, row.kind) for row in parsed.rows]
    assert kinds == [(4, EXPENSE), (5, SETTLEMENT), (6, EXPENSE)]
    assert (parsed.rows[1].payer, parsed.rows[1].payee, parsed.rows[1].amount) == (
        "c6", "c5", 1000)
    assert parsed.skipped == 1
    assert [line for line, _ in parsed.warnings] == [6, 7]  # 3-way "payment", empty row
    assert parsed.totals["EUR"] == (9, {"c5": 1600, "c6": 0, "c7": -1600})


def test_splitwise_keeps_a_currency_per_row_and_takes_the_most_used_as_main():
    text = ("Date,Description,Category,Cost,Currency,A,B\r\n"
            "2026-01-01,x,General,10.00,USD,5.00,-5.00\r\n"
            "2026-01-02,y,General,1000,JPY,500,-500\r\n"
            "2026-01-03,z,General,4.00,USD,2.00,-2.00\r\n")
    parsed = parse_file("splitwise-csv", text)
    assert parsed.currency == "USD"
    assert [(row.currency, row.total) for row in parsed.rows] == [
        ("USD", 1000), ("JPY", 1000), ("USD", 400)]


def test_our_own_csv_export_is_read_up_to_its_paid_by_column():
    text = ("Date,Description,Category,Cost,Currency,A,B,Paid by,A paid,A owed,B paid,B owed\r\n"
            "2026-01-01,'=x,General,10.00,EUR,5.00,-5.00,A,10.00,5.00,0.00,5.00\r\n")
    parsed = parse_file("splitwise-csv", text)
    assert list(parsed.members.values()) == ["A", "B"]
    assert parsed.rows[0].description == "=x"  # the export's formula escape undone


# --- Spliit's own share computation (its src/lib/shares.test.ts cases) -----------------------

@pytest.mark.parametrize("expense_id, amount, paid_for, mode, expected", [
    ("e1", 9500, [("alice", 1), ("bob", 1), ("carol", 1)], "EVENLY", [3166, 3167, 3167]),
    ("e1", 100, [("alice", 7), ("bob", 1)], "EVENLY", [50, 50]),
    ("e1", 100, [("alice", 1), ("bob", 2)], "BY_SHARES", [33, 67]),
    ("e1", 1000, [("alice", 333), ("bob", 333), ("carol", 334)], "BY_AMOUNT", [333, 333, 334]),
    ("e1", 100, [("alice", 6000), ("bob", 2000)], "BY_PERCENTAGE", [75, 25]),
    ("e1", -9500, [("alice", 1), ("bob", 1), ("carol", 1)], "EVENLY", [-3167, -3167, -3166]),
    (None, 100, [("bob", 1), ("alice", 1), ("carol", 1)], "EVENLY", [34, 33, 33]),
])
def test_spliit_shares_are_computed_as_spliit_computes_them(expense_id, amount, paid_for,
                                                             mode, expected):
    shares = spliit.expense_shares(expense_id, amount, mode, paid_for)
    if expense_id is None:  # "starts at the first participant": alice (sorted first) gets 34
        assert shares["alice"] == 34 and sum(shares.values()) == amount
    elif mode == "EVENLY" and len(paid_for) == 3:
        assert sorted(shares.values()) == expected
    else:
        assert [shares[pid] for pid, _ in paid_for] == expected


def test_spliit_hash_matches_javascripts_char_codes():
    # FNV-1a over UTF-16 code units, as hashString runs in Node (values printed by Node 20).
    assert spliit._fnv1a("e1") == 2216349443
    assert spliit._fnv1a("cm4x1a2b30001abcd") == 1279546227


def test_spliit_csv_needs_its_own_header():
    with pytest.raises(ImportFileError) as raised:
        parse_file("spliit-csv", "\ufeffDate,Title,Category\n2026-01-01,x,y\n")
    assert raised.value.line == 1


def test_ihatemoney_bills_without_a_currency_take_the_requested_one():
    parsed = parse_file("ihatemoney-json", '[{"date": "2024-01-01", "what": "x", "amount": 3, '
                                           '"currency": "XXX", "payer_name": "a", '
                                           '"payer_weight": 1, "owers": ["a", "b", "c"]}]',
                        currency="CHF")
    assert parsed.currency == "CHF" and parsed.rows[0].currency == "CHF"
    assert sorted(dict(parsed.rows[0].items[0].splits).values()) == [100, 100, 100]


def test_every_format_the_contract_names_has_a_parser():
    from app import limits
    from app.imports import parse

    assert set(parse.PARSERS) == set(limits.IMPORT_FORMATS)
