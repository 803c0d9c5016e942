"""`putnam serve` keys (the same code reads and checks `putnam mcp --transport http`'s) and start-up: the
keys file's format, its errors (never showing a key), the constant-time match, the bearer header, and a
server that refuses to start with a clear message and exit 2."""

from __future__ import annotations

import hmac
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.util import InputError
from putnam_solver.listen import bind
from putnam_solver.serve import load_keys
from tests.helpers import ROCQ_SAMPLES

SECRET = "s3cret-0123456789abcdef"


def test_the_three_line_forms_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    path.write_text(f"# clients\n\n{SECRET}\nbob bob-key-0123456789abcdef\nrl rl-key-0123456789abcdef 8  \n")
    path.chmod(0o600)  # the keys file is this account's alone
    ring = load_keys(path)
    assert [(k.name, k.limit) for k in ring.keys] == [("key-3", None), ("bob", None), ("rl", 8)]
    found = ring.match(SECRET)
    assert found is not None and found.name == "key-3"
    assert ring.match("bob-key-0123456789abcdef") is ring.keys[1]
    assert ring.match(SECRET + "x") is None and ring.match("") is None and ring.match("\udcff") is None


def test_every_key_is_compared_whatever_matched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "keys"
    path.write_text("".join(f"k{n} key-{n}-0123456789abcdef\n" for n in range(5)))
    path.chmod(0o600)  # the keys file is this account's alone
    ring = load_keys(path)
    calls: list[int] = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: calls.append(1) or real(a, b))
    assert ring.match("key-0-0123456789abcdef") is ring.keys[0]
    assert len(calls) == 5


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "no keys in the keys file"),
        ("# only a comment\n\n", "no keys in the keys file"),
        ("short\n", "line 1: the key is not 16 to 256"),
        (f"a {SECRET} 2 extra\n", "line 1: 4 fields"),
        (f"a {SECRET} 0\n", "line 1: the limit must be"),
        (f"a {SECRET}\na other-0123456789abcdef\n", "line 2: the name 'a' is used twice"),
        (f"a {SECRET}\nb {SECRET}\n", "line 2: the same key as an earlier line"),
        (f"bad/name {SECRET}\n", "line 1: a key's name"),
    ],
)
def test_bad_keys_files_name_the_line_never_the_key(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "keys"
    path.write_text(content)
    path.chmod(0o600)  # the keys file is this account's alone
    with pytest.raises(InputError) as caught:
        load_keys(path)
    assert str(path) in str(caught.value) and words in str(caught.value)
    assert SECRET not in str(caught.value)


@pytest.fixture(autouse=True)
def _cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))


def serve(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES), *args])
    return result.exit_code, result.stderr


def test_serve_refuses_to_start_without_usable_keys(tmp_path: Path) -> None:
    code, stderr = serve("--keys", str(tmp_path / "missing"))
    assert code == 2 and "no such keys file" in stderr and "one key per line" in stderr
    code, stderr = serve("--keys", str(tmp_path))
    assert code == 2 and "cannot read the keys file" in stderr
    (tmp_path / "empty").write_text("\n")
    (tmp_path / "empty").chmod(0o600)
    code, stderr = serve("--keys", str(tmp_path / "empty"))
    assert code == 2 and "no keys in the keys file" in stderr
    assert "Traceback" not in stderr


def test_serve_refuses_a_port_in_use_and_a_file_for_two_provers(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.write_text(f"{SECRET}\n")
    keys.chmod(0o600)  # the keys file is this account's alone
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, stderr = serve("--keys", str(keys), "--host", "127.0.0.1", "--port", str(port))
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in stderr
    result = CliRunner().invoke(app, ["serve", "--keys", str(keys), "--benchmark", str(ROCQ_SAMPLES)])
    assert result.exit_code == 2 and "one benchmark file for 2 provers" in result.stderr


def test_the_listening_socket_is_tcp_by_protocol_number() -> None:
    """asyncio turns Nagle's algorithm off only on sockets whose protocol is IPPROTO_TCP; with it on,
    each response on a kept-alive connection waited about 40 ms for the client's delayed ACK."""
    with bind("127.0.0.1", 0, 8) as sock:
        assert sock.proto == socket.IPPROTO_TCP and sock.getsockname()[1] > 0


def test_keys_from_the_environment_when_no_file_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from putnam_solver.api_keys import KEYS_VARIABLE

    monkeypatch.setenv(KEYS_VARIABLE, "alice 0123456789abcdef0123;bob fedcba9876543210fedc 2")
    ring = load_keys(None)
    assert [(k.name, k.limit) for k in ring.keys] == [("alice", None), ("bob", 2)]
    monkeypatch.setenv(KEYS_VARIABLE, "alice short")
    with pytest.raises(InputError, match=r"\$PUTNAM_SERVE_KEYS line 1: the key is not 16 to 256") as bad:
        load_keys(None)
    assert "short" not in str(bad.value)
    monkeypatch.delenv(KEYS_VARIABLE)
    with pytest.raises(InputError, match="pass --keys FILE or set PUTNAM_SERVE_KEYS"):
        load_keys(None)


def test_the_bearer_header_both_services_read(tmp_path: Path) -> None:
    """``KeyRing.bearer`` is the one reading of ``Authorization`` for ``putnam serve`` and ``putnam mcp``."""
    from putnam_solver.api_keys import key_refusal

    path = tmp_path / "keys"
    path.write_text(f"alice {SECRET}\n")
    path.chmod(0o600)  # the keys file is this account's alone
    ring = load_keys(path)
    for header in (f"Bearer {SECRET}", f"bearer {SECRET}", f"BEARER   {SECRET}  "):
        assert (found := ring.bearer(header)) is not None and found.name == "alice", header
    for header in ("", "Bearer", "Bearer ", f"Basic {SECRET}", SECRET, f"Bearer {SECRET}x", f"Bearer {SECRET} x"):
        assert ring.bearer(header) is None, header
    assert key_refusal("").startswith("missing API key") and key_refusal("Bearer x").startswith("unknown API key")
    assert SECRET not in key_refusal(f"Bearer {SECRET}x")


def test_mcp_reads_its_own_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    from putnam_solver.api_keys import KEYS_VARIABLE, MCP_KEYS_VARIABLE

    monkeypatch.setenv(KEYS_VARIABLE, f"serve-client {SECRET}")
    monkeypatch.delenv(MCP_KEYS_VARIABLE, raising=False)
    with pytest.raises(InputError, match="pass --keys FILE or set PUTNAM_MCP_KEYS"):
        load_keys(None, MCP_KEYS_VARIABLE)
    monkeypatch.setenv(MCP_KEYS_VARIABLE, f"ide {SECRET}")
    assert [k.name for k in load_keys(None, MCP_KEYS_VARIABLE).keys] == ["ide"]


def test_require_key_answers_before_the_app_and_passes_lifespan(tmp_path: Path) -> None:
    import anyio

    from putnam_solver.api_keys import RequireKey

    path = tmp_path / "keys"
    path.write_text(f"alice {SECRET}\n")
    path.chmod(0o600)  # the keys file is this account's alone
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["type"])

    guard = RequireKey(app, load_keys(path))

    def call(kind: str, headers: list[tuple[bytes, bytes]]) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def receive() -> dict[str, Any]:
            raise AssertionError("the body is never read before the key")

        anyio.run(guard, {"type": kind, "headers": headers}, receive, send)
        return sent

    refused = call("http", [(b"authorization", b"Bearer wrong-0123456789abcdef")])
    assert refused[0]["status"] == 401 and (b"www-authenticate", b"Bearer") in refused[0]["headers"]
    assert b"unknown API key" in refused[1]["body"] and b"wrong-0123" not in refused[1]["body"]
    assert call("websocket", []) == [{"type": "websocket.close", "code": 1008}]
    assert reached == []
    assert call("http", [(b"Authorization", f"Bearer {SECRET}".encode())]) == [] and call("lifespan", []) == []
    assert reached == ["http", "lifespan"]
