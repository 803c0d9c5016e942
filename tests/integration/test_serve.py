"""`putnam serve` for real: the server in a child process on loopback, real HTTP clients (httpx), real
Rocq proofs through the full profile (coqc, the trusted check, coqchk), Lean through the text profile,
every kind of bad input, per-key limits, and a load test that counts every answer and reads the
server's memory.

One server serves both PutnamBench benchmarks for the module; it runs the selftest at start (its cache
directory is fresh), so ``/ready`` is the real thing too.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.helpers import LEAN_BENCH, PUTNAMBENCH, REPO, ROCQ_SAMPLES
from tests.serve_server import ServerProcess, auth, start_server, write_keys

CORPUS = REPO / "tests" / "fixtures" / "conformance"
ROCQ_GOOD = (CORPUS / "rocq" / "putnambench-rocq__putnam_1974_a3.v").read_text()
ROCQ_WRONG = ROCQ_GOOD.replace("case: (assmption 4%N) => h _.", "case: (assmption 3%N) => h _.")
LEAN_GOOD = (CORPUS / "lean" / "putnam-fix-jsonl__putnam_1985_a3.lean").read_text()  # accepted on text/with-answer
LEAN_WRONG = (CORPUS / "lean" / "putnam-fix-zzy__putnam_1985_a3.lean").read_text()  # rejected there: another answer
BODY_CAP = 65536
CANDIDATE_CAP = 40000
MAX_BATCH = 8
LOAD_SECONDS = 20.0
SLOW_LOAD_SECONDS = 120.0

SERVER_PATHS = (tempfile.gettempdir() + "/", str(REPO) + "/", str(PUTNAMBENCH), str(Path.home()) + "/")
"""What no answer may name: the server's temporary files (its cache among them), checkout and benchmark data."""

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"benchmark data not found at {PUTNAMBENCH}")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve-cache")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Iterator[ServerProcess]:
    work = tmp_path_factory.mktemp("serve")
    args = ["--keys", str(write_keys(work / "keys")), "--jobs", "2", "--max-body-bytes", str(BODY_CAP)]
    args += ["--max-candidate-bytes", str(CANDIDATE_CAP), "--max-batch", str(MAX_BATCH), "--per-key-limit", "16"]
    env = {"PUTNAM_CACHE_DIR": str(cache_dir), "PUTNAM_BENCHMARK": str(PUTNAMBENCH)}
    running = start_server(work / "server.log", args, env)
    yield running
    running.stop()
    log = running.log_text()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    for key, _ in (("a1ice-0123456789abcdef", 0), ("b0b-fedcba9876543210ab", 0), ("s0lo-00112233445566778", 0)):
        assert key not in log, "a key reached the log"


def post(server: ServerProcess, path: str, body: Any, key: str = "alice", full: bool = False) -> httpx.Response:
    """POST ``body`` (``?full=1`` for whole verdicts); whatever the answer, it names no path of the server."""
    params = {"full": "1"} if full else {}
    response = httpx.post(f"{server.url}{path}", json=body, headers=auth(key), timeout=300, params=params)
    assert_no_server_path(response.text)
    return response


def assert_no_server_path(text: str) -> None:
    named = [path for path in SERVER_PATHS if path in text]
    assert not named, f"an answer names {named}: {text[:2000]}"


def verify(
    server: ServerProcess, problem: str, candidate: str, prover: str, profile: str = "full", **extra: Any
) -> httpx.Response:
    body = {"problem": problem, "candidate": candidate, "prover": prover, "profile": profile, **extra}
    return post(server, "/verify", body)


def assert_error(response: httpx.Response, status: int, words: str) -> None:
    """A refusal: the status, JSON naming what to change, the request id, no traceback."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["status"] == status and words in body["detail"], body
    assert body["request_id"] == response.headers["x-request-id"]
    assert "Traceback" not in response.text


def test_health_ready_openapi_and_request_ids(server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/health").json() == {"status": "ok"}
    ready = httpx.get(f"{server.url}/ready").json()
    assert_no_server_path(json.dumps(ready))
    assert ready["ready"] is True and set(ready["provers"]) == {"lean", "rocq"}
    assert "selftest of rocq passed" in ready["provers"]["rocq"]["detail"]
    schema = httpx.get(f"{server.url}/openapi.json").json()
    assert {"/verify", "/verify/batch", "/health", "/ready"} <= set(schema["paths"])
    assert schema["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    mine = httpx.get(f"{server.url}/health", headers={"X-Request-ID": "client-42.a:b"})
    assert mine.headers["x-request-id"] == "client-42.a:b"
    insane = httpx.get(f"{server.url}/health", headers={"X-Request-ID": "x" * 65})
    assert insane.headers["x-request-id"] != "x" * 65 and len(insane.headers["x-request-id"]) == 32
    assert "[client-42.a:b] putnam_solver.serve: GET /health -> 200" in server.log_text()


def test_rocq_real_proofs_on_the_full_profile_and_the_key_limit(server: ServerProcess, cache_dir: Path) -> None:
    """A sound PutnamBench proof is accepted and a broken copy rejected by coqc (G4), in one batch, while
    solo (limit 1) holds its one slot: its other requests get 429 with Retry-After, then pass again."""
    items = [
        {"problem": "putnam_1974_a3", "prover": "rocq", "candidate": ROCQ_GOOD},
        {"problem": "putnam_1974_a3", "prover": "rocq", "candidate": ROCQ_WRONG + f"(* {time.time()} *)\n"},
    ]

    async def scenario() -> tuple[httpx.Response, list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=server.url, headers=auth("solo"), timeout=300) as client:
            batch = asyncio.create_task(client.post("/verify/batch", json={"items": items}, params={"full": "1"}))
            await asyncio.sleep(1.0)  # the batch holds solo's slot while coqc runs
            refused = [await client.get("/health")]
            refused += await asyncio.gather(*(client.post("/verify", json=items[0]) for _ in range(3)))
            return await batch, refused

    batch, refused = asyncio.run(scenario())
    assert batch.status_code == 200, batch.text
    good, wrong = batch.json()["results"]
    assert batch.json()["all_okay"] is False
    assert good["status"] == "accepted" and [g["id"] for g in good["gates"]] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert (
        wrong["status"] == "rejected" and wrong["gates"][-1]["id"] == "G4" and wrong["gates"][-1]["status"] == "failed"
    )
    assert refused[0].status_code == 200, "health needs no key and no slot"
    for response in refused[1:]:
        assert_error(response, 429, "key solo has 1 requests in flight")
        assert response.headers["retry-after"] == "1"
    assert_no_server_path(batch.text)
    again = post(server, "/verify", items[0], key="solo", full=True)
    assert again.status_code == 200 and again.json()["cached"] is True, "the slot came back; the verdict was cached"
    assert again.json()["candidate_path"].startswith("request ")
    assert_same_as_putnam_verify(again.json(), cache_dir, tmp=cache_dir.parent)


def assert_same_as_putnam_verify(served: dict[str, Any], cache_dir: Path, tmp: Path) -> None:
    """`putnam verify --json` on the same bytes finds the verdict the server cached (the same cache key)
    and writes the same JSON for it, up to the candidate's name (the key covers the candidate cap too)."""
    candidate = tmp / f"{served['problem']}.v"
    candidate.write_text(ROCQ_GOOD)
    out = tmp / "verdicts.json"
    env = {"PUTNAM_CACHE_DIR": str(cache_dir), "PUTNAM_BENCHMARK": str(PUTNAMBENCH)}
    result = CliRunner().invoke(
        app,
        ["verify", "--prover", "rocq", "--max-candidate-bytes", str(CANDIDATE_CAP), "--json", str(out), str(candidate)],
        env=env,
    )
    assert result.exit_code == 0, result.output
    (local,) = json.loads(out.read_text())["results"]
    assert local["cached"] is True
    same = ("status", "candidate_sha256", "statement_sha256", "challenge_sha256", "benchmark_sha256", "profile")
    assert {k: local[k] for k in same} == {k: served[k] for k in same}
    gates = [[(g["id"], g["status"], sorted(g["evidence"])) for g in v["gates"]] for v in (local, served)]
    assert gates[0] == gates[1], "the same gates with the same evidence, the served one without this machine's paths"
    assert str(PUTNAMBENCH) in json.dumps(local) and "/usr/bin/coqc" in json.dumps(local)
    assert "/usr/bin" not in json.dumps(served), "a tool is named by its file name"


def test_lean_on_the_text_profile_and_the_cache(server: ServerProcess) -> None:
    good = verify(server, "putnam_1985_a3", LEAN_GOOD, "lean", "text").json()
    assert good["status"] == "accepted" and good["failing_gate"] is None and good["errors"] == []
    wrong = verify(server, "putnam_1985_a3", LEAN_WRONG, "lean", "text")
    assert wrong.json()["status"] == "rejected" and wrong.json()["failing_gate"] == "G2 preservation"
    assert "differs from the challenge" in "\n".join(wrong.json()["errors"]) and len(wrong.content) < 1500
    body = {"problem": "putnam_1985_a3", "candidate": LEAN_WRONG, "prover": "lean", "profile": "text"}
    whole = post(server, "/verify", body, full=True)
    assert [g["id"] for g in whole.json()["gates"]] == ["G1", "G2", "G3"] and len(whole.content) > 3 * len(
        wrong.content
    )
    assert verify(server, "putnam_1985_a3", LEAN_GOOD, "lean", "text").json()["cached"] is True
    no_answer = verify(server, "putnam_1985_a3", LEAN_GOOD, "lean", "text", track="no-answer").json()
    assert no_answer["status"] == "rejected" and no_answer["track"] == "no-answer"


def test_benchmark_records(server: ServerProcess) -> None:
    """A record equal to a served one is that pinned problem; a changed one is refused; a new one is
    verified unpinned."""
    record = json.loads(next(line for line in LEAN_BENCH.read_text().splitlines() if '"putnam_1985_a3"' in line))
    same = post(server, "/verify", {"record": record, "candidate": LEAN_GOOD, "prover": "lean", "profile": "text"})
    assert same.json()["status"] == "accepted" and same.json()["benchmark_pinned"] is True
    changed = {**record, "formal_statement": record["formal_statement"].replace("theorem", "lemma", 1)}
    refused = post(server, "/verify", {"record": changed, "candidate": LEAN_GOOD, "prover": "lean", "profile": "text"})
    assert_error(refused, 422, "differs from the pinned one")
    own = {"problem_id": "mine", "formal_statement": "Theorem mine : True.\nProof. Admitted.\n"}
    fresh = post(
        server,
        "/verify",
        {"record": own, "candidate": "Theorem mine : True.\nProof. exact I. Qed.\n", "prover": "rocq"},
    )
    assert fresh.json()["status"] == "accepted" and fresh.json()["benchmark_pinned"] is False


LEAN_ITEM = {"problem": "putnam_1985_a3", "prover": "lean", "profile": "text", "candidate": LEAN_GOOD}


@pytest.mark.parametrize(
    ("case", "body", "headers", "status", "words"),
    [
        ("no key", LEAN_ITEM, {"Authorization": ""}, 401, "missing API key"),
        ("wrong key", LEAN_ITEM, {"Authorization": "Bearer not-a-key-0123456789"}, 401, "unknown API key"),
        ("basic auth", LEAN_ITEM, {"Authorization": "Basic YWxpY2U6eA=="}, 401, "API key"),
        ("not json", b"problem=x", {"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type"),
        ("bad json", b'{"problem": "putnam_1985_a3",', {}, 400, "not valid JSON"),
        ("bad utf-8", b'{"problem": "putnam_1985_a3", "prover": "lean", "candidate": "\xff"}', {}, 400, "not UTF-8"),
        ("lone surrogate", b'{"problem": "x", "prover": "lean", "candidate": "\\ud800"}', {}, 422, "lone surrogate"),
        ("not an object", b"[1, 2]", {}, 422, "valid dictionary"),
        ("unknown problem", {**LEAN_ITEM, "problem": "putnam_1962_a9"}, {}, 404, "did you mean putnam_1962_a6"),
        ("unknown profile", {**LEAN_ITEM, "profile": "quick"}, {}, 422, "profile: Input should be"),
        ("unknown track", {**LEAN_ITEM, "track": "any"}, {}, 422, "track: Input should be"),
        ("unknown prover", {**LEAN_ITEM, "prover": "isabelle"}, {}, 422, "isabelle"),
        ("no prover", {k: v for k, v in LEAN_ITEM.items() if k != "prover"}, {}, 422, "name the prover"),
        (
            "no candidate",
            {k: v for k, v in LEAN_ITEM.items() if k != "candidate"},
            {},
            422,
            "candidate: Field required",
        ),
        ("empty candidate", {**LEAN_ITEM, "candidate": " \n"}, {}, 422, "empty"),
        ("extra field", {**LEAN_ITEM, "gates": "none"}, {}, 422, "gates: Extra inputs"),
        (
            "problem and record",
            {**LEAN_ITEM, "record": {"problem_id": "x", "formal_statement": "y"}},
            {},
            422,
            "either",
        ),
        ("big candidate", {**LEAN_ITEM, "candidate": "-- " + "x" * CANDIDATE_CAP}, {}, 413, "over the cap"),
        ("big body", {**LEAN_ITEM, "candidate": "-- " + "x" * BODY_CAP}, {}, 413, "over this server's cap"),
    ],
)
def test_bad_input_gets_a_clear_4xx(
    server: ServerProcess, case: str, body: Any, headers: dict[str, str], status: int, words: str
) -> None:
    sent = {"Content-Type": "application/json", **auth("bob"), **headers}
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = httpx.post(f"{server.url}/verify", content=content, headers=sent, timeout=60)
    assert_error(response, status, words)


def test_bad_batches_and_paths(server: ServerProcess) -> None:
    assert_error(post(server, "/verify/batch", {"items": [LEAN_ITEM] * (MAX_BATCH + 1)}), 413, "over the batch cap")
    assert_error(post(server, "/verify/batch", {"items": []}), 422, "at least 1 item")
    bad_item = post(server, "/verify/batch", {"items": [LEAN_ITEM, {**LEAN_ITEM, "problem": "nope"}]})
    assert_error(bad_item, 404, "item 1")
    assert_error(httpx.get(f"{server.url}/verify", headers=auth("bob")), 405, "Method Not Allowed")
    assert_error(httpx.get(f"{server.url}/nowhere"), 404, "Not Found")


def _read_response(sock: socket.socket) -> str:
    """One HTTP response, head and body: the server may send them in separate segments."""
    data = b""
    while b"\r\n\r\n" not in data and (chunk := sock.recv(65536)):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    declared = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
    assert declared, head
    length = int(declared.group(1))
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return (head + b"\r\n\r\n" + body).decode(errors="replace")


def test_an_oversized_body_is_refused_before_it_is_read(server: ServerProcess) -> None:
    """A declared 100 MB body gets 413 at once, with no byte of it sent; a chunked body is cut off at the cap."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        head = (
            f"POST /verify HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {auth('bob')['Authorization'][7:]}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n"
        )
        sock.sendall(head.encode())
        answer = _read_response(sock)
    assert answer.startswith("HTTP/1.1 413") and "over this server's cap" in answer

    def chunks() -> Iterator[bytes]:
        yield b'{"problem": "putnam_1985_a3", "prover": "lean", "candidate": "'
        for _ in range(2 * BODY_CAP // 4096):
            yield b"x" * 4096
        yield b'"}'

    response = httpx.post(
        f"{server.url}/verify", content=chunks(), headers={"Content-Type": "application/json", **auth("bob")}
    )
    assert_error(response, 413, "over this server's cap")


def test_not_ready_without_a_selftest(tmp_path: Path) -> None:
    """No passing selftest on this toolchain and --no-selftest: /ready and /verify say why, with 503."""
    args = ["--keys", str(write_keys(tmp_path / "keys")), "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES)]
    env = {"PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    running = start_server(tmp_path / "server.log", [*args, "--no-selftest"], env, wait_ready=False)
    try:
        ready = httpx.get(f"{running.url}/ready")
        assert ready.status_code == 503 and ready.headers["retry-after"] == "1"
        assert "run `putnam selftest --prover rocq`" in ready.json()["provers"]["rocq"]["detail"]
        body = {"problem": "sample_rev_length", "candidate": "Theorem x : True.\nProof. exact I. Qed.\n"}
        assert_error(httpx.post(f"{running.url}/verify", json=body, headers=auth("bob")), 503, "not ready")
        assert httpx.get(f"{running.url}/health").status_code == 200
    finally:
        running.stop()
    assert "benchmark.jsonl is not pinned" in running.log_text()


# ------------------------------------------------------------------------------------------------ load


def load_seconds(request: pytest.FixtureRequest) -> float:
    return SLOW_LOAD_SECONDS if request.node.get_closest_marker("slow") else LOAD_SECONDS


KINDS = ("lean-good", "lean-fresh", "lean-wrong", "rocq-cached", "batch", "wrong-key", "unknown", "bad-json", "big")


def request_for(kind: str, n: int) -> tuple[str, bytes, dict[str, str], int, str | None]:
    """(path, body, extra headers, expected status, expected verdict status or None) for one request."""
    item: dict[str, Any] = dict(LEAN_ITEM)
    expected, verdict, path, extra = 200, "accepted", "/verify", {}
    if kind == "lean-fresh":  # new bytes each time: the text gates run, no cache hit
        item["candidate"] = LEAN_GOOD + f"\n-- {n}\n"
    elif kind == "lean-wrong":
        item.update(problem="putnam_1985_a3", candidate=LEAN_WRONG)
        verdict = "rejected"
    elif kind == "rocq-cached":
        item = {"problem": "putnam_1974_a3", "prover": "rocq", "candidate": ROCQ_GOOD}
    elif kind == "batch":
        path, item = "/verify/batch", {"items": [LEAN_ITEM, {**LEAN_ITEM, "candidate": LEAN_GOOD + f"\n-- b{n}\n"}]}
    elif kind == "wrong-key":
        expected, verdict, extra = 401, None, {"Authorization": "Bearer wrong-key-0123456789abc"}
    elif kind == "unknown":
        expected, verdict, item = 404, None, {**LEAN_ITEM, "problem": "putnam_2099_a1"}
    elif kind == "big":
        expected, verdict, item = 413, None, {**LEAN_ITEM, "candidate": "-- " + "y" * BODY_CAP}
    body = b'{"problem": ' if kind == "bad-json" else json.dumps(item).encode()
    if kind == "bad-json":
        expected, verdict = 400, None
    return path, body, extra, expected, verdict


async def client_loop(url: str, key: str, index: int, until: float, seen: list[dict[str, Any]]) -> None:
    headers = {"Content-Type": "application/json", **auth(key)}
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        n = 0
        while time.monotonic() < until:
            kind = KINDS[(index + n) % len(KINDS)]
            path, body, extra, expected, verdict = request_for(kind, index * 1_000_000 + n)
            record: dict[str, Any] = {"kind": kind, "key": key, "expected": expected, "verdict": verdict}
            seen.append(record)
            response = await client.post(path, content=body, headers={**headers, **extra})
            record.update(status=response.status_code, body=response.json(), retry=response.headers.get("retry-after"))
            n += 1


def test_load_on_loopback(server: ServerProcess, request: pytest.FixtureRequest) -> None:
    """16 clients for a bounded time, valid and invalid requests mixed: every request answered, every
    verdict right, per-key limits held (alice: 3, by 8 clients; solo: 1, by 1 client that never meets
    it), the server's memory flat."""
    assert verify(server, "putnam_1974_a3", ROCQ_GOOD, "rocq").json()["status"] == "accepted"  # cached for the load
    clients = [("alice", i) for i in range(8)] + [("bob", i) for i in range(8, 15)] + [("solo", 15)]
    seen: list[dict[str, Any]] = []

    async def run(seconds: float) -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(client_loop(server.url, key, i, until, seen) for key, i in clients))

    asyncio.run(run(3.0))  # warm up: imports, caches, pools
    warm_rss = server.rss_kib()
    asyncio.run(run(load_seconds(request)))
    end_rss = server.rss_kib()

    unanswered = [r for r in seen if "status" not in r]
    assert not unanswered, f"{len(unanswered)} requests got no answer"
    limited = [r for r in seen if r["status"] == 429]
    assert all(r["key"] == "alice" and r["retry"] == "1" for r in limited), "only alice's 8 clients share a tight limit"
    assert limited, "8 clients on a limit of 3 should meet it"
    wrong = [r for r in seen if r["status"] != 429 and not answered_right(r)]
    assert not wrong, wrong[:3]
    counts = Counter((r["kind"], r["status"]) for r in seen)
    print(f"\n{len(seen)} requests in {load_seconds(request):g} s; RSS {warm_rss} -> {end_rss} KiB; {dict(counts)}")
    assert end_rss - warm_rss < max(20 * 1024, warm_rss // 5), f"RSS grew from {warm_rss} to {end_rss} KiB"


@pytest.mark.slow
def test_load_on_loopback_for_longer(server: ServerProcess, request: pytest.FixtureRequest) -> None:
    test_load_on_loopback(server, request)


def answered_right(record: dict[str, Any]) -> bool:
    if record["status"] != record["expected"]:
        return False
    body = record["body"]
    if record["verdict"] is None:
        return "detail" in body and "request_id" in body
    if record["kind"] == "batch":
        return [v["status"] for v in body["results"]] == ["accepted", "accepted"]
    return bool(body["status"] == record["verdict"])


def test_kimina_shaped_requests_get_results_by_custom_id(server: ServerProcess) -> None:
    """Kimina Lean Server's body on ``/kimina/verify``: results keyed by ``custom_id``, compact verdicts,
    per-code errors, ``disable_cache`` and ``timeout`` honoured."""
    codes = [
        {"custom_id": "putnam_1985_a3:0", "proof": LEAN_GOOD},
        {"custom_id": "putnam_1985_a3:1", "proof": LEAN_WRONG},
        {"custom_id": "putnam_9999_z9", "proof": LEAN_GOOD},
    ]
    body = {"codes": codes, "timeout": 60, "disable_cache": True, "infotree_type": None, "profile": "text"}
    answer = post(server, "/kimina/verify", body)
    assert answer.status_code == 200, answer.text
    results = {r["custom_id"]: r for r in answer.json()["results"]}
    assert list(results) == [c["custom_id"] for c in codes]
    good, wrong, unknown = results.values()
    assert good["error"] is None and good["response"]["status"] == "accepted" and not good["response"]["cached"]
    assert wrong["response"]["status"] == "rejected" and wrong["response"]["failing_gate"] == "G2 preservation"
    assert unknown["response"] is None and "putnam_9999_z9" in unknown["error"]
    assert len(json.dumps(good)) < 1000, "a compact verdict"
    again = {"codes": codes[:1], "timeout": 60, "profile": "text"}  # the timeout is part of the verdict's key
    cached = post(server, "/kimina/verify", again).json()["results"][0]
    assert cached["response"]["cached"] is True, "a verdict judged with disable_cache is still stored"
    refused = httpx.post(f"{server.url}/kimina/verify", json=body, timeout=30)
    assert_error(refused, 401, "key")


def test_the_python_client_sync_and_async(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    from putnam_solver.client import AsyncPutnamClient, PutnamClient, Request, ServiceError

    monkeypatch.setenv("PUTNAM_API_KEY", "b0b-fedcba9876543210ab")
    requests = [Request("putnam_1985_a3", proof, "lean", "text") for proof in (LEAN_GOOD, LEAN_WRONG, LEAN_GOOD)]
    with PutnamClient(server.url, batch_size=2) as client:
        assert [v["status"] for v in client.verify_many(requests)] == ["accepted", "rejected", "accepted"]
        assert client.verify(requests[0])["status"] == "accepted"
        assert [g["id"] for g in client.verify(requests[0], full=True)["gates"]] == ["G1", "G2", "G3"]
        with pytest.raises(ServiceError) as refused:
            client.verify(Request("putnam_9999_z9", LEAN_GOOD, "lean", "text"))
        assert refused.value.status == 404 and "putnam_9999_z9" in refused.value.detail

    async def scenario() -> list[str]:
        async with AsyncPutnamClient(server.url, batch_size=1) as client:
            return [v["status"] for v in await client.verify_many(requests)]

    assert asyncio.run(scenario()) == ["accepted", "rejected", "accepted"]
    with pytest.raises(ServiceError) as no_server:
        PutnamClient("http://127.0.0.1:9", retries=1).verify(requests[0])
    assert no_server.value.status == 0 and "2 tries" in no_server.value.detail


def test_the_scoring_example_runs(server: ServerProcess, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    proofs = tmp_path / "proofs.jsonl"
    lines = [{"problem": "putnam_1985_a3", "proof": p} for p in (LEAN_GOOD, LEAN_WRONG)]
    proofs.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    env = {**os.environ, "PUTNAM_API_KEY": "b0b-fedcba9876543210ab", "PYTHONPATH": str(REPO / "src")}
    args = [sys.executable, str(REPO / "examples" / "score_batch.py"), server.url, str(proofs)]
    done = subprocess.run([*args, "--prover", "lean", "--profile", "text"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [p.get("reward") for p in printed[:2]] == [1.0, 0.0] and printed[2] == {"pass_rate": 0.5}


def test_docs_are_one_offline_page(server: ServerProcess) -> None:
    page = httpx.get(f"{server.url}/docs", timeout=30)
    assert page.status_code == 200 and "default-src 'none'" in page.headers["content-security-policy"]
    assert "POST /kimina/verify" in page.text and "VerifyRequest" in page.text
    assert "<script" not in page.text and "cdn" not in page.text.lower()
