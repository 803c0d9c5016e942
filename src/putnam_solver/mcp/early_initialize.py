"""The answer to a client's ``initialize``, made without the MCP SDK: ``putnam mcp`` writes it before the
SDK is imported, which takes about a second (some 600 pydantic models), so that a client's start-up
timeout is never spent waiting for it (``mcp.stdio`` hands the session to the SDK afterwards).

The answer is the SDK's own, rebuilt: its ``initialize`` handler (``ServerRunner._handle_initialize``
and ``_negotiate_initialize`` in ``mcp/server/runner.py`` of mcp 2.3.0) answers the version the client
asked for when it is one of the handshake versions (``mcp_types/version.py``), else the newest of them,
with the capabilities its low-level server derives from the handlers ``MCPServer`` always registers
(``Server.get_capabilities``) and the name, version and instructions ``build_server`` gives it, all from
``server_identity``. A test holds this answer equal to the SDK's for every prover and several asked
versions (``tests/integration/test_mcp_early_initialize.py``).

Only a request that the SDK certainly accepts is answered here; anything else (not JSON, not an
``initialize``, a batch, an id or params of another shape, a ``_meta``, a capability that is not an
object) is left to the SDK, whose own answer or error then goes to the client unchanged. The checks
are narrower than the SDK's validation (``InitializeRequestParams`` of ``mcp_types``), never wider.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from putnam_solver import __version__

SERVER_NAME = "putnam"
INSTRUCTIONS = """\
Formal proofs for {label}, judged by the putnambench-solver gates (never by a model).
Start with list_problems, then get_statement(problem) for the file to complete: keep it exactly as given
and fill in every proof hole. Call check(problem, proof) often (fast gates: statement kept, nothing
forbidden, compiles), goals(problem, proof, line) for the proof state, search(pattern) for library lemma
names (and, where offered, library_search for the prover's own search by type, find_declarations for
declarations ranked against a goal), and verify(problem, proof) for the final verdict (every gate of the
full profile)."""

HANDSHAKE_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""``mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS``: the versions the SDK agrees to in ``initialize``."""
LATEST_HANDSHAKE_VERSION = HANDSHAKE_PROTOCOL_VERSIONS[-1]
"""What the SDK answers to a client asking for any other version (an older, a newer or an unknown one)."""
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
"""The capabilities ``MCPServer``'s handlers give (its prompts, resources and tools; no change
notifications, no subscriptions), as the SDK writes them for a handshake version."""

CLIENT_INFO_TEXTS = frozenset({"name", "version", "title", "description", "websiteUrl"})
"""``clientInfo`` fields accepted here, each a string (``Implementation``; its ``icons`` are left to the
SDK)."""
MAX_ID = 2**63
"""Integer ids beyond a 64-bit integer are left to the SDK."""
MAX_DEPTH = 8
"""Capabilities nested deeper are left to the SDK (the deepest it defines are four objects deep)."""


@dataclass(frozen=True)
class ServerIdentity:
    """What a ``putnam mcp`` server says of itself in ``initialize``."""

    name: str
    version: str
    instructions: str


def server_identity(prover_label: str) -> ServerIdentity:
    """The server's name, version and instructions for the prover named ``prover_label``: given to the
    SDK's server by ``build_server`` and written by the early answer, so that the two agree."""
    return ServerIdentity(SERVER_NAME, __version__, INSTRUCTIONS.format(label=prover_label))


def negotiated_version(asked: str) -> str:
    """The protocol version the SDK answers to a client asking for ``asked``."""
    return asked if asked in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION


def initialize_response(line: bytes, identity: ServerIdentity) -> dict[str, Any] | None:
    """The JSON-RPC response the SDK gives to ``line`` when it is a well-formed ``initialize`` request
    (one line of the stdio transport, its newline included), else None."""
    request = parsed(line)
    if request is None or set(request) != {"jsonrpc", "id", "method", "params"}:
        return None
    request_id, params = request["id"], request["params"]
    if request["jsonrpc"] != "2.0" or request["method"] != "initialize" or not valid_id(request_id):
        return None
    if not isinstance(params, dict) or set(params) != {"protocolVersion", "capabilities", "clientInfo"}:
        return None
    asked, capabilities, client = params["protocolVersion"], params["capabilities"], params["clientInfo"]
    if not isinstance(asked, str) or not valid_capabilities(capabilities) or not valid_client(client):
        return None
    result = {
        "protocolVersion": negotiated_version(asked),
        "capabilities": CAPABILITIES,
        "serverInfo": {"name": identity.name, "version": identity.version},
        "instructions": identity.instructions,
    }
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def parsed(line: bytes) -> dict[str, Any] | None:
    """The JSON object of one line, None where the SDK might read it otherwise: invalid UTF-8 (the SDK
    replaces it), a carriage return before the end (the SDK's text stream ends a line there), NaN or
    Infinity, a key given twice, a lone surrogate escaped (``\\ud800``: its JSON parser refuses it), or
    anything but an object."""
    body = line.removesuffix(b"\n").removesuffix(b"\r")
    if not line.endswith(b"\n") or b"\r" in body:
        return None
    try:
        value = json.loads(body.decode("utf-8"), parse_constant=refuse, object_pairs_hook=unique_keys)
        encoded(value)  # a lone surrogate cannot be encoded
    except (UnicodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def refuse(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def valid_id(value: object) -> bool:
    """A JSON-RPC id the SDK echoes as it is: a string, or an integer (not a boolean) within 64 bits."""
    return isinstance(value, str) or (type(value) is int and -MAX_ID < value < MAX_ID)


def valid_capabilities(value: object) -> bool:
    """Client capabilities that are objects all the way down, at most ``MAX_DEPTH`` deep (``listChanged``
    of ``roots`` may be a boolean): every field of ``ClientCapabilities`` is an object of optional objects
    but that one."""
    if not isinstance(value, dict):
        return False
    roots = value.get("roots")
    if isinstance(roots, dict) and isinstance(roots.get("listChanged"), bool):
        value = {**value, "roots": {k: v for k, v in roots.items() if k != "listChanged"}}
    return all_objects(value)


def all_objects(value: object, depth: int = MAX_DEPTH) -> bool:
    return depth > 0 and isinstance(value, dict) and all(all_objects(v, depth - 1) for v in value.values())


def valid_client(value: object) -> bool:
    """``clientInfo``: a name and a version, and optionally a title, a description and a website, all
    strings."""
    return (
        isinstance(value, dict)
        and {"name", "version"} <= value.keys() <= CLIENT_INFO_TEXTS
        and all(isinstance(v, str) for v in value.values())
    )


def encoded(message: object) -> bytes:
    """One line of the stdio transport, as the SDK writes its messages (compact JSON, UTF-8, a newline)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
