"""Payment methods (where a user wants to be paid) and the pay links built from them.

Pure: the character rules of each service's handle, the IBAN check (schwifty, which knows
every country's IBAN length and format and the mod-97 checksum) and the links a settle-up
transfer carries (``payTo``). Amounts in links are decimal strings in the currency's own
exponent (JPY 0, EUR 2, KWD 3); every part that comes from a user is percent-encoded, so a
handle or a note can never add a path segment or a query parameter. No field of a method may
hold a control, format or line/paragraph separator character (the rule of names,
app.names): such a character is invisible where the method is shown and, in the SEPA QR text,
would start a line of the payee's choosing (app.money.epc_qr checks every field it writes)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence
from urllib.parse import quote

from app.money import epc_qr
from app.money.currencies import exponent
from app.names import refused_character

MAX_METHODS = 5
TYPES = ("PAYPAL", "VENMO", "REVOLUT", "MONZO", "UPI", "SEPA")
HANDLE_TYPES = ("PAYPAL", "VENMO", "REVOLUT", "MONZO", "UPI")

# Each service's own rules for the name in its personal link.
HANDLE_RULES: Dict[str, tuple] = {
    # paypal.me/<name>: letters and digits, up to 20.
    "PAYPAL": (re.compile(r"[A-Za-z0-9]{1,20}"), "1-20 letters or digits"),
    # Venmo usernames: 5-30 letters, digits, hyphens or underscores.
    "VENMO": (re.compile(r"[A-Za-z0-9_-]{5,30}"), "5-30 letters, digits, - or _"),
    # Revolut @usernames (revtags): 3-16 letters, digits, . or _.
    "REVOLUT": (re.compile(r"[A-Za-z0-9._]{3,16}"), "3-16 letters, digits, . or _"),
    # monzo.me/<name>: letters and digits, up to 30.
    "MONZO": (re.compile(r"[A-Za-z0-9]{1,30}"), "1-30 letters or digits"),
    # A UPI virtual payment address: <name>@<bank handle>.
    "UPI": (re.compile(r"[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}"),
            "a VPA such as name@bank"),
}
MAX_HOLDER_NAME = epc_qr.MAX_NAME  # the QR's limit, for every holder name alike
TEXT_FIELDS = ("handle", "iban", "name")
# Which transfers a service can be asked to fill in: None = any currency.
LINK_CURRENCY = {"PAYPAL": None, "VENMO": "USD", "REVOLUT": None, "MONZO": "GBP",
                 "UPI": "INR", "SEPA": "EUR"}


@dataclass(frozen=True)
class Method:
    type: str
    handle: Optional[str] = None
    iban: Optional[str] = None
    name: Optional[str] = None

    def as_dict(self) -> dict:
        return {key: value for key, value in (("type", self.type), ("handle", self.handle),
                                              ("iban", self.iban), ("name", self.name))
                if value is not None}


def checked(methods: Sequence[Mapping]) -> tuple:
    """(methods normalised, field errors keyed like ``methods.<i>.<field>``)."""
    errors: Dict[str, List[str]] = {}
    out: List[Method] = []
    if len(methods) > MAX_METHODS:
        errors["methods"] = [f"At most {MAX_METHODS} payment methods."]
    for index, raw in enumerate(methods):
        where = f"methods.{index}."
        kind = raw.get("type")
        if kind not in TYPES:
            errors[where + "type"] = [f"Must be one of {', '.join(TYPES)}."]
            continue
        if kind == "SEPA":
            out.append(_sepa(raw, where, errors))
            continue
        for extra in ("iban", "name"):
            if raw.get(extra) is not None and not (kind == "UPI" and extra == "name"):
                errors[where + extra] = [f"Not used by {kind}."]
        handle = (raw.get("handle") or "").strip().lstrip("@") if kind != "UPI" \
            else (raw.get("handle") or "").strip()
        pattern, rule = HANDLE_RULES[kind]
        if not pattern.fullmatch(handle):
            errors[where + "handle"] = [f"A {kind} handle is {rule}."]
        name = _name(raw.get("name"), where, errors, required=False) if kind == "UPI" else None
        out.append(Method(kind, handle=handle, name=name))
    for index, raw in enumerate(methods):
        _refuse_invisible(raw, f"methods.{index}.", errors)
    return out, errors


def _refuse_invisible(raw: Mapping, where: str, errors: dict) -> None:
    """Checked on the value as sent: the handle's strip() would otherwise quietly drop a
    U+2028 or U+0085 at either end, and the IBAN's parser its own choice of blanks."""
    for field in TEXT_FIELDS:
        value = raw.get(field)
        bad = refused_character(value) if isinstance(value, str) else None
        if bad is not None:
            errors[where + field] = [f"No control, format or line separator characters "
                                     f"(found U+{ord(bad):04X})."]


def _name(value, where: str, errors: dict, *, required: bool, sepa: bool = False) -> Optional[str]:
    name = (value or "").strip()
    if not name:
        if required:
            errors[where + "name"] = ["The account holder's name is required."]
        return None
    if len(name) > MAX_HOLDER_NAME:
        errors[where + "name"] = [f"At most {MAX_HOLDER_NAME} characters."]
    elif sepa and epc_qr.holder_name(name) is None:
        # Refused now rather than a QR quietly missing later: the name goes into it.
        errors[where + "name"] = [f"A SEPA holder name is written in the payment QR: Latin "
                                  f"letters (accents allowed), {epc_qr.CHARSET}, at most "
                                  f"{MAX_HOLDER_NAME} once accents are dropped."]
    return name


def _sepa(raw: Mapping, where: str, errors: dict) -> Method:
    # schwifty loads its country registries on import: paid by a SEPA write, not a cold start.
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    if raw.get("handle") is not None:
        errors[where + "handle"] = ["Not used by SEPA; send iban and name."]
    iban = None
    try:
        iban = IBAN(raw.get("iban") or "").compact
    except (SchwiftyException, ValueError, TypeError) as error:
        errors[where + "iban"] = [f"Not a valid IBAN ({error})."]
    return Method("SEPA", iban=iban,
                  name=_name(raw.get("name"), where, errors, required=True, sepa=True))


def decimal_amount(amount: int, currency: str) -> str:
    """Minor units as a decimal string in the currency's exponent: 4550 EUR -> "45.50"."""
    places = exponent(currency)
    sign, digits = ("-" if amount < 0 else ""), str(abs(int(amount))).rjust(places + 1, "0")
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)


def _part(text: str) -> str:
    return quote(text, safe="")


def links(methods: Sequence[Method], *, amount: int, currency: str,
          note: str) -> List[dict]:
    """``payTo`` entries for paying ``amount`` (minor units of ``currency``) to the owner of
    ``methods``: only the services that take that currency."""
    value = decimal_amount(amount, currency)
    out: List[dict] = []
    for method in methods:
        wanted = LINK_CURRENCY.get(method.type, "")
        if wanted is not None and wanted != currency:
            continue
        if method.type == "PAYPAL":
            url = f"https://paypal.me/{_part(method.handle)}/{_part(value + currency)}"
        elif method.type == "VENMO":
            url = (f"https://venmo.com/{_part(method.handle)}?txn=pay&amount={_part(value)}"
                   f"&note={_part(note)}")
        elif method.type == "REVOLUT":
            url = f"https://revolut.me/{_part(method.handle)}"
        elif method.type == "MONZO":
            url = f"https://monzo.me/{_part(method.handle)}/{_part(value)}"
        elif method.type == "UPI":
            url = (f"upi://pay?pa={_part(method.handle)}&pn={_part(method.name or '')}"
                   f"&am={_part(value)}&cu=INR&tn={_part(note)}")
        else:
            qr = epc_text(method, amount, note)
            if qr is not None:  # a field EPC069-12 cannot carry: no QR rather than a wrong one
                out.append({"type": "SEPA", "epcQr": qr})
            continue
        out.append({"type": method.type, "url": url})
    return out


def epc_text(method: Method, cents: int, note: str) -> Optional[str]:
    """The EPC069-12 text paying ``cents`` EUR to a SEPA method, or None (app.money.epc_qr)."""
    return epc_qr.text(name=method.name or "", iban=method.iban or "",
                       amount=decimal_amount(cents, "EUR"), note=note)
