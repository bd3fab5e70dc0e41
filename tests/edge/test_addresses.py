"""The one SSRF address rule (app.core.addresses), table-driven: IPv6 forms that
wrap an IPv4 address are judged by that address too (issue 20, item 12)."""
from __future__ import annotations

import pytest

from app.errors import OAuthError
from app.core import addresses
from app.oauth import clients

NOT_PUBLIC = [
    "127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "240.0.0.1", "255.255.255.255", "224.0.0.1", "198.18.0.1",
    "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",        # IPv4-mapped
    "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::a9fe:a9fe",               # NAT64 /96
    "64:ff9b:1::808:808",                                                   # local-use NAT64
    "2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::",                   # 6to4
    "::127.0.0.1", "::10.0.0.1", "::169.254.169.254",                       # IPv4-compatible
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",                                 # Teredo
    "fe80::1%eth0", "[::1]",
]
PUBLIC = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001::200e",
          "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::", "::8.8.8.8"]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_not_public(address):
    assert not addresses.is_public(address)
    assert not clients.public_address(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_public(address):
    assert addresses.is_public(address)


@pytest.mark.parametrize("literal", ["64:ff9b::7f00:1", "2002:a9fe:a9fe::", "::127.0.0.1",
                                     "64:ff9b::a00:1"])
def test_the_metadata_fetcher_refuses_wrapped_private_ipv4(literal):
    with pytest.raises(OAuthError) as refused:
        clients.fetch_document(f"https://[{literal}]/client.json", allow_private=False)
    assert "private address" in refused.value.message


def test_one_private_answer_among_public_ones_is_refused(monkeypatch):
    answers = [(10, 1, 6, "", ("2606:4700:4700::1111", 443, 0, 0)),
               (2, 1, 6, "", ("10.0.0.1", 443))]
    monkeypatch.setattr(addresses.socket, "getaddrinfo", lambda *a, **k: answers)
    with pytest.raises(addresses.Refused):
        addresses.public_addresses("push.example", 443)
