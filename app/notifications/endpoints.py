"""Web Push endpoints: the URL in a WEB device's PushSubscription, which the worker POSTs to.

Anyone can register a device, so the endpoint is a URL an attacker chooses: it must be a
push service's, never an address inside our network (blind SSRF).

- Registration (:func:`check_registration`): a strictly read URL (app.core.urls),
  https on the default port, a DNS host name (push services have names: no IP literal, no
  single-label, ``localhost`` or ``.localhost`` name).
- Send (:func:`check_before_send`): the host is resolved and every address it resolves to
  must be public (app.core.addresses: private, loopback, link-local, reserved and
  IPv4-mapped, IPv4-compatible, 6to4 and NAT64 forms of those refused), and
  :func:`session` follows no redirect. The check runs right before the POST, which resolves
  the name again: pinning the connection to the checked address would mean replacing the
  HTTP stack pywebpush drives (requests/urllib3 have no public hook for it). What is left is
  a DNS answer that changes between two lookups a few milliseconds apart.
- Local mode keeps its documented exception: loopback endpoints (``localhost``,
  127.0.0.0/8, ``::1``) over http or https on any port, so a page subscribed against a local
  push service works under ``make dev``; nothing else private.
"""
from __future__ import annotations

from urllib.parse import SplitResult

from app.core import addresses, urls

HTTPS_PORT = 443


class Refused(ValueError):
    """The endpoint is not one we deliver to; the message says why."""


def _split(endpoint: object) -> SplitResult:
    try:
        return urls.split(endpoint, max_length=2048)
    except urls.BadUrl as bad:
        raise Refused(str(bad)) from None


def check_registration(endpoint: object, *, local: bool = False) -> None:
    """Refused unless ``endpoint`` can be a push service's (or, locally, a loopback one)."""
    parts = _split(endpoint)
    host = parts.hostname or ""
    if local and addresses.is_loopback_host(host):
        if parts.scheme not in ("https", "http"):
            raise Refused("The subscription endpoint must be an http(s) URL.")
        return
    if parts.scheme != "https":
        raise Refused("The subscription endpoint must be an https URL.")
    if parts.port not in (None, HTTPS_PORT):
        raise Refused("The subscription endpoint must use the https port.")
    if addresses.parse(host) is not None:
        raise Refused("The subscription endpoint must name a push service, not an address.")
    if "." not in host or addresses.is_loopback_host(host):
        raise Refused("The subscription endpoint must name a public push service.")


def check_before_send(endpoint: object, *, local: bool = False) -> None:
    """Right before a POST: the registration rules, then every address the host resolves
    to public (loopback too, in local mode). addresses.Unresolvable passes through (a DNS
    failure may be transient)."""
    check_registration(endpoint, local=local)
    parts = _split(endpoint)
    port = parts.port or (HTTPS_PORT if parts.scheme == "https" else 80)
    try:
        addresses.public_addresses(parts.hostname, port, allow_loopback=local)
    except addresses.Unresolvable:
        raise
    except addresses.Refused as refused:
        raise Refused(str(refused)) from None


def session():
    """A requests Session for one push: redirects are not followed (a 3xx raises
    requests.TooManyRedirects, an OSError), so a push service cannot send us elsewhere."""
    import requests

    web = requests.Session()
    web.max_redirects = 0
    return web
