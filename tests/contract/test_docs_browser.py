"""/docs in a real headless Chromium: it renders /openapi.json and calls the API with no internet.

Swagger UI's files used to come from a CDN, so /docs was a blank page offline. Here every
request the page makes is recorded and must go to the local server alone.

Swagger UI (5.34, flask-swagger-ui's wheel) virtualizes the operations list once it holds
150 rows or more (one per tag plus one per operation, `B.length>=150` in the bundle): only
the rows near the viewport are in the DOM, the rest appear as the page scrolls. So "every
operation renders" is checked by scrolling the page top to bottom and collecting the
opblocks seen on the way, not by counting the opblocks present at once."""
from __future__ import annotations

import json
import os
import threading
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from tests.contract.browser import INSTALL_HINT, Browser, chromium_path

METHODS = {"get", "put", "post", "patch", "delete"}


@pytest.fixture
def server_url(app):
    """The app (on this test's moto tables) on an ephemeral loopback port."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def browser():
    executable = chromium_path()
    if not executable or not os.access(executable, os.X_OK):
        pytest.fail(INSTALL_HINT)  # a missing browser must not pass as a skipped test
    page = Browser(executable)
    try:
        page.send("Network.enable")
        page.send("Page.enable")
        yield page
    finally:
        page.close()


def _operation(method: str, path: str) -> str:
    """JS: the opblock of one operation (Swagger UI marks the path with data-path)."""
    return (f"[...document.querySelectorAll('.opblock.opblock-{method}')].find(b => "
            f"b.querySelector('.opblock-summary-path')?.dataset.path === {json.dumps(path)})")


# Scrolls the page top to bottom half a viewport at a time (two animation frames after each
# step let the virtualizer render the rows it brought in) and returns every opblock seen, as
# [method, path, summary]; ends at the bottom once a step brings nothing new, then goes back up.
COLLECT_OPBLOCKS = """(async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const seen = new Map();
  const collect = () => {
    let added = 0;
    for (const b of document.querySelectorAll('.opblock')) {
      const row = [b.querySelector('.opblock-summary-method').textContent.toLowerCase(),
                   b.querySelector('.opblock-summary-path').dataset.path,
                   b.querySelector('.opblock-summary-description')?.textContent || ''];
      const key = row[0] + ' ' + row[1];
      if (!seen.has(key)) { seen.set(key, row); added++; }
    }
    return added;
  };
  window.scrollTo(0, 0);
  await frame();
  collect();
  for (let step = 0; step < 2000; step++) {
    window.scrollBy(0, Math.max(200, window.innerHeight / 2));
    await frame();
    const added = collect();
    const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
    if (bottom && added === 0) break;
  }
  window.scrollTo(0, 0);
  await frame();
  return [...seen.values()];
})()"""


def test_docs_render_every_operation_and_try_it_out_with_no_other_host(
        client, server_url, browser, tmp_path):
    document = client.get("/openapi.json").get_json()
    operations = [(method, path, op) for path, item in document["paths"].items()
                  for method, op in item.items() if method in METHODS]
    assert len(operations) > 30

    browser.send("Page.navigate", {"url": server_url + "/docs"})
    try:
        browser.wait_for("document.querySelectorAll('.opblock').length > 0",
                         what="operations rendered")
    except AssertionError as blank:
        raise AssertionError(f"{blank}; the page requested {browser.requested_urls()}") from None
    shown = browser.evaluate(COLLECT_OPBLOCKS)
    assert sorted(map(tuple, shown)) == sorted((m, p, op.get("summary", ""))
                                               for m, p, op in operations)

    health = _operation("get", "/health")
    browser.click(f"{health}.querySelector('.opblock-summary-control')")
    browser.wait_for(f"!!{health}.querySelector('.try-out__btn')", what="Try it out shown")
    browser.click(f"{health}.querySelector('.try-out__btn')")
    browser.wait_for(f"!!{health}.querySelector('.execute')", what="Execute shown")
    browser.click(f"{health}.querySelector('.execute')")
    status = browser.wait_for(
        f"{health}.querySelector('.live-responses-table tbody .response-col_status')"
        "?.textContent",
        what="a live response to GET /health")
    assert status.strip() == "200"
    body = browser.evaluate(f"{health}.querySelector('.live-responses-table "
                            "tbody .response-col_description pre').textContent")
    assert json.loads(body) == {"status": "ok"}
    browser.screenshot(os.environ.get("TAILSPEND_DOCS_SCREENSHOT") or str(tmp_path / "docs.png"))

    local = urlsplit(server_url).netloc
    urls = browser.requested_urls()
    assert any(u.endswith("/docs/assets/swagger-ui-bundle.js") for u in urls)
    assert any(u == server_url + "/health" for u in urls)
    elsewhere = [u for u in urls
                 if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).netloc != local]
    assert elsewhere == [], "/docs asked another host: " + ", ".join(elsewhere)


def test_docs_assets_are_only_the_packaged_distribution(client):
    """The asset route serves Swagger UI's files and nothing outside that folder."""
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/docs/assets/../../../app/config.py").status_code == 404
    page = client.get("/docs").get_data(as_text=True)
    assert "cdn" not in page.lower() and "https://" not in page
