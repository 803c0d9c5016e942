"""Headless Chromium for the report tests: render a page, dump its DOM after scripts ran, take a screenshot,
and record any request the page tries to send through a loopback proxy.

Chromium is Debian's ``chromium`` package (``scripts/install.sh`` installs it for the tests); where it is
missing, ``NEEDS_CHROMIUM`` skips the tests that use it, with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

RENDER_TIMEOUT = 120


def chromium() -> str | None:
    """The Chromium binary (the Debian launcher script's target, which starts faster), or None."""
    for candidate in ("/usr/lib/chromium/chromium", "chromium", "chromium-browser"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


NEEDS_CHROMIUM = pytest.mark.skipif(
    chromium() is None, reason="chromium is not installed (scripts/install.sh test installs it with apt-get)"
)


@dataclass
class RecordingProxy:
    """A loopback HTTP proxy that answers nothing and remembers every request sent to it."""

    requests: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def seen(self, line: str) -> None:
        with self.lock:
            self.requests.append(line)


def _handler(proxy: RecordingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def _refuse(self) -> None:
            proxy.seen(self.requestline)
            self.send_error(502, "the report tests allow no network")

        do_GET = do_POST = do_HEAD = do_CONNECT = do_OPTIONS = _refuse

    return Handler


@contextmanager
def recording_proxy() -> Iterator[tuple[RecordingProxy, str]]:
    """A proxy on 127.0.0.1 and its address for ``--proxy-server``."""
    proxy = RecordingProxy()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(proxy))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def render(
    url: str,
    profile: Path,
    screenshot: Path | None = None,
    size: tuple[int, int] = (1280, 2400),
    proxy: str | None = None,
) -> str:
    """Load ``url`` in headless Chromium and return the DOM after its scripts ran; with ``screenshot``, also
    save a PNG of the first ``size`` pixels. Every request goes through ``proxy`` when given."""
    binary = chromium()
    assert binary is not None
    args = [
        binary,
        "--headless",
        "--no-sandbox",  # root in a container: Chromium's own sandbox cannot start
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
        "--virtual-time-budget=3000",
        "--dump-dom",
    ]
    if proxy is not None:
        args += [f"--proxy-server={proxy}", "--proxy-bypass-list=<-loopback>"]
    if screenshot is not None:
        args.append(f"--screenshot={screenshot}")
    done = subprocess.run(
        [*args, url], capture_output=True, text=True, timeout=RENDER_TIMEOUT, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


BROWSER_SERVICE_HOSTS = ("google.com", "googleapis.com", "gvt1.com", "gvt2.com")
"""Hosts Chromium itself calls in the background (clock, component updates, sign-in) whatever the page is;
the report tests check separately that a report names none of them."""


def page_requests(proxy: RecordingProxy) -> list[str]:
    """The requests the proxy saw, less Chromium's own background calls."""

    def host(line: str) -> str:
        target = line.split(" ")[1]
        return target.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]

    return [
        r for r in proxy.requests if not any(host(r) == h or host(r).endswith("." + h) for h in BROWSER_SERVICE_HOSTS)
    ]


@dataclass
class Node:
    """An element of a parsed page: its tag, attributes, children and the text directly inside it."""

    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    own_text: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(self.own_text) + "".join(c.text() for c in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def by_id(self, element_id: str) -> Node:
        found = [n for n in self.walk() if n.attrs.get("id") == element_id]
        assert len(found) == 1, f"{len(found)} elements with id {element_id!r}"
        return found[0]

    def all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.walk()
            if (tag is None or n.tag == tag) and (cls is None or cls in n.attrs.get("class", "").split())
        ]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def parse(page: str) -> Node:
    """A page as a tree of ``Node`` (enough HTML for the pages under test: they close what they open)."""
    from html.parser import HTMLParser

    root = Node("#root", {})
    stack = [root]

    class Builder(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            node = Node(tag, {k: v or "" for k, v in attrs})
            stack[-1].children.append(node)
            if tag not in VOID:
                stack.append(node)

        def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

        def handle_endtag(self, tag: str) -> None:
            for i in range(len(stack) - 1, 0, -1):
                if stack[i].tag == tag:
                    del stack[i:]
                    return

        def handle_data(self, data: str) -> None:
            stack[-1].own_text.append(data)

    builder = Builder(convert_charrefs=True)
    builder.feed(page)
    builder.close()
    return root
