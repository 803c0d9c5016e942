"""What stands in front of ``putnam mcp --transport http``: an API key on every request, and a Host and
Origin that name this server, so that neither another local process nor a web page reaches the tools.

The key: the MCP SDK's app is wrapped in ``api_keys.RequireKey``, the code ``putnam serve``'s gatekeeper
uses too (the same keys file format, ``Authorization: Bearer KEY``, SHA-256 digests compared in constant
time, never logged). A request without a key it knows is answered 401 before the SDK sees it.

Host and Origin (DNS rebinding: a page whose name its owner points at 127.0.0.1 sends its own name as
Host; a page posting cross-origin sends its own Origin). The SDK (``mcp`` 2.3.0) checks both in its
transport (``mcp/server/transport_security.py``, ``TransportSecurityMiddleware.validate_request``, lines
98-123: 421 for a Host not allowed, 403 for an Origin not allowed, a request without Origin allowed;
called by ``mcp/server/streamable_http.py`` line 506 and ``mcp/server/_streamable_http_modern.py`` lines
393-394 before a message is handled), but turns the check on by itself only when the app's ``host`` is
exactly ``127.0.0.1``, ``localhost`` or ``::1`` (``mcp/server/lowlevel/server.py`` lines 752-758); for any
other ``--host`` (``127.0.0.2``, ``0.0.0.0``) it is off (``transport_security.py`` line 47). So the
settings are given here, always on: the loopback names, and the ``--host`` address itself when it is one
address (not a wildcard), each with or without a port, and the names the operator allows with
``--allow-host`` (a server bound to ``0.0.0.0`` is reached by the machine's own name, which no check here
can guess): each one host name or address, checked as it is read (``allowed_host``), never a pattern.
The SDK compares Host and Origin as given, so a name is allowed as written in lower case, as clients send
it; an allowed name's Origin may be ``https`` too (a TLS proxy in front), the loopback names' only ``http``.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from putnam_solver.api_keys import App, KeyRing, RequireKey
from putnam_solver.core.util import InputError

HTTP_PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
HOST_NAME = re.compile(rf"{LABEL}(?:\.{LABEL})*", re.ASCII)
"""A DNS host name (RFC 1123 labels), in lower case; nothing else (no ``*``, port, path, user or space)."""


def allowed_host(given: str) -> str:
    """The Host name ``--allow-host given`` allows, as the SDK compares it: a host name in lower case, or an
    address (an IPv6 one in brackets, as a Host header gives it); an InputError for anything else, a
    wildcard address or a pattern above all (the check would then allow every name, as with none)."""
    text = given.strip().lower()
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        if bare == text and len(text) <= 253 and HOST_NAME.fullmatch(text.removesuffix(".")):
            return text.removesuffix(".")
        raise InputError(
            f"--allow-host {given!r}: not a host name or address; give one name a client uses to reach "
            "this server, e.g. --allow-host box.example (no port, scheme, path or wildcard)"
        ) from None
    if address.is_unspecified:
        raise InputError(f"--allow-host {given!r}: a wildcard address names no host; give the name clients use")
    return f"[{address}]" if address.version == 6 else str(address)


def host_names(host: str) -> tuple[str, ...]:
    """The names a Host header may give for a server listening on ``host``: the loopback names, and
    ``host`` itself (an IPv6 address in brackets) unless it is a wildcard address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        own = host.lower()
    else:
        own = "" if address.is_unspecified else f"[{address}]" if address.version == 6 else str(address)
    return LOOPBACK_NAMES if own in ("", *LOOPBACK_NAMES) else (*LOOPBACK_NAMES, own)


def transport_security(host: str, allowed: tuple[str, ...] = ()) -> TransportSecuritySettings:
    """The SDK's Host and Origin check, on whatever ``host`` is, with the ``allowed`` names (``--allow-host``,
    read by ``allowed_host``) besides (see the module's docstring)."""
    names = host_names(host)
    extra = tuple(dict.fromkeys(name for name in map(allowed_host, allowed) if name not in names))
    schemes = {**dict.fromkeys(names, ("http",)), **dict.fromkeys(extra, ("http", "https"))}
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[form for name in schemes for form in (name, f"{name}:*")],
        allowed_origins=[
            form
            for name, kinds in schemes.items()
            for scheme in kinds
            for form in (f"{scheme}://{name}", f"{scheme}://{name}:*")
        ],
    )


def http_app(server: MCPServer[Any], host: str, keys: KeyRing, allowed: tuple[str, ...] = ()) -> App:
    """The SDK's streamable HTTP app at ``HTTP_PATH`` with the Host and Origin check on, behind the key."""
    security = transport_security(host, allowed)
    app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host, transport_security=security)
    return RequireKey(app, keys)  # type: ignore[arg-type]
