"""The parser over receipts as 27 locales print them (issue 47): each locale's own currency
symbol where it prints it, its thousands and decimal marks (1,234.56 / 1.234,56 / 1 234,56 /
1'234.50 / 12,34,567.89 / whole rupiah and forint), its labels for the total, tax, tip,
service, discount, cash and change. Every receipt is rendered here from the locale's table
(no file we could not ship), in four layouts, and read with a group currency that is NOT the
receipt's: the currency must come from what the receipt prints, never silently the group's.

Layouts: ``basic`` (items, a TOTAL line, then cash tendered and change larger than the
total: the TOTAL line wins), ``extras`` (a subtotal, then the locale's tax/tip/service added
on top: they become extras), ``discount`` (a discount line: an extra taking money off) and
``large`` (an amount in the thousands, with the locale's separators, and the VAT the prices
include printed after the total: no extra)."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Callable, Optional, Tuple

import pytest

from app.receipts.scan import ScanHints
from app.receipts.scan.parser import parse_lines

NBSP, NNBSP = "\u00a0", "\u202f"


def number(minor: int, *, decimals: int = 2, group: str = ",", point: str = ".",
           exponent: int = 2, lakhs: bool = False) -> str:
    """``minor`` units printed the locale's way (``decimals`` 0: whole units printed)."""
    whole, cents = divmod(abs(minor), 10 ** exponent)
    digits = str(whole)
    if lakhs and len(digits) > 3:
        head, tail = digits[:-3], digits[-3:]
        pairs = [head[max(i - 2, 0):i] for i in range(len(head), 0, -2)][::-1]
        grouped = ",".join(pairs + [tail])
    else:
        chunks = [digits[max(i - 3, 0):i] for i in range(len(digits), 0, -3)][::-1]
        grouped = group.join(chunks)
    text = grouped + (point + str(cents).zfill(exponent)[:decimals] if decimals else "")
    return ("-" if minor < 0 else "") + text


@dataclass(frozen=True)
class Locale:
    id: str
    currency: str
    hint: str  # the group's currency: never the receipt's
    money: Callable[[int], str]  # minor units -> as printed, symbol included
    merchant: str
    items: Tuple[Tuple[str, int], ...]  # three lines: name, minor units
    large: Tuple[str, int]  # an amount in the thousands
    total: str
    subtotal: str
    extra: Tuple[str, str, int]  # (label, kind, minor units) added on top of the subtotal
    discount: str
    vat: str  # the VAT the prices include, printed after the total
    cash: str
    change: str
    date: str
    bare_items: bool = False  # item lines print the number without the symbol
    plain: Optional[Callable[[int], str]] = None


def _loc(id, currency, hint, fmt, sym, after, **kwargs) -> Locale:
    def money(minor: int) -> str:
        text = fmt(minor)
        return f"{text}{sym}" if after is True else f"{text} {sym}" if after else f"{sym}{text}"
    return Locale(id, currency, hint, money, plain=fmt, **kwargs)


en = dict()  # 1,234.56
de = dict(group=".", point=",")  # 1.234,56
fr = dict(group=NNBSP, point=",")  # 1 234,56
ch = dict(group="'")  # 1'234.50
LOCALES = [
    _loc("en-US", "USD", "EUR", lambda m: number(m, **en), "$", False,
         merchant="Joe's Diner", items=(("Cheeseburger", 1295), ("Fries", 450), ("Soda", 275)),
         large=("Catering tray", 124950), total="TOTAL", subtotal="Subtotal",
         extra=("Tip", "TIP", 300), discount="Coupon", vat="Tax included", cash="Cash",
         change="Change", date="03/14/2026"),
    _loc("en-GB", "GBP", "EUR", lambda m: number(m, **en), "£", False,
         merchant="The Red Lion", items=(("Fish and Chips", 1450), ("Pint of Bitter", 520),
                                         ("Sticky Toffee Pudding", 695)),
         large=("Function room hire", 150000), total="Total", subtotal="Subtotal",
         extra=("Service charge 12.5%", "SERVICE", 333), discount="Discount",
         vat="VAT 20% included", cash="Cash", change="Change", date="14/03/2026"),
    _loc("en-IN", "INR", "USD", lambda m: number(m, lakhs=True), "₹", False,
         merchant="Saravana Bhavan", items=(("Masala Dosa", 18000), ("Filter Coffee", 6000),
                                            ("Idli Vada", 14000)),
         large=("Wedding banquet", 123456789), total="Grand Total", subtotal="Sub Total",
         extra=("CGST 2.5%", "TAX", 950), discount="Discount", vat="GST included",
         cash="Cash", change="Change", date="14-03-2026"),
    _loc("de-DE", "EUR", "USD", lambda m: number(m, **de), "€", " ",
         merchant="Gasthaus Zur Post", items=(("Schnitzel Wiener Art", 1690),
                                              ("Apfelschorle", 390), ("Kaffee", 280)),
         large=("Familienfeier Buffet", 123450), total="Summe", subtotal="Zwischensumme",
         extra=("Trinkgeld", "TIP", 240), discount="Rabatt", vat="MwSt 19% enthalten",
         cash="Gegeben Bar", change="Rückgeld", date="14.03.2026", bare_items=True),
    _loc("de-CH", "CHF", "EUR", lambda m: number(m, **ch), "CHF ", False,
         merchant="Restaurant Zum Storchen", items=(("Zürcher Geschnetzeltes", 3850),
                                                    ("Rösti", 900), ("Mineral", 550)),
         large=("Bankett", 123450), total="Total CHF", subtotal="Zwischentotal",
         extra=("Trinkgeld", "TIP", 500), discount="Rabatt", vat="inkl. MWST 8.1%",
         cash="Bar", change="Rückgeld", date="14.03.2026", bare_items=True),
    _loc("fr-FR", "EUR", "GBP", lambda m: number(m, **fr), "€", " ",
         merchant="Brasserie Lipp", items=(("Choucroute garnie", 2450), ("Vin rouge", 700),
                                           ("Café crème", 450)),
         large=("Menu groupe", 198000), total="Total TTC", subtotal="Sous-total",
         extra=("Pourboire", "TIP", 300), discount="Remise", vat="TVA 10% incluse",
         cash="Espèces", change="Rendu monnaie", date="14/03/2026"),
    _loc("es-ES", "EUR", "USD", lambda m: number(m, **de), "€", " ",
         merchant="Taberna La Bola", items=(("Cocido madrileño", 2200), ("Caña", 350),
                                            ("Flan casero", 550)),
         large=("Banquete boda", 345600), total="Total", subtotal="Subtotal",
         extra=("Propina", "TIP", 200), discount="Descuento", vat="IVA incluido",
         cash="Efectivo", change="Cambio", date="14/03/2026"),
    _loc("es-MX", "MXN", "EUR", lambda m: number(m, **en), "$", False,
         merchant="Taquería El Califa", items=(("Tacos al pastor", 8500),
                                               ("Agua de horchata", 3500), ("Gringa", 6500)),
         large=("Banquete", 1234550), total="Total M.N.", subtotal="Subtotal",
         extra=("Propina", "TIP", 2500), discount="Descuento", vat="IVA incluido",
         cash="Efectivo", change="Cambio", date="14/03/2026"),
    _loc("pt-BR", "BRL", "USD", lambda m: number(m, **de), "R$ ", False,
         merchant="Padaria Real", items=(("Pão de queijo", 1250), ("Café com leite", 800),
                                         ("Coxinha", 900)),
         large=("Festa de aniversário", 234590), total="TOTAL", subtotal="Subtotal",
         extra=("Taxa de serviço 10%", "SERVICE", 295), discount="Desconto",
         vat="Tributos incluídos", cash="Dinheiro", change="Troco", date="14/03/2026"),
    _loc("it-IT", "EUR", "USD", lambda m: number(m, **de), "€", " ",
         merchant="Trattoria da Enzo", items=(("Cacio e pepe", 1200), ("Carciofi", 800),
                                              ("Vino della casa", 900)),
         large=("Pranzo di nozze", 456700), total="Totale", subtotal="Subtotale",
         extra=("Servizio", "SERVICE", 290), discount="Sconto", vat="IVA inclusa",
         cash="Contanti", change="Resto", date="14/03/2026", bare_items=True),
    _loc("nl-NL", "EUR", "GBP", lambda m: number(m, **de), "€ ", False,
         merchant="Café de Jaren", items=(("Bitterballen", 750), ("Biertje", 450),
                                          ("Appeltaart", 525)),
         large=("Zaalhuur", 125000), total="Totaal", subtotal="Subtotaal",
         extra=("Fooi", "TIP", 275), discount="Korting", vat="BTW 9% inbegrepen",
         cash="Contant", change="Wisselgeld", date="14-03-2026"),
    _loc("sv-SE", "SEK", "EUR", lambda m: number(m, group=" ", point=","), "kr", " ",
         merchant="Café Saturnus", items=(("Kanelbulle", 4500), ("Kaffe", 3500),
                                          ("Räksmörgås", 14500)),
         large=("Konferenslunch", 1234500), total="Att betala", subtotal="Delsumma",
         extra=("Dricks", "TIP", 2000), discount="Rabatt", vat="Moms 12% ingår",
         cash="Kontant", change="Växel", date="2026-03-14"),
    _loc("da-DK", "DKK", "EUR", lambda m: number(m, **de), "kr. ", False,
         merchant="Café Norden", items=(("Smørrebrød", 8900), ("Øl", 5500),
                                        ("Æblekage", 4500)),
         large=("Selskab", 1234500), total="I alt", subtotal="Subtotal",
         extra=("Drikkepenge", "TIP", 1500), discount="Rabat", vat="Moms udgør 25%",
         cash="Kontant", change="Byttepenge", date="14.03.2026"),
    _loc("nb-NO", "NOK", "EUR", lambda m: number(m, group=NBSP, point=","), "kr ", False,
         merchant="Fiskeriet Youngstorget", items=(("Fiskesuppe", 18900), ("Pils", 11200),
                                                   ("Kaffe", 4500)),
         large=("Selskapslokale", 1250000), total="Totalt å betale", subtotal="Delsum",
         extra=("Tips", "TIP", 3000), discount="Rabatt", vat="herav mva 25%",
         cash="Kontant", change="Vekslepenger", date="14.03.2026"),
    _loc("pl-PL", "PLN", "EUR", lambda m: number(m, group=" ", point=","), "zł", " ",
         merchant="Bar Mleczny Prasowy", items=(("Pierogi ruskie", 1800), ("Żurek", 1200),
                                                ("Kompot", 500)),
         large=("Przyjęcie", 456780), total="SUMA PLN", subtotal="Suma częściowa",
         extra=("Napiwek", "TIP", 400), discount="Rabat", vat="PTU A 23% zawarty",
         cash="Gotówka", change="Reszta", date="14.03.2026", bare_items=True),
    _loc("cs-CZ", "CZK", "EUR", lambda m: number(m, group=" ", point=","), "Kč", " ",
         merchant="Lokál Dlouhá", items=(("Svíčková", 22900), ("Pilsner Urquell", 5900),
                                         ("Knedlíky", 4500)),
         large=("Firemní večírek", 1234550), total="Celkem", subtotal="Mezisoučet",
         extra=("Spropitné", "TIP", 3000), discount="Sleva", vat="DPH 12% v ceně",
         cash="Hotově", change="Vráceno", date="14.03.2026"),
    _loc("hu-HU", "HUF", "EUR", lambda m: number(m, decimals=0, group=NBSP), "Ft", " ",
         merchant="Frici Papa Kifőzdéje", items=(("Gulyásleves", 199000),
                                                  ("Rántott sajt", 249000),
                                                  ("Fröccs", 89000)),
         large=("Céges vacsora", 12345600), total="Összesen", subtotal="Részösszeg",
         extra=("Szervizdíj 12%", "SERVICE", 64400), discount="Kedvezmény",
         vat="ÁFA 27% tartalmaz", cash="Készpénz", change="Visszajáró", date="2026.03.14."),
    _loc("tr-TR", "TRY", "EUR", lambda m: number(m, **de), "₺", False,
         merchant="Karaköy Lokantası", items=(("Mercimek çorbası", 12000),
                                              ("İskender kebap", 45000), ("Ayran", 4000)),
         large=("Toplu yemek", 1234500), total="Genel Toplam", subtotal="Ara toplam",
         extra=("Servis ücreti", "SERVICE", 6100), discount="İndirim", vat="KDV dahil",
         cash="Nakit", change="Para üstü", date="14.03.2026"),
    _loc("ru-RU", "RUB", "EUR", lambda m: number(m, group=NBSP, point=","), "₽", " ",
         merchant="Кафе Пушкинъ", items=(("Борщ", 45000), ("Пельмени", 52000),
                                         ("Чай", 15000)),
         large=("Банкет", 12345600), total="Итого", subtotal="Подытог",
         extra=("Чаевые", "TIP", 10000), discount="Скидка", vat="в т.ч. НДС 20%",
         cash="Наличные", change="Сдача", date="14.03.2026"),
    _loc("uk-UA", "UAH", "EUR", lambda m: number(m, group=NBSP, point=","), "грн", " ",
         merchant="Пузата Хата", items=(("Вареники", 8500), ("Борщ", 7200),
                                        ("Узвар", 3500)),
         large=("Банкет", 2345600), total="До сплати", subtotal="Проміжна сума",
         extra=("Чайові", "TIP", 2000), discount="Знижка", vat="у т.ч. ПДВ 20%",
         cash="Готівка", change="Решта", date="14.03.2026"),
    _loc("ms-MY", "MYR", "EUR", lambda m: number(m, **en), "RM ", False,
         merchant="Restoran Nasi Kandar Pelita", items=(("Nasi Kandar", 1250),
                                                        ("Teh Tarik", 350),
                                                        ("Roti Canai", 200)),
         large=("Katering majlis", 234500), total="Jumlah", subtotal="Jumlah kecil",
         extra=("SST 6%", "TAX", 108), discount="Diskaun", vat="Cukai termasuk",
         cash="Tunai", change="Baki", date="14/03/2026"),
    _loc("id-ID", "IDR", "USD", lambda m: number(m, decimals=0, group="."), "Rp ", False,
         merchant="Warung Makan Bu Sri", items=(("Nasi Goreng", 2500000), ("Es Teh", 500000),
                                                ("Sate Ayam", 3000000)),
         large=("Paket Rombongan", 123450000), total="Total Bayar", subtotal="Subtotal",
         extra=("PPN 11%", "TAX", 660000), discount="Diskon", vat="Termasuk pajak",
         cash="Tunai", change="Kembali", date="14/03/2026"),
    _loc("vi-VN", "VND", "USD", lambda m: number(m, decimals=0, group=".", exponent=0), "đ",
         True, merchant="Phở Thìn Lò Đúc", items=(("Phở bò tái", 65000), ("Quẩy", 10000),
                                                   ("Trà đá", 5000)),
         large=("Tiệc công ty", 12345000), total="Tổng cộng", subtotal="Tạm tính",
         extra=("Phí dịch vụ 5%", "SERVICE", 4000), discount="Giảm giá",
         vat="Đã bao gồm VAT", cash="Tiền mặt", change="Tiền thối", date="14/03/2026"),
    _loc("th-TH", "THB", "USD", lambda m: number(m, **en), "฿", False,
         merchant="ร้านอาหารครัวไทย", items=(("ผัดไทย", 12000), ("ต้มยำกุ้ง", 18000),
                                             ("ชาเย็น", 4500)),
         large=("จัดเลี้ยง", 1234500), total="รวมทั้งสิ้น", subtotal="ยอดก่อนภาษี",
         extra=("ค่าบริการ 10%", "SERVICE", 3450), discount="ส่วนลด",
         vat="รวมภาษีมูลค่าเพิ่มแล้ว", cash="เงินสด", change="เงินทอน", date="14/03/2026"),
    _loc("ja-JP", "JPY", "EUR", lambda m: number(m, decimals=0, exponent=0), "¥", False,
         merchant="らーめん一蘭", items=(("天然とんこつラーメン", 980), ("替玉", 210),
                                         ("半熟塩ゆでたまご", 140)),
         large=("宴会コース", 123450), total="合計", subtotal="小計",
         extra=("サービス料10%", "SERVICE", 133), discount="値引", vat="(内消費税等 10%)",
         cash="お預り", change="お釣り", date="2026年3月14日"),
    _loc("zh-CN", "CNY", "EUR", lambda m: number(m, **en), "¥", False,
         merchant="老北京炸酱面馆", items=(("炸酱面", 2800), ("酸梅汤", 800),
                                           ("京酱肉丝", 4800)),
         large=("包间宴席", 1234500), total="合计", subtotal="小计",
         extra=("服务费", "SERVICE", 840), discount="优惠", vat="含税", cash="现金",
         change="找零", date="2026-03-14"),
    _loc("ko-KR", "KRW", "USD", lambda m: number(m, decimals=0, exponent=0), "원", True,
         merchant="명동교자", items=(("칼국수", 11000), ("만두", 12000), ("콩국수", 13000)),
         large=("단체 회식", 1234000), total="합계", subtotal="소계",
         extra=("봉사료", "SERVICE", 3600), discount="할인", vat="부가세 포함",
         cash="현금", change="거스름돈", date="2026-03-14"),
]


def _item(loc: Locale, name: str, minor: int) -> str:
    return f"{name} {loc.plain(minor) if loc.bare_items else loc.money(minor)}"


def _head(loc: Locale) -> list:
    return [loc.merchant, loc.date]


def _render(loc: Locale, layout: str):
    """(lines, total, items, extras) of one receipt."""
    items = list(loc.items)
    if layout == "large":
        items = [loc.large, items[0]]
    spent = sum(amount for _, amount in items)
    lines = _head(loc) + [_item(loc, name, amount) for name, amount in items]
    extras: tuple = ()
    if layout == "extras":
        label, kind, amount = loc.extra
        lines += [f"{loc.subtotal} {loc.money(spent)}", f"{label} {loc.money(amount)}"]
        extras, total = ((label, amount, kind),), spent + amount
    elif layout == "discount":
        off = loc.items[1][1] // 2
        lines.append(f"{loc.discount} {loc.money(-off)}")
        extras, total = ((loc.discount, -off, "DISCOUNT"),), spent - off
    else:
        total = spent
    lines.append(f"{loc.total} {loc.money(total)}")
    if layout == "basic":  # tendered and change larger than the total: TOTAL still wins
        tendered = total * 3
        lines += [f"{loc.cash} {loc.money(tendered)}", f"{loc.change} {loc.money(tendered - total)}"]
    if layout == "large":
        lines.append(loc.vat)
    return lines, total, tuple(items), extras


LAYOUTS = ("basic", "extras", "discount", "large")
CASES = [(loc, layout) for loc in LOCALES for layout in LAYOUTS]


@pytest.mark.parametrize("loc, layout", CASES, ids=[f"{c[0].id}-{c[1]}" for c in CASES])
def test_a_rendered_receipt_reads_back_in_its_own_currency(loc, layout):
    lines, total, items, extras = _render(loc, layout)
    result = parse_lines(lines, ScanHints(loc.hint))
    assert (result.currency, result.currency_printed) == (loc.currency, True)
    assert result.total == total
    # Names as the parser cleans every line (NFKC: Thai's SARA AM splits in two).
    assert result.items == tuple((unicodedata.normalize("NFKC", n), a) for n, a in items)
    assert [(kind, amount) for _, amount, kind in result.extras] == \
        [(kind, amount) for _, amount, kind in extras]
    assert result.merchant == loc.merchant


def test_the_table_is_at_least_80_line_sets_in_at_least_15_languages():
    languages = {loc.id.split("-")[0] for loc in LOCALES}
    symbols = {loc.money(100).replace(loc.plain(100), "").strip() for loc in LOCALES}
    assert len(CASES) >= 80 and len(languages) >= 15
    assert len(symbols) >= 20  # local symbols, not ISO codes: RM, Rp, zł, kr, ₹, ...


@pytest.mark.parametrize("lines, hint", [
    (["Kiosk", "Zeitung 2,50", "Summe 2,50"], "EUR"),
    (["Deli", "Bagel 3.50", "TOTAL 3.50"], "USD"),
])
def test_a_receipt_that_prints_no_currency_says_so(lines, hint):
    result = parse_lines(lines, ScanHints(hint))
    assert (result.currency, result.currency_printed) == (hint, False)
