"""How the Flask app serves the built web app (app/web, api.md "The web app"): GET / sends a
browser to /app/, every unknown /app/ path is the app's index.html (it routes in the page),
hashed assets are cached for good, the page itself never goes stale, and nothing outside
web/dist is reachable through /app/."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from app import blobs

from scripts import build_web


@pytest.fixture(scope="module")
def dist():
    return build_web.build()


def test_a_browser_asking_for_the_root_goes_to_the_app(client, dist):
    reply = client.get("/", headers={"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"})
    assert reply.status_code == 302 and reply.headers["Location"] == "/app/"
    assert client.get("/app").headers["Location"] == "/app/"


@pytest.mark.parametrize("accept", ["application/json", "*/*", None])
def test_an_api_client_at_the_root_still_gets_the_json_404(client, dist, accept):
    reply = client.get("/", headers={"Accept": accept} if accept else {})
    assert reply.status_code == 404
    assert reply.get_json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("path", ["/app/", "/app/groups/0b7c/expenses/new", "/app/join",
                                  "/app/settings"])
def test_every_app_path_is_the_index_page_revalidated_with_its_policy(client, dist, path):
    reply = client.get(path)
    assert reply.status_code == 200 and reply.mimetype == "text/html"
    assert reply.get_data() == (dist / "index.html").read_bytes()
    assert reply.headers["Cache-Control"] == "no-cache"
    policy = reply.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    # No other origin (nothing comes from a CDN) but the receipts' S3 endpoint, which the
    # browser POSTs a photo to and reads its thumbnail from.
    endpoint = blobs.client_options()["endpoint_url"]
    others = {word for word in policy.replace(";", " ").split() if "//" in word}
    assert others <= ({"{0.scheme}://{0.netloc}".format(urlsplit(endpoint))} if endpoint else set())


def test_hashed_assets_are_cached_for_good(client, dist):
    script = next((dist / "assets").glob("index-*.js"))
    reply = client.get(f"/app/assets/{script.name}")
    assert reply.status_code == 200 and reply.get_data() == script.read_bytes()
    assert reply.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    worker = client.get("/app/sw.js")
    assert worker.status_code == 200 and worker.headers["Cache-Control"] == "no-cache"
    assert b"precache" in worker.get_data().lower()


@pytest.mark.parametrize("path", ["/app/../app/web/views.py", "/app/%2e%2e/%2e%2e/README.md",
                                  "/app/..%2f..%2fREADME.md"])
def test_nothing_outside_the_build_is_served(client, dist, path):
    reply = client.get(path)
    assert reply.status_code in (200, 404)
    assert b"TailSpend backend" not in reply.get_data() and b"def files" not in reply.get_data()
