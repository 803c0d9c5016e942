"""Red team round 9 of the trust paths: who may reach ``putnam serve`` and ``putnam mcp``, and what a selftest
that could not keep its record still shows.

- The keys file is the services' whole protection, and it was read whatever its mode and owner: the README's
  ``openssl rand -hex 32 | sed ... > keys.txt`` under the usual umask (022) made a file every account of the
  machine could read, so any local process had a key; one others could write let them add a key of their own;
  one another account owned could be rewritten by it; and a FIFO named as the file blocked the start for good.
  Now ``api_keys.read_keys_file`` refuses each with the fix (``chmod 600``), for ``putnam serve`` and ``putnam
  mcp --transport http`` alike (the same code), and follows a link to a file this account alone controls (a
  mounted secret); the keys given in the environment are unchanged.
- ``putnam mcp --transport http --host 0.0.0.0`` answered only requests naming a loopback host, so clients on
  the network could not use it at all; ``--allow-host NAME`` (repeatable) adds names, each refused at start
  when it is a pattern, a wildcard address or anything but one host name or address (a pattern would let any
  rebound name in). Real servers on loopback and the MCP SDK's own client, sending the Host it is given.
- ``putnam selftest`` printed nothing of the canaries it had judged when its record could not be written (a
  full disk): the table is now printed, then the error about the record, exit 2.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from putnam_solver.api_keys import load_keys
from putnam_solver.cli import app
from putnam_solver.core.util import InputError
from tests.helpers import ROCQ_SAMPLES, SANDBOX_AVAILABLE

KEY = "rt9-services-0123456789abcdef"
NOBODY = 65534
ROCQ = ("--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES), "--no-selftest")


def keys_file(path: Path, mode: int) -> Path:
    path.write_text(f"ide {KEY}\n")
    path.chmod(mode)
    return path


# -- the keys file ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "says"), [(0o644, "read"), (0o604, "read"), (0o620, "write"), (0o666, "write")])
def test_a_keys_file_other_accounts_can_read_or_write_is_refused_with_the_fix(
    tmp_path: Path, mode: int, says: str
) -> None:
    path = keys_file(tmp_path / "keys.txt", mode)
    with pytest.raises(InputError) as refused:
        load_keys(path)
    message = str(refused.value)
    assert f"other accounts can {says} the keys file (mode {mode:03o})" in message, message
    assert f"chmod 600 {path}" in message and KEY not in message


def test_a_keys_file_another_account_owns_is_refused(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another account needs root")
    path = keys_file(tmp_path / "keys.txt", 0o600)
    os.chown(path, NOBODY, NOBODY)
    with pytest.raises(InputError, match=f"belongs to another account \\(uid {NOBODY}\\)"):
        load_keys(path)


def test_a_fifo_named_as_the_keys_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "keys.txt"
    os.mkfifo(fifo, 0o600)
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", "serve", "--keys", str(fifo), *ROCQ[:4]],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "cannot read the keys file: a FIFO, socket or device, not a regular file" in done.stderr


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o640])
def test_a_keys_file_this_account_alone_controls_is_read(tmp_path: Path, mode: int) -> None:
    """Group reading stays allowed: a secret mounted for the service's group is shared on purpose."""
    ring = load_keys(keys_file(tmp_path / "keys.txt", mode))
    assert ring.match(KEY) is not None and ring.keys[0].name == "ide"


def test_a_link_to_a_keys_file_is_followed_as_a_mounted_secret_is(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "keys").symlink_to(keys_file(tmp_path / "data" / "keys.txt", 0o600))
    assert load_keys(tmp_path / "keys").match(KEY) is not None


def test_serve_and_mcp_refuse_to_start_on_a_readable_keys_file_and_start_on_their_own(tmp_path: Path) -> None:
    readable = keys_file(tmp_path / "open.txt", 0o644)
    serve = CliRunner().invoke(app, ["serve", "--keys", str(readable), *ROCQ[:4]])
    assert serve.exit_code == 2 and "other accounts can read the keys file" in serve.stderr
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src"), "PUTNAM_MCP_KEYS": ""}
    argv = [sys.executable, "-m", "putnam_solver", "mcp", "--transport", "http", "--port", "0", *ROCQ]
    mcp = subprocess.run([*argv, "--keys", str(readable)], env=env, capture_output=True, text=True, timeout=120)
    assert mcp.returncode == 2 and "other accounts can read the keys file" in mcp.stderr, mcp.stderr
    assert KEY not in serve.stderr + mcp.stderr
    from tests.integration.mcp_driver import http_server

    own = keys_file(tmp_path / "own.txt", 0o600)
    with http_server(*ROCQ, "--keys", str(own), env={"PUTNAM_MCP_KEYS": ""}) as served:
        answer = httpx.post(served.url, headers={"Authorization": f"Bearer {KEY}", **HEADERS}, json=INIT, timeout=30)
    assert answer.status_code == 200


def test_a_key_passed_where_the_keys_file_goes_is_never_printed(tmp_path: Path) -> None:
    """``--keys $KEY`` by mistake: the error named the missing file, the key, on stderr (and so in the log of
    the service's unit or container); a path that names no file is still named."""
    serve = CliRunner().invoke(app, ["serve", "--keys", KEY, *ROCQ[:4]])
    assert serve.exit_code == 2 and "looks like a key itself, which is never shown" in serve.stderr
    assert "PUTNAM_SERVE_KEYS" in serve.stderr and KEY not in serve.stderr + serve.stdout
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    argv = [sys.executable, "-m", "putnam_solver", "mcp", "--transport", "http", "--port", "0", *ROCQ]
    mcp = subprocess.run([*argv, "--keys", KEY], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert mcp.returncode == 2 and "PUTNAM_MCP_KEYS" in mcp.stderr and KEY not in mcp.stderr + mcp.stdout
    missing = CliRunner().invoke(app, ["serve", "--keys", str(tmp_path / "keys.txt"), *ROCQ[:4]])
    assert missing.exit_code == 2 and f"{tmp_path / 'keys.txt'}: no such keys file" in missing.stderr


def test_a_keys_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """A Windows editor's mark before the first line was read as part of the first key's name (refused)."""
    path = tmp_path / "keys.txt"
    path.write_bytes(f"\ufeffide {KEY}\n".encode())
    path.chmod(0o600)
    ring = load_keys(path)
    assert ring.keys[0].name == "ide" and ring.match(KEY) is ring.keys[0]


# -- putnam mcp --allow-host --------------------------------------------------------------------------------

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def tools_as(url: str, host: str) -> set[str]:
    """The tools the MCP SDK's client lists when it reaches ``url`` naming ``host`` as the Host."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from tests.integration.mcp_driver import bearer

    seen: set[str] = set()

    async def main() -> None:
        async with (
            create_mcp_http_client(headers={**bearer(), "Host": host}) as http,
            Client(streamable_http_client(url, http_client=http), read_timeout_seconds=120) as client,
        ):
            seen.update(t.name for t in (await client.list_tools()).tools)

    anyio.run(main)
    return seen


def test_a_wildcard_server_answers_the_names_allowed_and_no_other() -> None:
    pytest.importorskip("mcp")
    from tests.integration.mcp_driver import bearer, http_server

    with http_server(*ROCQ, "--host", "0.0.0.0", "--allow-host", "Box.Example", "--allow-host", "10.0.0.5") as s:
        port = s.url.split(":")[2].split("/")[0]
        url = f"http://127.0.0.1:{port}/mcp"
        through_sdk = tools_as(url, f"box.example:{port}")

        def status(host: str, origin: str | None = None) -> int:
            headers = {**HEADERS, **bearer(), "Host": host, **({"Origin": origin} if origin else {})}
            return httpx.post(url, json=INIT, headers=headers, timeout=30).status_code

        answers = {
            "allowed name": status(f"box.example:{port}", f"https://box.example:{port}"),
            "allowed address": status(f"10.0.0.5:{port}"),
            "loopback": status(f"localhost:{port}", f"http://localhost:{port}"),
            "a name not allowed": status(f"attacker.example:{port}"),
            "a name ending like an allowed one": status(f"evil-box.example:{port}"),
            "an allowed name's subdomain": status(f"x.box.example:{port}"),
            "a foreign origin": status(f"box.example:{port}", "http://attacker.example"),
        }
    assert {"list_problems", "verify", "check"} <= through_sdk
    assert answers == {
        "allowed name": 200,
        "allowed address": 200,
        "loopback": 200,
        "a name not allowed": 421,
        "a name ending like an allowed one": 421,
        "an allowed name's subdomain": 421,
        "a foreign origin": 403,
    }


def test_without_allow_host_a_wildcard_server_still_answers_loopback_only() -> None:
    pytest.importorskip("mcp")
    from tests.integration.mcp_driver import bearer, http_server

    with http_server(*ROCQ, "--host", "0.0.0.0") as served:
        port = served.url.split(":")[2].split("/")[0]
        url = f"http://127.0.0.1:{port}/mcp"
        named = httpx.post(url, json=INIT, headers={**HEADERS, **bearer(), "Host": f"box.example:{port}"}, timeout=30)
        loopback = tools_as(url, f"127.0.0.1:{port}")
    assert named.status_code == 421 and "list_problems" in loopback


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("*", "not a host name or address"),
        ("*.example", "not a host name or address"),
        ("box.example:8000", "not a host name or address"),
        ("http://box.example", "not a host name or address"),
        ("box.example/mcp", "not a host name or address"),
        ("", "not a host name or address"),
        ("0.0.0.0", "a wildcard address names no host"),
        ("[::]", "a wildcard address names no host"),
    ],
)
def test_an_allowed_name_that_is_a_pattern_or_wildcard_is_refused_at_start(name: str, says: str) -> None:
    pytest.importorskip("mcp")
    from tests.integration.mcp_driver import key_env, mcp_argv, server_env

    argv = mcp_argv("--transport", "http", "--port", "0", "--host", "0.0.0.0", "--allow-host", name, *ROCQ)
    done = subprocess.run(argv, env=server_env(key_env()), capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "serving streamable HTTP" not in done.stderr


def test_allow_host_is_refused_over_stdio_and_documented_in_help() -> None:
    pytest.importorskip("mcp")
    from tests.integration.mcp_driver import mcp_argv, server_env

    done = subprocess.run(
        mcp_argv("--allow-host", "box.example", *ROCQ),
        env=server_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "--allow-host is for --transport http" in done.stderr
    from tests.integration.test_cli_help_and_messages import _option_help

    shown = _option_help("mcp", "--allow-host")
    assert "NAME" in shown and "repeat it for each name" in shown and "no port, scheme or wildcard" in shown, shown


# -- putnam selftest when its record cannot be written ------------------------------------------------------


@pytest.mark.skipif(not SANDBOX_AVAILABLE, reason="needs the sandbox and coqc")
def test_selftest_prints_its_table_then_the_record_error_when_the_record_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two real canaries (the good sample and the one coqc refuses), judged by real coqc; the record's write
    meets a full disk (``write_below`` raising ENOSPC, as ``test_selftest_record_write`` makes it)."""
    from putnam_solver.selftest import record as record_module
    from putnam_solver.selftest import runner

    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    (suite,) = [s for s in runner.suites_for("rocq") if s.needs != "mathlib"][:1]
    good = next(c for c in suite.canaries if c.known_good)
    bad = next(c for c in suite.canaries if "G4" in c.refuse or "G3" in c.refuse)
    small = dataclasses.replace(suite, canaries=(good, bad))
    monkeypatch.setattr(runner, "suites_for", lambda prover: (small,))
    honest = CliRunner().invoke(app, ["selftest", "--prover", "rocq", "--jobs", "1"])

    def full(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record_module, "write_below", full)
    failed = CliRunner().invoke(app, ["selftest", "--prover", "rocq", "--jobs", "1"])
    assert honest.exit_code == 0, honest.stdout + honest.stderr
    assert failed.exit_code == 2, failed.stdout + failed.stderr
    timed = re.compile(r"\d+\.\d+ s")
    assert timed.sub("T s", failed.stdout) == timed.sub("T s", honest.stdout), "the same table, record or not"
    assert good.name in failed.stdout and bad.name in failed.stdout and "selftest of rocq passed" in failed.stdout
    assert "error:" in failed.stderr and "free space on the disk" in failed.stderr, failed.stderr
    assert "Traceback" not in failed.stderr
