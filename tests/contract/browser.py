"""Headless Debian Chromium driven over the DevTools protocol on a pipe: no driver package.

`--remote-debugging-pipe` makes Chromium read protocol messages (JSON, NUL-terminated) on
fd 3 and write its answers on fd 4, so the standard library is the whole client: no port
to allocate, no websocket library, no browser download (only Debian's `chromium`)."""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Any

INSTALL_HINT = ("headless Chromium is needed for the /docs browser test: "
                "apt-get install -y chromium chromium-driver (Debian), "
                "or set CHROMIUM to a Chromium binary")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,2000", "--remote-debugging-pipe")


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")


class Browser:
    """One Chromium process and one page; `send` waits for the answer, events are kept."""

    def __init__(self, executable: str) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="tailspend-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire_fds() -> None:  # in the child: Chromium expects the pipe on fds 3 and 4
            high_r, high_w = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Python's own fds are non-inheritable (PEP 446): only the dup2'ed 3 and 4 pass.
            preexec_fn=wire_fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self.events: list[dict] = []
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = self._attach_page()

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._arrived:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self.events.append(message)
                self._arrived.notify_all()
        with self._arrived:
            self._closed = True
            self._arrived.notify_all()

    _closed = False

    def send(self, method: str, params: dict | None = None, *, session: str | None = "page",
             timeout: float = 30) -> dict:
        with self._arrived:
            self._next_id += 1
            number = self._next_id
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session if session == "page" else session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        with self._arrived:
            if not self._arrived.wait_for(lambda: number in self._answers or self._closed,
                                          timeout):
                raise AssertionError(f"Chromium did not answer {method} in {timeout} s")
            if number not in self._answers:
                raise AssertionError(f"Chromium exited before answering {method}")
            answer = self._answers.pop(number)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        return answer["result"]

    def _attach_page(self) -> str:
        targets = self.send("Target.getTargets", session=None)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        return self.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True},
                         session=None)["sessionId"]

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, *, timeout: float = 30, what: str = "") -> Any:
        """Poll a JS expression until it is truthy (a wait, not a timing assertion)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"never became true: {what or expression}")
            time.sleep(0.1)

    def click(self, element_js: str) -> None:
        """A real mouse click (press + release) at the centre of the element JS yields.

        Only once the page has loaded: a stylesheet arriving after the element's box was
        measured moves the element, and the click lands beside it (seen: a sign-in button
        clicked before consent.css applied, and the form never submitted)."""
        self.wait_for("document.readyState === 'complete'", what="the page loaded")
        box = self.evaluate(f"""(() => {{ const e = {element_js};
            if (!e) return null; e.scrollIntoView({{block: 'center'}});
            const r = e.getBoundingClientRect();
            return {{x: r.left + r.width / 2, y: r.top + r.height / 2}}; }})()""")
        assert box, f"nothing to click: {element_js}"
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"],
                                                   "button": "left", "clickCount": 1})

    def requested_urls(self) -> list[str]:
        with self._arrived:
            return [e["params"]["request"]["url"] for e in self.events
                    if e.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, path: str) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.send("Browser.close", session=None, timeout=10)
        except AssertionError:
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_chrome)
        self._reader.join(timeout=5)
        os.close(self._from_chrome)
        self._profile.cleanup()
