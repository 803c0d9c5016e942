"""``putnam serve`` judges readiness per prover, and a batch item that raises is that item's ``error`` only.

The real server on loopback (``in_process``) serves Rocq, on a ``coqc`` with a passed selftest record, and
Lean, whose toolchain has no selftest record here: Rocq's requests are judged while Lean's are refused 503,
naming Lean and why. Before, one prover not ready refused every request (the gatekeeper asked all at once),
and one item raising in a batch made the whole request a 500 while its other items kept running.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.verify import Verdict
from putnam_solver.verifier import dispatch
from tests.fakes.swapped_coqc import GOOD, NEEDS_COQ, PROBLEM, selftested_copy, serve_config
from tests.helpers import LEAN_BENCH
from tests.serve_server import in_process

KEY = "ready9-key-0123456789abcdef"
LEAN_PROBLEM = "putnam_1962_a1"
SECRET = "/private/machine/path/of/the/failure"


@pytest.fixture
def coqc(tmp_path: Path, solve_env: None) -> Path:
    """A copy of the installed ``coqc`` with a passed selftest record of its own (``swapped_coqc``)."""
    return selftested_copy(tmp_path / "tools")


class RaisingAt:
    """The local gates, except that the ``at``-th verification (from 1) raises an unexpected exception."""

    name = "local"

    def __init__(self, at: int) -> None:
        self.at, self.calls = at, 0

    def slots(self) -> int:
        return 1

    def verify(self, *args: Any) -> Verdict:
        self.calls += 1  # one worker thread: calls come one at a time
        if self.calls == self.at:
            raise RuntimeError(f"the gate backend fell over at {SECRET}")
        return dispatch.LOCAL.verify(*args)


@pytest.fixture
def serve(coqc: Path, tmp_path: Path) -> Iterator[Any]:
    """Starts the real server on Rocq (ready) and, with ``lean``, Lean (no selftest record: not ready) with a
    gate backend; returns its URL. The key runs one verification at a time."""
    pytest.importorskip("uvicorn")
    from putnam_solver.serve import PoolVerifier

    rocq = serve_config(coqc, tmp_path, KEY, 1)
    both = dataclasses.replace(rocq, benchmarks={**rocq.benchmarks, "lean": load_benchmark(LEAN_BENCH)})

    def start(backend: Any = dispatch.LOCAL, lean: bool = True) -> str:
        return servers.enter_context(in_process(both if lean else rocq, PoolVerifier(1, backend)))

    with contextlib.ExitStack() as servers:
        yield start


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{url}{path}", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=600)


def rocq_item(n: int) -> dict[str, Any]:
    """The sound proof as a candidate of its own (no other item's verdict answers it from the cache)."""
    return {"problem": PROBLEM, "prover": "rocq", "candidate": GOOD.decode() + f"(* item {n} *)\n"}


LEAN_ITEM = {"problem": LEAN_PROBLEM, "prover": "lean", "candidate": "theorem x : True := trivial\n"}


@NEEDS_COQ
def test_a_prover_not_ready_refuses_its_own_requests_only(serve: Any) -> None:
    url = serve()
    rocq = post(url, "/verify", rocq_item(0))
    assert rocq.status_code == 200, rocq.text
    assert rocq.json()["status"] == "accepted"

    lean = post(url, "/verify", LEAN_ITEM)
    assert lean.status_code == 503, lean.text
    assert lean.headers.get("retry-after"), "a 503 says when to ask again"
    detail = lean.json()["detail"]
    assert detail.startswith("not ready: lean: no selftest of lean"), detail
    assert "rocq" not in detail, "only the prover asked for is named"

    ready = httpx.get(f"{url}/ready", timeout=60)
    assert ready.status_code == 503, "not every served prover is ready"
    provers = ready.json()["provers"]
    assert provers["rocq"]["ready"] is True and provers["lean"]["ready"] is False, provers
    assert "no selftest of lean" in provers["lean"]["detail"]


@NEEDS_COQ
def test_a_batch_judges_the_ready_prover_s_items_beside_the_other_s_refusals(serve: Any) -> None:
    url = serve()
    response = post(url, "/verify/batch", {"items": [LEAN_ITEM, rocq_item(1), rocq_item(2)]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [r["status"] for r in body["results"]] == ["not_judged", "accepted", "accepted"], body
    assert "not ready: lean:" in body["results"][0]["detail"]
    assert body["not_judged"] == 1 and body["all_okay"] is False


@NEEDS_COQ
def test_a_batch_item_that_raises_is_an_error_of_its_own(serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    url = serve(RaisingAt(2), lean=False)
    with caplog.at_level(logging.ERROR):
        response = post(url, "/verify/batch", {"items": [rocq_item(n) for n in range(3)]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert sorted(r["status"] for r in body["results"]) == ["accepted", "accepted", "error"], body
    (failed,) = (r for r in body["results"] if r["status"] == "error")
    assert failed["problem"] == PROBLEM and failed["prover"] == "rocq"
    assert "internal error judging sample_even_square: RuntimeError" in failed["detail"], failed
    assert SECRET not in response.text and "Traceback" not in response.text, "no traceback or path leaks"
    assert body["all_okay"] is False and body["not_judged"] == 0
    assert SECRET in caplog.text, "the server's log has the failure"


@NEEDS_COQ
def test_a_kimina_code_that_raises_is_an_error_of_its_own(serve: Any) -> None:
    url = serve(RaisingAt(1), lean=False)
    codes = [{"custom_id": f"{PROBLEM}:{n}", "proof": rocq_item(n)["candidate"]} for n in range(2)]
    response = post(url, "/kimina/verify", {"codes": codes, "prover": "rocq"})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["custom_id"] for r in results] == [c["custom_id"] for c in codes]
    (failed,) = (r for r in results if r["response"] is None)
    (judged,) = (r for r in results if r["response"] is not None)
    assert failed["error"].startswith(f"internal error judging {PROBLEM}: RuntimeError"), failed
    assert judged["error"] is None and judged["response"]["status"] == "accepted", judged
    assert SECRET not in response.text


@NEEDS_COQ
def test_ready_answers_for_the_prover_asked_for(serve: Any) -> None:
    url = serve()
    rocq = httpx.get(f"{url}/ready", params={"prover": "rocq"}, timeout=60)
    assert rocq.status_code == 200, "Rocq passed its selftest, though Lean did not"
    assert list(rocq.json()["provers"]) == ["rocq"] and rocq.json()["ready"] is True

    lean = httpx.get(f"{url}/ready", params={"prover": "lean"}, timeout=60)
    assert lean.status_code == 503 and lean.headers.get("retry-after"), lean.text
    assert "no selftest of lean" in lean.json()["provers"]["lean"]["detail"]

    unknown = httpx.get(f"{url}/ready", params={"prover": "isabelle"}, timeout=60)
    assert unknown.status_code == 404, unknown.text
    assert "'isabelle' is not served here (served: rocq, lean)" in unknown.json()["detail"]
