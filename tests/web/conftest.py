"""The web app in a real browser: Playwright for Python driving Debian's Chromium (its
executable path: no browser is downloaded) against one `python -m app serve`, started for the
whole run and shared by every xdist worker (a file under the run's shared temp dir records it,
a file lock guards it, the last worker out stops it). web/ is built first when its inputs
changed (scripts/build_web.py)."""
from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from scripts import build_web
from tests.contract.browser import INSTALL_HINT, chromium_path
from tests.support.served import running, stop

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "docs" / "web"
PHONE = {"width": 375, "height": 812}
# WCAG 2.2 A and AA (axe-core's tags); best-practice rules are not the standard.
AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The browser tests make hundreds of calls a minute from one address, several through one
# share link: the anonymous windows are raised for this server only.
SERVER_ENV = {"RATE_LIMIT_IP_PER_MINUTE": "100000", "RATE_LIMIT_LINK_PER_MINUTE": "100000",
              "RATE_LIMIT_LINK_IP_PER_MINUTE": "100000", "LOG_LEVEL": "WARNING"}


@contextmanager
def _locked(path: Path):
    with open(path, "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        yield


def _start_server(base: Path) -> dict:
    data = base / "web-server-data"
    data.mkdir(exist_ok=True)
    log = base / "web-server.log"
    env = {k: v for k, v in os.environ.items() if k != "DYNAMODB_ENDPOINT"} | SERVER_ENV
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", "0", "--db-port", "0",
         "--data-dir", str(data), "--stage", "dev"],
        cwd=ROOT, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT,
        start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = re.search(r"TailSpend API on (http://\S+) ", log.read_text())
        if found:
            return {"pid": process.pid, "url": found.group(1), "users": 0}
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    raise AssertionError(f"python -m app serve did not start:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def web_server(tmp_path_factory):
    """The URL of the one server every worker's browser tests use."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by the run's workers
    state_file, lock = base / "web-server.json", base / "web-server.lock"
    with _locked(lock):
        build_web.build()
        state = json.loads(state_file.read_text()) if state_file.exists() else None
        if not state or not running(state["pid"]):
            state = _start_server(base)
        state["users"] += 1
        state_file.write_text(json.dumps(state))
    yield state["url"]
    with _locked(lock):
        state = json.loads(state_file.read_text())
        state["users"] -= 1
        if state["users"] <= 0:
            # Zombie-aware: the worker that started the server reaps it; waiting on
            # os.kill(pid, 0) saw the unreaped child alive for the whole 10 s at every run's end.
            stop(state["pid"], signal.SIGTERM, timeout=10)
            state_file.unlink()
        else:
            state_file.write_text(json.dumps(state))


@pytest.fixture(scope="session")
def chromium():
    executable = chromium_path()
    if not executable or not os.access(executable, os.X_OK):
        pytest.fail(INSTALL_HINT)  # a missing browser must not pass as a skipped test
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


class Phone:
    """A browser context at 375 px with its page; records what would be a bug to see in the
    console (an uncaught error, an unhandled promise rejection)."""

    def __init__(self, browser, url: str, locale: str) -> None:
        # bypass_csp: axe-core is injected as an inline script, which the app's CSP refuses.
        self.context = browser.new_context(viewport=PHONE, locale=locale, bypass_csp=True,
                                           service_workers="block")
        self.page = self.context.new_page()
        self.url = url
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.page.on("console", self._console)

    def _console(self, message) -> None:
        text = message.text
        if "Uncaught" in text or "Unhandled" in text or "unhandled" in text:
            self.errors.append(f"console: {text}")

    def open(self, path: str = "/app/") -> None:
        self.page.goto(self.url + path)

    def token(self) -> str:
        return json.loads(self.page.evaluate("localStorage.getItem('tailspend.session')"))["token"]

    def assert_accessible(self, screen: str) -> None:
        """axe-core on the screen as shown: no WCAG 2.2 A/AA violation."""
        self.page.wait_for_load_state("networkidle")
        if not self.page.evaluate("typeof axe !== 'undefined'"):
            self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate(
            "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))"
            ".violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))", AA_TAGS)
        assert result == [], f"{screen}: {json.dumps(result, indent=1)}"

    def shot(self, name: str) -> None:
        """docs/web/<name>.png at 375 px: the images docs/web.md shows, taken here."""
        SHOTS.mkdir(exist_ok=True)
        self.page.wait_for_load_state("networkidle")
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test, so `phones` knows at teardown whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _what_the_phone_showed(phone: Phone, folder: Path) -> str:
    """A failed test's evidence: where each page was, what it showed, and a screenshot."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        shown = phone.page.evaluate("document.querySelector('main')?.innerText ?? ''")
        shot = folder / f"phone-{id(phone)}.png"
        phone.page.screenshot(path=str(shot), full_page=True)
        return f"{phone.page.url}\n  shows: {shown[:600]!r}\n  screenshot: {shot}"
    except PlaywrightError as error:  # a closed page: say so, do not hide the test's failure
        return f"(page unreadable: {error})"


@pytest.fixture
def phones(request, chromium, web_server, tmp_path):
    """phones(locale="en-US") -> a new Phone; each is closed after the test, which fails if
    any recorded a console error. A failed test prints what each phone showed."""
    made: list[Phone] = []

    def make(locale: str = "en-US") -> Phone:
        phone = Phone(chromium, web_server, locale)
        made.append(phone)
        return phone

    yield make
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed:
        for phone in made:
            print("phone at", _what_the_phone_showed(phone, tmp_path))
    errors = [e for phone in made for e in phone.errors]
    for phone in made:
        phone.context.close()
    assert errors == []


def call(url: str, method: str, path: str, token: str | None = None, body=None):
    """The API from the test's side (urllib): (status, JSON reply)."""
    request = urllib.request.Request(url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            raw = reply.read()
            return reply.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
