"""URLs that a browser (the WHATWG URL Standard) and urllib.parse read the same way, or refused.

The two disagree on inputs an attacker can choose. For an http(s) URL a browser reads ``\\``
as ``/`` (``https://evil.example\\.bank.example/cb`` goes to evil.example, while urlsplit
sees the host ``evil.example\\.bank.example``), removes tabs and newlines anywhere, trims
leading and trailing spaces and controls, takes what precedes ``@`` as userinfo, skips extra
slashes after the scheme, and reads a host whose last label is a number as IPv4 (``0x7f.1``
is 127.0.0.1). Rather than emulate the standard, :func:`split` accepts only the URLs on
which no such difference can arise:

- printable ASCII only (no space, control or non-ASCII character) and no ``\\``;
- ``scheme://`` then an authority: a host of LDH labels whose last label is not a number,
  a dotted-quad IPv4 address or a bracketed IPv6 literal (no zone), and an optional
  decimal port;
- no userinfo and no fragment.
"""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import SplitResult, urlsplit

MAX_LENGTH = 2000
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
# WHATWG "ends in a number": the last label is decimal, or 0x-hex (then the host is IPv4).
_NUMBER = re.compile(r"^(?:[0-9]+|0[xX][0-9A-Fa-f]*)$")
_PORT = re.compile(r"^[0-9]{1,5}$")


class BadUrl(ValueError):
    """Not a URL we accept; the message says which rule it breaks."""


def _check_host(host: str) -> None:
    if host.startswith("["):
        if not host.endswith("]") or "%" in host:
            raise BadUrl("An IPv6 host is a bracketed literal without a zone.")
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise BadUrl("The IPv6 host is not an address.") from None
        return
    labels = host.split(".")
    if _NUMBER.match(labels[-1]):
        try:
            ipaddress.IPv4Address(host)  # only the dotted quad, no octal or hex forms
        except ValueError:
            raise BadUrl("A numeric host must be a dotted-quad IPv4 address.") from None
        return
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise BadUrl("The host must be a DNS name of letters, digits and hyphens.")


def split(url: object, *, max_length: int = MAX_LENGTH) -> SplitResult:
    """``url`` split by urlsplit, after checking the rules above; BadUrl otherwise."""
    if not isinstance(url, str) or not url or len(url) > max_length:
        raise BadUrl(f"A URL is 1 to {max_length} characters.")
    if not all("!" <= char <= "~" for char in url):
        raise BadUrl("A URL may not hold spaces, control or non-ASCII characters.")
    if "\\" in url:
        raise BadUrl("A URL may not hold a backslash.")
    if "#" in url:
        raise BadUrl("A URL may not have a fragment.")
    if not _SCHEME.match(url):
        raise BadUrl("A URL starts with scheme://.")
    parts = urlsplit(url)
    if "@" in parts.netloc:
        raise BadUrl("A URL may not carry userinfo.")
    authority = parts.netloc
    if authority.startswith("["):
        end = authority.find("]") + 1  # 0 when unclosed: the host check refuses it
        host, rest = (authority[:end], authority[end:]) if end else (authority, "")
    else:
        colon = authority.find(":")
        host, rest = (authority[:colon], authority[colon:]) if colon >= 0 else (authority, "")
    if rest and not rest.startswith(":"):
        raise BadUrl("Only a port may follow the IPv6 host.")
    if not host:
        raise BadUrl("A URL needs a host.")
    _check_host(host)
    if rest and not (_PORT.match(rest[1:]) and int(rest[1:]) <= 65535):
        raise BadUrl("The port must be a number up to 65535.")
    return parts
