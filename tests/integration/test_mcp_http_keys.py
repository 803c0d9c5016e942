"""``putnam mcp --transport http`` on loopback (red team: it had no authentication, so any local process, or
a web page by DNS rebinding, could call its tools). Every request now needs an API key, read and checked
by ``putnam serve``'s own code (``api_keys``), and the Host and Origin must name the server, on whatever
address it listens. Real servers on loopback, the MCP SDK's own client, raw HTTP for the refusals."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

pytest.importorskip("mcp")

from putnam_solver.mcp.http_guard import LOOPBACK_NAMES, host_names
from tests.helpers import ROCQ_SAMPLES
from tests.integration.mcp_driver import KEY, bearer, http_server, key_env, keyed_client, mcp_argv, server_env

ROCQ = ("--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES), "--no-selftest")
TOOLS = {"list_problems", "get_statement", "check", "goals", "search", "verify", "library_search", "find_declarations"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def post(url: str, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers}, timeout=30)


def tools_through_the_sdk(url: str, key: str = KEY) -> tuple[set[str], Any]:
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with keyed_client(url, key=key) as client:
            seen["tools"] = {t.name for t in (await client.list_tools()).tools}
            seen["problems"] = (await client.call_tool("list_problems", {})).structured_content

    anyio.run(main)
    return seen["tools"], seen["problems"]


def leaves(error: BaseException) -> list[BaseException]:
    """The exceptions inside the task groups' exception groups the SDK's client raises."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


def test_no_key_or_a_wrong_key_is_refused_401_and_the_right_key_reaches_the_tools(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.write_text(f"# the operator's clients\nide {KEY}\nother other-0123456789abcdef 2\n")
    keys.chmod(0o600)  # the keys file is this account's alone
    with http_server(*ROCQ, "--keys", str(keys), env={"PUTNAM_MCP_KEYS": ""}) as served:
        url, base = served.url, served.url.removesuffix("/mcp")
        refused = {
            "no key": post(url, {}),
            "wrong key": post(url, bearer("wrong-0123456789abcdef")),
            "a key's prefix": post(url, bearer(KEY[:-1])),
            "another scheme": post(url, {"Authorization": f"Basic {KEY}"}),
            "bearer, no key": post(url, {"Authorization": "Bearer"}),
            "GET, no key": httpx.get(url, headers={"Accept": "text/event-stream"}, timeout=30),
            "DELETE, no key": httpx.delete(url, timeout=30),
            "another path, no key": httpx.get(f"{base}/", timeout=30),
        }
        tools, problems = tools_through_the_sdk(url)
        other_tools, _ = tools_through_the_sdk(url, "other-0123456789abcdef")
        with pytest.raises(BaseException) as failed:  # the SDK's own client, with a wrong key
            tools_through_the_sdk(url, "wrong-0123456789abcdef")
    for name, response in refused.items():
        assert response.status_code == 401, (name, response.status_code, response.text)
        assert response.headers["www-authenticate"] == "Bearer", name
        detail = response.json()["detail"]
        assert "send `Authorization: Bearer KEY` with a key the operator gave you" in detail, (name, detail)
        assert KEY[:-1] not in response.text and "wrong-0123" not in response.text, "a sent key is never echoed"
    assert refused["no key"].json()["detail"].startswith("missing API key")
    assert refused["wrong key"].json()["detail"].startswith("unknown API key")
    assert [str(e) for e in leaves(failed.value)] == ["Server returned an error response"], failed.value
    assert tools == other_tools == TOOLS
    assert "sample_even_square" in str(problems)
    log = "".join(served.log)
    assert KEY not in log and "other-0123456789abcdef" not in log and "wrong-0123" not in log, log


def test_a_foreign_host_or_origin_is_refused_on_an_address_the_sdk_would_leave_open() -> None:
    """The SDK checks Host and Origin by itself only for the hosts 127.0.0.1, localhost and ::1; on
    127.0.0.2 (any other address) ``putnam mcp`` turns the check on itself."""
    with http_server(*ROCQ, "--host", "127.0.0.2") as served:
        url = served.url
        port = url.split(":")[2].split("/")[0]
        answers = {
            "own address": post(url, bearer()),
            "loopback name": post(url, {**bearer(), "Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}),
            "rebound name": post(url, {**bearer(), "Host": f"attacker.example:{port}"}),
            "rebound name, no port": post(url, {**bearer(), "Host": "attacker.example"}),
            "foreign origin": post(url, {**bearer(), "Origin": "http://attacker.example"}),
            "origin on another scheme": post(url, {**bearer(), "Origin": f"https://attacker.example:{port}"}),
            "rebound name, no key": post(url, {"Host": f"attacker.example:{port}"}),
        }
    assert url.startswith("http://127.0.0.2:")
    assert {name: r.status_code for name, r in answers.items()} == {
        "own address": 200,
        "loopback name": 200,
        "rebound name": 421,
        "rebound name, no port": 421,
        "foreign origin": 403,
        "origin on another scheme": 403,
        "rebound name, no key": 401,
    }


def test_http_without_keys_does_not_start_and_stdio_takes_none(tmp_path: Path) -> None:
    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            mcp_argv(*args, *ROCQ), env=server_env(env), capture_output=True, text=True, timeout=60, check=False
        )

    keyless = run("--transport", "http", "--port", "0")
    assert keyless.returncode == 2 and keyless.stdout == "", keyless.stderr
    assert "no API keys: pass --keys FILE or set PUTNAM_MCP_KEYS" in keyless.stderr
    bad = tmp_path / "keys"
    bad.write_text("ide short-key\n")
    bad.chmod(0o600)
    malformed = run("--transport", "http", "--port", "0", "--keys", str(bad))
    assert malformed.returncode == 2 and f"{bad} line 1: the key is not 16 to 256" in malformed.stderr
    assert "short-key" not in malformed.stderr
    serve_only = run("--transport", "http", "--port", "0", env={"PUTNAM_SERVE_KEYS": f"ide {KEY}"})
    assert serve_only.returncode == 2 and "PUTNAM_MCP_KEYS" in serve_only.stderr, "serve's keys are serve's"
    stdio_keys = run("--keys", str(bad), env=key_env())
    assert stdio_keys.returncode == 2 and "--keys is for --transport http" in stdio_keys.stderr
    closed = subprocess.run(
        mcp_argv(*ROCQ), env=server_env(key_env()), stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    assert closed.returncode == 0, "stdio needs no key"


@pytest.mark.parametrize(
    ("host", "own"),
    [
        ("127.0.0.1", None),
        ("localhost", None),
        ("::1", None),
        ("0.0.0.0", None),
        ("::", None),
        ("127.0.0.2", "127.0.0.2"),
        ("fd00::7", "[fd00::7]"),
        ("Box.Example", "box.example"),
    ],
)
def test_the_host_names_a_request_may_give(host: str, own: str | None) -> None:
    assert host_names(host) == (LOOPBACK_NAMES if own is None else (*LOOPBACK_NAMES, own))
