"""Headless Chromium driven over the DevTools protocol: one browser for many pages, for the memory
browser's tests, benchmark and screenshots. Debian's `chromium` package; no Node, no Playwright."""

from __future__ import annotations

import base64
import json
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import uvicorn
from websockets.sync.client import ClientConnection, connect

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--window-size=1280,900", "--remote-debugging-port=0"]
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")
START_SECONDS = 60
KEYS = {"Tab": 9, "Enter": 13}


def executable() -> str:
    found = shutil.which("chromium")
    if not found:
        raise RuntimeError("chromium is missing: install Debian's chromium package (scripts/test does, as root with apt-get)")
    return found


class Chromium:
    """One browser and one tab. `goto` loads a page and returns its HTTP status; `text` is what it shows."""

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="sg-chromium-"))
        self.process = subprocess.Popen([executable(), *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        browser_url = self._listening()
        port = browser_url.split(":")[2].split("/")[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            page = next(target for target in json.load(answer) if target["type"] == "page")
        self.stack = ExitStack()
        self.socket: ClientConnection = self.stack.enter_context(connect(page["webSocketDebuggerUrl"], max_size=None))
        self.next_id = 0
        self.events: list[dict] = []
        self.call("Page.enable")
        self.call("Network.enable")

    def _listening(self) -> str:
        """The browser's DevTools address, from the line it writes on stderr once it listens."""
        assert self.process.stderr is not None
        deadline = time.monotonic() + START_SECONDS
        seen = []
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            seen.append(line)
            found = LISTENING.search(line)
            if found:
                return found.group(1)
        self.close()
        raise RuntimeError("chromium did not start:\n" + "".join(seen[-20:]))

    def call(self, method: str, **params: object) -> dict:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=120))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def _wait_for_load(self) -> int:
        """Wait for the page's load event; the status of the last document response before it."""
        status = 0
        while True:
            for event in self.events:
                if event.get("method") == "Network.responseReceived" and event["params"].get("type") == "Document":
                    status = event["params"]["response"]["status"]
                if event.get("method") == "Page.loadEventFired":
                    self.events.clear()
                    return status
            self.events.clear()
            self.events.append(json.loads(self.socket.recv(timeout=120)))

    def goto(self, url: str) -> int:
        self.events.clear()
        self.call("Page.navigate", url=url)
        return self._wait_for_load()

    def press(self, key: str) -> None:
        """A key pressed and released, as a keyboard user would."""
        code = KEYS[key]
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code, **({"text": "\r"} if key == "Enter" and kind == "keyDown" else {}))

    def press_and_load(self, key: str) -> int:
        """Press a key that submits a form or follows a link; the status of the page it loads."""
        self.events.clear()
        self.press(key)
        return self._wait_for_load()

    def evaluate(self, expression: str) -> object:
        """The value of a JavaScript expression in the page (a promise is waited for)."""
        answer = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return answer["result"].get("value")

    def text(self) -> str:
        return str(self.evaluate("document.body.innerText"))

    def focused(self) -> str:
        """The text of the element that has the keyboard focus."""
        return str(self.evaluate("(document.activeElement.innerText || document.activeElement.value || '').trim()"))

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        path.write_bytes(base64.b64decode(data))

    def clear_cookies(self) -> None:
        self.call("Network.clearBrowserCookies")

    def close(self) -> None:
        if getattr(self, "stack", None) is not None:
            self.stack.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


@contextmanager
def serving(app: object) -> Iterator[str]:
    """An ASGI app served by uvicorn on a free port of 127.0.0.1 in a thread; its base URL. Stopped on exit."""
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()
