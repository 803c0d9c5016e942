"""API keys for ``putnam serve`` and ``putnam mcp --transport http``: read from a file the operator writes,
compared in constant time. Both services take the same file format and check the same header
(``Authorization: Bearer KEY``) with the same code: ``KeyRing.bearer`` and ``key_refusal`` here, in
``serve``'s gatekeeper and in :class:`RequireKey`, which ``putnam mcp`` puts in front of the MCP SDK's app.

The keys file has one key per line; blank lines and lines starting with ``#`` are skipped. A line is

- ``KEY``: a key, named ``key-<line number>`` in the logs;
- ``NAME KEY``: a key with the name the logs and error messages use for it;
- ``NAME KEY LIMIT``: the same, with its own limit of requests in flight (else the server's default).

A key is 16 to 256 printable ASCII characters without spaces (``openssl rand -hex 32`` makes one). The file
must be this account's alone (``read_keys_file``): the keys are the services' whole protection.
Keys are never logged or echoed: errors name the file and the line, logs and responses name the key's
NAME. Each key is kept as its SHA-256, and a presented key is hashed and compared with every stored
hash by ``hmac.compare_digest`` (no early exit), so the time taken tells nothing about any key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import stat
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.util import InputError

KEY_PATTERN = re.compile(r"[!-~]{16,256}")
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
KEYS_VARIABLE = "PUTNAM_SERVE_KEYS"
"""Keys given in the environment instead of a file (a secret store, a container), as the file's lines."""
MCP_KEYS_VARIABLE = "PUTNAM_MCP_KEYS"
"""The same for ``putnam mcp --transport http``: its own variable, so that its clients' keys are not serve's."""
KEYS_FILE_FORMAT = (
    "one key per line: KEY, or NAME KEY, or NAME KEY LIMIT (blank lines and lines starting with # are skipped)"
)


@dataclass(frozen=True)
class ApiKey:
    """A key as the server keeps it: its name, the SHA-256 of its text, its own in-flight limit."""

    name: str
    digest: bytes
    limit: int | None = None


class KeyRing:
    """The keys the server accepts."""

    def __init__(self, keys: Sequence[ApiKey]) -> None:
        self.keys = tuple(keys)

    def match(self, presented: str) -> ApiKey | None:
        """The key ``presented`` is, or None; every stored key is compared, whatever matched before."""
        digest = hashlib.sha256(presented.encode("utf-8", "surrogateescape")).digest()
        found: ApiKey | None = None
        for key in self.keys:
            if hmac.compare_digest(key.digest, digest):
                found = key
        return found

    def bearer(self, authorization: str) -> ApiKey | None:
        """The key an ``Authorization`` header's value presents as ``Bearer KEY`` (any case of the scheme),
        or None: no header, another scheme, an empty or unknown key."""
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            return None
        return self.match(value.strip())


def key_refusal(authorization: str) -> str:
    """What a request refused for its key is told (the key it sent is never repeated)."""
    why = "missing API key" if not authorization else "unknown API key"
    return f"{why}: send `Authorization: Bearer KEY` with a key the operator gave you"


def load_keys(path: Path | None, variable: str = KEYS_VARIABLE) -> KeyRing:
    """The keys of ``path``, else of ``$variable`` (the same lines, ``;`` also ending one); an
    InputError naming the file or variable, the line and the fix if it is missing, unreadable, empty or
    malformed (a malformed line is reported without its text: it may hold a key)."""
    if path is None:
        text = os.environ.get(variable)
        if not text:
            raise InputError(f"no API keys: pass --keys FILE or set {variable} ({KEYS_FILE_FORMAT})")
        return parse_keys(text.replace(";", "\n"), f"${variable}")
    try:
        text = read_keys_file(path).decode("utf-8-sig")  # a Windows editor's byte order mark is no key's
    except FileNotFoundError as exc:
        if looks_like_a_key(str(path)):
            raise InputError(
                "--keys names no file, and what it names looks like a key itself, which is never shown (an error "
                "can reach a log): write the key in a keys file and pass its path, or give the lines in "
                f"${variable} ({KEYS_FILE_FORMAT})"
            ) from exc
        raise InputError(f"{path}: no such keys file; write one ({KEYS_FILE_FORMAT})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"{path}: cannot read the keys file: {why}") from exc
    return parse_keys(text, str(path))


def looks_like_a_key(given: str) -> bool:
    """Whether a ``--keys`` value that names no file is a key passed by mistake (``--keys $KEY``, red team
    round 9 of the trust paths: the error printed it, into whatever log keeps the service's stderr): one
    word a key could be, without the ``/`` or ``.`` of a path or a file name."""
    return KEY_PATTERN.fullmatch(given) is not None and not any(c in given for c in "/.")


MAX_KEYS_FILE_BYTES = 1 << 20
OTHERS_MAY = 0o027
"""Permission bits that let another account use the keys file: any for others, and writing for the group (a
group may share reading a secret mounted for it; whoever can write the file can add a key of its own)."""


def read_keys_file(path: Path) -> bytes:
    """The keys file's bytes, if it is one this account alone controls (red team round 9 of the trust paths:
    ``openssl rand ... > keys.txt`` under the usual umask made a file every account of the machine could read,
    so any local process had a key; a file others could write let them add one; a FIFO named as the file
    blocked the server's start for good). Opened without blocking; refused, with the fix, when it is not a
    regular file, is owned by an account other than this one or root, is readable or writable by others
    (``OTHERS_MAY``) or is over ``MAX_KEYS_FILE_BYTES``. A link to such a file (a mounted secret) is followed."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO, socket or device"
            raise InputError(f"{path}: cannot read the keys file: {kind}, not a regular file")
        if info.st_uid not in (os.geteuid(), 0):
            raise InputError(
                f"{path}: the keys file belongs to another account (uid {info.st_uid}), which can change its keys; "
                "write it as this user and `chmod 600` it"
            )
        if info.st_mode & OTHERS_MAY:
            raise InputError(
                f"{path}: other accounts can {'write' if info.st_mode & 0o022 else 'read'} the keys file (mode "
                f"{info.st_mode & 0o777:03o}), so they can use or add a key; `chmod 600 {path}` (or give the keys "
                "in the environment)"
            )
        if info.st_size > MAX_KEYS_FILE_BYTES:
            raise InputError(f"{path}: {info.st_size} bytes, not a keys file (at most {MAX_KEYS_FILE_BYTES})")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_KEYS_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_KEYS_FILE_BYTES:
        raise InputError(f"{path}: grew past {MAX_KEYS_FILE_BYTES} bytes while read; not a keys file")
    return data


def parse_keys(text: str, origin: str) -> KeyRing:
    """The keys of a keys file's ``text``; ``origin`` names where it came from in every message."""
    keys: list[ApiKey] = []
    names: set[str] = set()
    digests: set[bytes] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        key = _parse_line(origin, number, fields)
        if key.name in names:
            raise InputError(f"{origin} line {number}: the name {key.name!r} is used twice; give each key its own")
        if key.digest in digests:
            raise InputError(f"{origin} line {number}: the same key as an earlier line; give each client its own")
        names.add(key.name)
        digests.add(key.digest)
        keys.append(key)
    if not keys:
        raise InputError(f"{origin}: no keys in the keys file; add one ({KEYS_FILE_FORMAT})")
    return KeyRing(keys)


def _parse_line(origin: str, number: int, fields: list[str]) -> ApiKey:
    where = f"{origin} line {number}"
    if len(fields) > 3:
        raise InputError(f"{where}: {len(fields)} fields; {KEYS_FILE_FORMAT}")
    name, secret, limit = (f"key-{number}", fields[0], None) if len(fields) == 1 else (fields[0], fields[1], None)
    if len(fields) == 3:
        if not fields[2].isdigit() or int(fields[2]) < 1:
            raise InputError(f"{where}: the limit must be a whole number of at least 1")
        limit = int(fields[2])
    if not NAME_PATTERN.fullmatch(name):
        raise InputError(f"{where}: a key's name is 1 to 64 letters, digits or _.@-")
    if not KEY_PATTERN.fullmatch(secret):
        raise InputError(
            f"{where}: the key is not 16 to 256 printable ASCII characters without spaces "
            "(make one with `openssl rand -hex 32`)"
        )
    return ApiKey(name, hashlib.sha256(secret.encode("ascii")).digest(), limit)


# ------------------------------------------------------------------------------------------------ ASGI

Scope = MutableMapping[str, object]
Send = Callable[[dict[str, object]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, object]]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def header(scope: Scope, name: bytes) -> str:
    """The value of request header ``name`` (lower case) of an ASGI ``scope``, "" when it has none; bytes
    that are not ASCII are kept as surrogates, so that they can only fail to match a key."""
    for key, value in scope.get("headers", ()):  # type: ignore[attr-defined]
        if key.lower() == name:
            return str(value.decode("ascii", "surrogateescape"))
    return ""


async def send_refusal(
    send: Send, status: int, body: dict[str, object], headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Answer an HTTP request with ``status`` and the JSON ``body``; a 401 names the scheme it wants."""
    data = json.dumps(body).encode()
    fields = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), *headers]
    if status == 401:
        fields.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": data})


class RequireKey:
    """ASGI middleware: every HTTP request must present a key of ``keys`` (``KeyRing.bearer``), checked
    before the wrapped app sees the request or reads a byte of its body; any other is answered 401 with
    ``key_refusal``'s message. A WebSocket handshake without a key is closed unaccepted; lifespan events
    pass through."""

    def __init__(self, app: App, keys: KeyRing) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket"):
            given = header(scope, b"authorization")
            if self.keys.bearer(given) is None:
                if kind == "http":
                    await send_refusal(send, 401, {"status": 401, "detail": key_refusal(given)})
                else:
                    await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)
