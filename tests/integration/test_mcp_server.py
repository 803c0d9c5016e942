"""``putnam mcp`` with the MCP SDK's own client: over stdio (the client starts ``putnam mcp``) and over
streamable HTTP (the server on a free loopback port). Rocq runs for real (coqc, the trusted check,
coqchk); Lean runs what runs here: its text gates on PutnamBench, the toy Lean for ``check``, and the
full profile failing closed where comparator is missing."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

pytest.importorskip("mcp")

from mcp import Client

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.problem_selection import select_problems
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import DATA_ROOT, LEAN_BENCH, REPO, ROCQ_SAMPLES
from tests.integration.mcp_driver import (
    bearer,
    http_server,
    key_env,
    mcp_argv,
    over_http,
    over_stdio,
    server_env,
    structured,
    text,
)
from tests.toylean.build import BENCHMARK as LEAN_SAMPLES
from tests.toylean.build import VALID as LEAN_PROOFS
from tests.toylean.build import ToyLean

ROCQ_PROOFS = ROCQ_SAMPLES.parent / "proofs"
GOOD = (ROCQ_PROOFS / "sample_even_square.v").read_text()
WRONG = GOOD.replace("destruct (Nat.even n); reflexivity.", "reflexivity.")
ANSWERED = "sample_sum_odds"
OFFICIAL = "fun n => n * n"
TOOLS = {"list_problems", "get_statement", "check", "goals", "search", "verify", "library_search", "find_declarations"}

ROCQ = ("--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES))


@NEEDS_ROCQ
def test_over_stdio_the_tools_judge_a_real_rocq_proof_and_a_wrong_one() -> None:
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["tools"] = {t.name for t in (await client.list_tools()).tools}
        seen["problems"] = structured(await client.call_tool("list_problems", {"prefix": "sample_"}))
        seen["statement"] = structured(await client.call_tool("get_statement", {"problem": "sample_even_square"}))
        seen["check_good"] = text(await client.call_tool("check", {"problem": "sample_even_square", "proof": GOOD}))
        seen["check_wrong"] = text(await client.call_tool("check", {"problem": "sample_even_square", "proof": WRONG}))
        seen["verify_good"] = structured(
            await client.call_tool("verify", {"problem": "sample_even_square", "proof": GOOD})
        )
        seen["verify_wrong"] = structured(
            await client.call_tool("verify", {"problem": "sample_even_square", "proof": WRONG})
        )
        seen["search"] = text(await client.call_tool("search", {"pattern": "Lemma even_mul "}))
        seen["library_search"] = text(
            await client.call_tool(
                "library_search", {"problem": "sample_even_square", "command": "Search", "query": "Nat.even Nat.mul"}
            )
        )
        seen["injection"] = text(
            await client.call_tool(
                "library_search", {"problem": "sample_even_square", "command": "Search", "query": "nat. Quit"}
            )
        )
        seen["ranked"] = text(await client.call_tool("find_declarations", {"query": "even mul"}))
        seen["goals"] = text(
            await client.call_tool("goals", {"problem": "sample_even_square", "proof": GOOD, "line": 7})
        )

    over_stdio(session, *ROCQ)
    assert seen["tools"] == TOOLS
    ids = [p["id"] for p in seen["problems"]["problems"]]
    assert "sample_even_square" in ids and ids == sorted(ids)
    assert {"id": ANSWERED, "has_answer": True} in seen["problems"]["problems"]
    assert seen["statement"]["file_name"] == "SampleEvenSquare.v"
    assert "Theorem sample_even_square" in seen["statement"]["statement"]
    assert seen["check_good"].startswith("PASSED the fast gates G1, G2, G3, G4"), seen["check_good"]
    assert "G4 compile: failed" in seen["check_wrong"], seen["check_wrong"]
    assert "|   reflexivity." in seen["check_wrong"], "the offending line is shown under the error"
    good = seen["verify_good"]
    assert good["status"] == "accepted" and good["profile"] == "full"
    assert [g["id"] for g in good["gates"]] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert all(g["status"] == "passed" for g in good["gates"])
    wrong = seen["verify_wrong"]
    assert wrong["status"] == "rejected"
    assert {g["id"]: g["status"] for g in wrong["gates"]}["G4"] == "failed"
    assert wrong["candidate_sha256"] != good["candidate_sha256"]
    assert "NZParity.v:" in seen["search"] and "even (mul n m)" in seen["search"], seen["search"]
    assert "n : nat" in seen["goals"] and "Nat.even" in seen["goals"], seen["goals"]
    assert "even_mul" in seen["library_search"], seen["library_search"]
    assert "even_mul" not in seen["injection"] and "refused" in seen["injection"].lower(), seen["injection"]
    assert "even_mul" in seen["ranked"], seen["ranked"]


@NEEDS_ROCQ
def test_no_answer_never_shows_the_official_answer() -> None:
    seen: dict[str, Any] = {}
    mine = (ROCQ_PROOFS / f"{ANSWERED}.v").read_text().replace(OFFICIAL, "fun k => k * k")

    async def session(client: Client) -> None:
        for track in ("with-answer", "no-answer"):
            seen[track] = structured(await client.call_tool("get_statement", {"problem": ANSWERED, "track": track}))
        seen["verify"] = await client.call_tool("verify", {"problem": ANSWERED, "proof": mine, "track": "no-answer"})

    async def no_answer_server(client: Client) -> None:
        seen["default"] = structured(await client.call_tool("get_statement", {"problem": ANSWERED}))
        seen["refused"] = await client.call_tool("get_statement", {"problem": ANSWERED, "track": "with-answer"})
        seen["check_refused"] = await client.call_tool(
            "check", {"problem": ANSWERED, "proof": "x", "track": "with-answer"}
        )

    over_stdio(session, *ROCQ)
    over_stdio(no_answer_server, *ROCQ, "--track", "no-answer")
    assert OFFICIAL in seen["with-answer"]["statement"], "control: the with-answer statement holds the answer"
    for shown in (seen["no-answer"], seen["default"]):
        assert shown["track"] == "no-answer"
        assert OFFICIAL not in shown["statement"] and "n * n" not in shown["statement"]
        assert "sample_sum_odds_solution : nat -> nat := _." in shown["statement"]
    for refused in (seen["refused"], seen["check_refused"]):
        assert refused.is_error and "no-answer track only" in text(refused)
    verdict = structured(seen["verify"])
    assert verdict["status"] == "accepted" and verdict["track"] == "no-answer"
    assert verdict["answers"] == {"sample_sum_odds_solution": {"candidate": "fun k => k * k"}}
    shown = text(seen["verify"]) + json.dumps(seen["verify"].structured_content)
    assert "n * n" not in shown and "official" not in shown, "neither the answer nor its check reaches the agent"


def test_bad_calls_are_tool_errors_that_say_what_to_do() -> None:
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["unknown"] = await client.call_tool("get_statement", {"problem": "putnam_1900_z9"})
        seen["unknown_check"] = await client.call_tool("check", {"problem": "nope", "proof": GOOD})
        seen["oversized"] = await client.call_tool(
            "verify", {"problem": "sample_even_square", "proof": GOOD + "(*" + "x" * 2000 + "*)"}
        )
        seen["empty"] = await client.call_tool("check", {"problem": "sample_even_square", "proof": "  \n"})
        seen["track"] = await client.call_tool("get_statement", {"problem": ANSWERED, "track": "both"})
        seen["missing"] = await client.call_tool("verify", {"problem": "sample_even_square"})
        seen["after"] = structured(await client.call_tool("list_problems", {}))

    over_stdio(session, *ROCQ, "--max-candidate-bytes", "1000")
    assert "no problem 'putnam_1900_z9'" in text(seen["unknown"]) and "list_problems" in text(seen["unknown"])
    assert seen["unknown_check"].is_error
    assert "over this server's candidate cap of 1000 bytes" in text(seen["oversized"])
    assert "--max-candidate-bytes" in text(seen["oversized"])
    assert "the proof is empty" in text(seen["empty"])
    assert "choose with-answer or no-answer" in text(seen["track"])
    assert seen["missing"].is_error and "proof" in text(seen["missing"])
    assert all(seen[k].is_error for k in ("unknown", "unknown_check", "oversized", "empty", "track", "missing"))
    assert seen["after"]["problems"], "the server still answers after every refusal"


def test_the_command_refuses_bad_input_before_serving(tmp_path: Path) -> None:
    missing = subprocess.run(
        mcp_argv("--prover", "rocq", "--benchmark", str(tmp_path / "none.jsonl")),
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2 and "none.jsonl" in missing.stderr and missing.stdout == ""
    transport = subprocess.run(
        mcp_argv("--transport", "sse"),
        env=server_env({"COLUMNS": "200"}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert transport.returncode == 2 and "'sse' is not one of 'stdio', 'http'" in transport.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = subprocess.run(
            mcp_argv("--transport", "http", "--port", port, *ROCQ),
            env=server_env(key_env()),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert busy.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in busy.stderr, busy.stderr
    closed = subprocess.run(
        mcp_argv(*ROCQ), env=server_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    assert closed.returncode == 0 and closed.stdout == b"", "over stdio, stdout carries the protocol alone"


@NEEDS_ROCQ
def test_over_streamable_http_a_real_rocq_proof_is_verified_and_a_rebound_page_is_refused() -> None:
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["tools"] = {t.name for t in (await client.list_tools()).tools}
        seen["no_answer"] = structured(
            await client.call_tool("get_statement", {"problem": ANSWERED, "track": "no-answer"})
        )
        seen["with_answer"] = structured(await client.call_tool("get_statement", {"problem": ANSWERED}))
        seen["check"] = text(await client.call_tool("check", {"problem": "sample_even_square", "proof": WRONG}))
        seen["verify"] = structured(await client.call_tool("verify", {"problem": "sample_even_square", "proof": GOOD}))

    with http_server(*ROCQ) as served:
        assert served.url.startswith("http://127.0.0.1:") and served.url.endswith("/mcp")
        over_http(served.url, session)
        rebound = _rebound_requests(served.url)
    assert rebound == {"foreign host": 421, "foreign origin": 403}, rebound
    assert seen["tools"] == TOOLS
    assert OFFICIAL not in seen["no_answer"]["statement"] and OFFICIAL in seen["with_answer"]["statement"]
    assert "G4 compile: failed" in seen["check"]
    assert seen["verify"]["status"] == "accepted"
    judged = [line for line in served.log if line.startswith("putnam mcp: ")]
    assert any(line.startswith("putnam mcp: check sample_even_square") for line in judged), served.log
    assert any("verify sample_even_square" in line and line.rstrip().endswith(": accepted") for line in judged)


def _rebound_requests(url: str) -> dict[str, int]:
    """What a web page gets when DNS rebinding points its own name at the loopback server, or when it posts
    from its own origin, even with the key: the SDK's transport security, which ``putnam mcp`` turns on
    whatever its host (``mcp/http_guard.py``), answers before any tool runs."""
    port = url.split(":")[2].split("/")[0]
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", **bearer()}
    headers = {
        "foreign host": {**accept, "Host": f"attacker.example:{port}"},
        "foreign origin": {**accept, "Origin": "http://attacker.example"},
    }
    return {name: httpx.post(url, json=initialize, headers=h, timeout=30).status_code for name, h in headers.items()}


def _official_lean_answer() -> tuple[str, str]:
    """A PutnamBench Lean problem with an answer, and its official answer text."""
    for problem in select_problems(load_benchmark(LEAN_BENCH)):
        lines = problem.formal_statement.splitlines()
        for i, line in enumerate(lines[:-1]):
            if line.startswith("abbrev") and "--" in lines[i + 1]:
                answer = lines[i + 1].split("--", 1)[1].strip()
                if len(answer) > 8:
                    return problem.id, answer
    raise AssertionError("no PutnamBench Lean problem with a readable answer")


@pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"PutnamBench data not found at {LEAN_BENCH}")
def test_lean_putnambench_over_http_hides_the_answer_and_fails_closed_without_a_toolchain(tmp_path: Path) -> None:
    problem, answer = _official_lean_answer()
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["no_answer"] = structured(
            await client.call_tool("get_statement", {"problem": problem, "track": "no-answer"})
        )
        seen["with_answer"] = structured(await client.call_tool("get_statement", {"problem": problem}))
        statement = seen["no_answer"]["statement"]
        seen["verify"] = structured(await client.call_tool("verify", {"problem": problem, "proof": statement}))

    no_lean = {"PUTNAM_TOOLCHAIN_DIR": str(tmp_path / "none"), "PUTNAM_LEAN": str(tmp_path / "no-lean")}
    with http_server("--prover", "lean", "--benchmark", str(LEAN_BENCH), env=no_lean) as served:
        over_http(served.url, session)
    assert answer in seen["with_answer"]["statement"], "control: with-answer inlines the answer"
    assert answer not in seen["no_answer"]["statement"]
    verdict = seen["verify"]
    assert verdict["status"] != "accepted", "a sorry statement and no Lean toolchain: never a pass"


def test_lean_check_runs_the_toy_lean_and_verify_fails_closed(toy_lean_deciding: ToyLean, tmp_path: Path) -> None:
    """(An ``Init`` that can ``decide``: the server's selftest puts no-answer canaries through it.)"""
    good = (LEAN_PROOFS / "toy_and_comm.lean").read_text()
    bad = good.replace("And.intro h.right h.left", "And.intro h.left h.right")
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["good"] = text(await client.call_tool("check", {"problem": "toy_and_comm", "proof": good}))
        seen["bad"] = text(await client.call_tool("check", {"problem": "toy_and_comm", "proof": bad}))
        seen["verify"] = structured(await client.call_tool("verify", {"problem": "toy_and_comm", "proof": good}))

    env = {**toy_lean_deciding.env, "PUTNAM_TOOLCHAIN_DIR": str(tmp_path / "none")}
    over_stdio(session, "--prover", "lean", "--benchmark", str(LEAN_SAMPLES), env=env)
    assert seen["good"].startswith("PASSED the fast gates G1, G2, G3, G4"), seen["good"]
    assert "G4 compile: failed" in seen["bad"], seen["bad"]
    verdict = seen["verify"]
    assert verdict["status"] == "error", "no comparator here: the full profile cannot decide G6"
    statuses = {g["id"]: g["status"] for g in verdict["gates"]}
    assert statuses["G4"] == "passed" and statuses.get("G6") != "passed"


@NEEDS_ROCQ
@pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="miniF2F data not found")
def test_a_named_benchmark_split_is_served_and_its_verdicts_carry_the_record() -> None:
    """--benchmark minif2f:valid: its split's problems only, a shipped proof accepted by the full profile,
    the verdict naming the benchmark and its errata (none for this statement)."""
    seen: dict[str, Any] = {}
    proof = (REPO / "samples" / "minif2f" / "rocq" / "mathd_algebra_455.v").read_text()

    async def session(client: Client) -> None:
        seen["problems"] = structured(await client.call_tool("list_problems", {"prefix": "mathd_algebra_4"}))
        seen["verify"] = structured(await client.call_tool("verify", {"problem": "mathd_algebra_455", "proof": proof}))

    over_stdio(session, "--prover", "rocq", "--benchmark", "minif2f:valid", env={"PUTNAM_BENCHMARK": str(DATA_ROOT)})
    ids = [p["id"] for p in seen["problems"]["problems"]]
    assert "mathd_algebra_455" in ids and "mathd_algebra_478" not in ids, "the test split is not served"
    assert seen["problems"]["benchmark"] == "minif2f_rocq_adapted.jsonl"
    verdict = seen["verify"]
    assert verdict["status"] == "accepted", verdict
    assert (verdict["benchmark"]["name"], verdict["benchmark"]["split"], verdict["benchmark"]["errata"]) == (
        "minif2f",
        "valid",
        [],
    )


@NEEDS_ROCQ
def test_a_problem_is_prepared_for_verify_while_the_client_works_on_it(
    tmp_path: Path, rocq_selftest_records: Path
) -> None:
    """``get_statement`` starts the problem's preparation (its reference compile) in the server's
    background; the entry is in the cache before any ``verify`` asks for it. (The cache holds a passed
    selftest of this toolchain: without one the server runs the selftest first, which builds canaries' own.)"""
    cache = tmp_path / "cache"
    shutil.copytree(rocq_selftest_records, cache / "selftest")
    seen: dict[str, Any] = {}

    def references() -> list[Path]:
        return sorted(cache.rglob("*-Reference.vo"))

    async def session(client: Client) -> None:
        await client.call_tool("get_statement", {"problem": "sample_even_square"})
        with anyio.fail_after(120):
            while not references():
                await anyio.sleep(0.1)
        seen["prepared"] = references()
        seen["verify"] = structured(await client.call_tool("verify", {"problem": "sample_even_square", "proof": GOOD}))

    over_stdio(session, *ROCQ, env={"PUTNAM_CACHE_DIR": str(cache)})
    assert len(seen["prepared"]) == 1
    assert seen["verify"]["status"] == "accepted"
    assert references() == seen["prepared"], "verify used the prepared reference, built nothing else"
