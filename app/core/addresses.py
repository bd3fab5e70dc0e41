"""Which addresses an outbound request may reach: the one SSRF rule of every fetch we make
for a URL someone else chose (client metadata documents, Web Push endpoints).

An address is public when the standard library calls it globally routable and it is not
multicast, and when an IPv4 address it wraps is public too: an IPv6 address can carry an
IPv4 one that the network in front of it unwraps (IPv4-mapped ``::ffff:a.b.c.d``, the
deprecated IPv4-compatible ``::a.b.c.d``, 6to4 ``2002:AABB:CCDD::``, and the NAT64
well-known prefix ``64:ff9b::/96``), and ``ipaddress`` judges the IPv6 form on its own (it
calls ``64:ff9b::a00:1``, i.e. 10.0.0.1, global). Teredo (2001::/32) and the local-use NAT64
prefix ``64:ff9b:1::/48`` are never public."""
from __future__ import annotations

import ipaddress
import socket
from typing import List, Optional, Union

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]

NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052 well-known prefix
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215 local use
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # RFC 4291 §2.5.5.1, deprecated
LOOPBACK_NAMES = {"localhost"}


class Refused(ValueError):
    """The host is not one we may connect to (the message says why)."""


class Unresolvable(Refused):
    """The host resolves to no address (perhaps for now only)."""


def parse(address: str) -> Optional[IPAddress]:
    """An IP literal (brackets and an IPv6 zone allowed), or None for a host name."""
    text = address.strip("[]").split("%")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def embedded_ipv4(ip: ipaddress.IPv6Address) -> Optional[ipaddress.IPv4Address]:
    """The IPv4 address an IPv6 address carries for translation or tunnelling, if any."""
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip.sixtofour:
        return ip.sixtofour
    if ip in NAT64 or (ip in IPV4_COMPATIBLE and int(ip) > 1):  # not :: or ::1
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _routable(ip: IPAddress) -> bool:
    return ip.is_global and not ip.is_multicast


def is_public(address: Union[str, IPAddress]) -> bool:
    """True when ``address`` (and any IPv4 address it wraps) is globally routable unicast."""
    ip = address if not isinstance(address, str) else parse(address)
    if ip is None:
        raise ValueError(f"not an IP address: {address!r}")
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.teredo or ip in NAT64_LOCAL:
            return False
        inner = embedded_ipv4(ip)
        if inner is not None and not _routable(inner):
            return False
    return _routable(ip)


def is_loopback(address: Union[str, IPAddress]) -> bool:
    ip = address if not isinstance(address, str) else parse(address)
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def is_loopback_host(host: str) -> bool:
    """``localhost`` (and its subdomains, RFC 6761 §6.3) or a loopback literal."""
    name = host.lower().rstrip(".")
    return name in LOOPBACK_NAMES or name.endswith(".localhost") or is_loopback(name)


def resolve(host: str, port: int) -> List[str]:
    """Every address ``host`` resolves to (TCP), or Unresolvable."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Unresolvable("The host does not resolve.") from None
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise Unresolvable("The host does not resolve.")
    return addresses


def public_addresses(host: str, port: int, *, allow_loopback: bool = False) -> List[str]:
    """Resolve ``host``; every address must be public (or loopback, when allowed), else
    Refused: one private answer among public ones is refused too, since the connection
    could go to any of them."""
    addresses = resolve(host, port)
    for address in addresses:
        if not (is_public(address) or (allow_loopback and is_loopback(address))):
            raise Refused("The host resolves to a private, loopback or reserved address.")
    return addresses
