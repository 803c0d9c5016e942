"""A verdict counts only when one selftested toolchain made it, on every path that answers verdicts.

Found after red team round 7 (``verifier/one_toolchain.py``, ``selftest/readiness.py``):

- ``putnam verify --no-cache`` (``verify_candidates`` without a cache) read the toolchain's fingerprint only to
  make a cache key, so an acceptance made while ``coqc`` was replaced was reported ``accepted``;
- ``putnam mcp``'s ``verify`` judged on any toolchain: no selftest before its first verdict, none after a
  change, and no check that the toolchain stayed the same while a verdict was made;
- a ``putnam serve`` batch (``/verify/batch``, ``/kimina/verify``) went on judging its other items after one met
  a 503 (not ready, or the toolchain changed while it was judged): the whole request answered 503, the verdicts
  already made were lost, and the rest kept running on a toolchain no selftest vouched for.

Real parts: real coqc/coqchk in the sandbox, a real ``coqc`` file replaced in place between the fingerprint
read before a verdict and the one read after, real selftests and their records, a real ``putnam serve`` (uvicorn
on a loopback port, httpx) and a real ``putnam mcp`` driven by the MCP SDK's own client.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Track, Verdict, VerifyOptions
from putnam_solver.verifier import dispatch
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from tests.fakes.swapped_coqc import (
    GOOD,
    NEEDS_COQ,
    PROBLEM,
    SwappedDuring,
    broken_coqc,
    replace,
    selftested_as,
    serve_config,
    upgraded_coqc,
)
from tests.helpers import ROCQ_SAMPLES
from tests.serve_server import in_process

KEY = "verify8-key-0123456789abcdef"


def judged_without_cache(coqc: Path, tmp_path: Path, verifier: Any = dispatch.LOCAL) -> Verdict:
    bench = load_benchmark(ROCQ_SAMPLES)
    candidate = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], GOOD)
    options = VerifyOptions(tools={"coqc": coqc})
    (verdict,) = verify_candidates(
        [candidate], get_prover("rocq"), bench, Track.WITH_ANSWER, options, verifier=verifier
    )
    return verdict


# -- putnam verify --no-cache -------------------------------------------------------------------------------


@NEEDS_COQ
def test_without_a_cache_an_acceptance_across_a_toolchain_change_is_an_error(coqc: Path, tmp_path: Path) -> None:
    """Before: every gate passed on the upgraded ``coqc`` and the verdict was ``accepted``; now no one toolchain
    made it, so it is an ``error`` naming both fingerprints."""
    verdict = judged_without_cache(coqc, tmp_path, SwappedDuring(coqc, upgraded_coqc()))
    assert verdict.status == "error", verdict.gates
    problem = verdict.first_problem()
    assert problem is not None and "changed while this candidate was judged" in problem.detail
    assert problem.evidence["toolchain_before"] != problem.evidence["toolchain"]


@NEEDS_COQ
def test_without_a_cache_a_rejection_across_a_toolchain_change_is_shown_as_it_is(coqc: Path, tmp_path: Path) -> None:
    verdict = judged_without_cache(coqc, tmp_path, SwappedDuring(coqc, broken_coqc()))
    assert verdict.status == "rejected", verdict.gates
    assert not any("changed while" in g.detail for g in verdict.gates), "a rejection counts for nothing anyway"


@NEEDS_COQ
def test_without_a_cache_and_no_change_the_sound_proof_is_accepted(coqc: Path, tmp_path: Path) -> None:
    verdict = judged_without_cache(coqc, tmp_path)
    assert verdict.accepted and not verdict.cached, verdict.gates


# -- putnam serve: a batch stops at its first 503 ----------------------------------------------------------------


@pytest.fixture
def serve(coqc: Path, tmp_path: Path) -> Iterator[Any]:
    """A function that starts the real server (uvicorn on a loopback port, real readiness and selftest records)
    on ``coqc`` with a gate backend, for a key that runs one verification at a time; it returns the URL."""
    pytest.importorskip("uvicorn")
    from putnam_solver.serve import PoolVerifier

    config = serve_config(coqc, tmp_path, KEY, 1)
    with contextlib.ExitStack() as servers:
        yield lambda backend: servers.enter_context(in_process(config, PoolVerifier(1, backend)))


def marked(n: int) -> str:
    """The sound proof, made a candidate of its own (no verdict of another item answers it from the cache)."""
    return GOOD.decode() + f"(* item {n} *)\n"


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{url}{path}", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=600)


def batch(url: str, n: int) -> httpx.Response:
    items = [{"problem": PROBLEM, "prover": "rocq", "candidate": marked(i)} for i in range(n)]
    return post(url, "/verify/batch", {"items": items})


@NEEDS_COQ
def test_a_batch_stops_at_a_toolchain_change_keeps_its_verdicts_and_says_what_it_did_not_judge(
    serve: Any, coqc: Path
) -> None:
    """Three items, one at a time; ``coqc`` is upgraded as the second starts. Before: the other items went on
    (on a toolchain no selftest passed) and the request ended 503 with no verdict. Now the first item's
    acceptance is kept, the second is an ``error`` (no one toolchain made it), the third is not judged."""
    good = coqc.read_bytes()
    url = serve(SwappedDuring(coqc, upgraded_coqc(), at=2))
    response = batch(url, 3)
    assert response.status_code == 200, response.text
    body = response.json()
    statuses = sorted(r["status"] for r in body["results"])
    assert statuses == ["accepted", "error", "not_judged"], body
    assert body["all_okay"] is False and body["not_judged"] == 1
    (left,) = [r for r in body["results"] if r["status"] == "not_judged"]
    assert left["problem"] == PROBLEM and left["detail"].startswith("not judged: "), left
    assert "toolchain changed" in left["detail"] or "no selftest of rocq" in left["detail"], left
    (moved,) = [r for r in body["results"] if r["status"] == "error"]
    assert any("changed while this candidate was judged" in line for line in moved["errors"]), moved

    refused = batch(url, 2)  # the upgraded coqc has no selftest: nothing is judged, the batch is a 503
    assert refused.status_code == 503 and "no selftest of rocq on this toolchain" in refused.json()["detail"]
    assert refused.headers["retry-after"]
    replace(coqc, good)
    back = batch(url, 2)  # valid beside: the selftested coqc is back, every item judged
    assert back.status_code == 200 and back.json()["not_judged"] == 0, back.text
    assert [r["status"] for r in back.json()["results"]] == ["accepted", "accepted"]


@NEEDS_COQ
def test_a_kimina_batch_stops_the_same_way(serve: Any, coqc: Path) -> None:
    url = serve(SwappedDuring(coqc, broken_coqc(), at=1))
    codes = [{"custom_id": f"{PROBLEM}:{i}", "proof": marked(i)} for i in range(3)]
    response = post(url, "/kimina/verify", {"codes": codes, "prover": "rocq"})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["custom_id"] for r in results] == [c["custom_id"] for c in codes]
    judged = [r for r in results if r["response"] is not None]
    left = [r for r in results if r["response"] is None]
    assert len(judged) == 1 and judged[0]["response"]["status"] == "rejected", results  # the broken coqc's verdict
    assert len(left) == 2 and all(r["error"].startswith("not judged: ") for r in left), left


@NEEDS_COQ
def test_the_client_sends_the_items_not_judged_again(serve: Any, coqc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``PutnamClient.verify_many`` on the same change, to an upgrade whose selftest has passed: the items not
    judged are sent again and judged on it; the one judged across the change stays an ``error``."""
    from putnam_solver import client as service_client

    monkeypatch.setattr(service_client, "MAX_WAIT_SECONDS", 0.0)
    selftested_as(coqc, upgraded_coqc())
    url = serve(SwappedDuring(coqc, upgraded_coqc(), at=2))
    requests = [service_client.Request(PROBLEM, marked(n), prover="rocq") for n in range(3)]
    with service_client.PutnamClient(url, KEY) as client:
        verdicts = client.verify_many(requests)
    assert sorted(v["status"] for v in verdicts) == ["accepted", "accepted", "error"], verdicts


# -- putnam mcp: the selftest before the first verdict ----------------------------------------------------------


@NEEDS_COQ
def test_mcp_verify_on_a_toolchain_whose_selftest_surprises_is_an_error_never_a_verdict(tmp_path: Path) -> None:
    """Before: ``putnam mcp`` judged on whatever ``coqc`` it was given (here one that reads no prelude, whose
    gates reject the selftest's sound canaries). Now the selftest runs first, finds the surprises, and ``verify``
    answers a tool error naming them, at the first call (which waits for the selftest) and at every later one."""
    pytest.importorskip("mcp")
    from mcp import Client

    from tests.integration.mcp_driver import over_stdio, text

    broken = tmp_path / "tools" / "coqc"
    broken.parent.mkdir()
    broken.write_bytes(broken_coqc())
    broken.chmod(0o755)
    seen: dict[str, Any] = {}

    async def session(client: Client) -> None:
        seen["verify"] = await client.call_tool("verify", {"problem": PROBLEM, "proof": GOOD.decode()})
        seen["again"] = await client.call_tool("verify", {"problem": PROBLEM, "proof": GOOD.decode()})

    env = {"PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    over_stdio(session, "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES), "--tool", f"coqc={broken}", env=env)
    for result in (seen["verify"], seen["again"]):
        assert result.is_error, text(result)
        message = text(result)
        assert "not ready" in message and "the rocq selftest failed" in message and "no verdict" in message, message
        assert not result.structured_content, "no verdict"
