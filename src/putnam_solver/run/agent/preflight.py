"""Before the first model call: can a connection to the model's server be opened at all?

A server that refuses every connection (not started, wrong port, wrong host) would otherwise show only
as Inspect retrying with growing backoff for minutes. One TCP connection, no request, nothing spent:
refused, unresolvable or unroutable is reported at once; a slow answer is left to the run (its retries
show in the progress). Where a proxy stands between us and the server, only the proxy could tell, so
nothing is checked.
"""

from __future__ import annotations

import socket
import urllib.request
from urllib.parse import urlsplit

CONNECT_TIMEOUT_SECONDS = 5.0


def unreachable(url: str, timeout: float = CONNECT_TIMEOUT_SECONDS) -> str | None:
    """Why no connection to the server at ``url`` can be opened, or None if one can (or cannot be told)."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host or parts.scheme not in ("http", "https"):
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return f"{url} has no valid port"
    if _proxied(parts.scheme, host):
        return None
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except TimeoutError:
        return None
    except socket.gaierror as exc:
        return f"cannot resolve the host {host} ({exc.strerror})"
    except OSError as exc:
        return f"{exc.strerror or exc} (connecting to {host} port {port})".lower()


def _proxied(scheme: str, host: str) -> bool:
    proxies = urllib.request.getproxies()
    return bool(proxies.get(scheme) or proxies.get("all")) and not urllib.request.proxy_bypass(host)
