"""Red team round 11 of the trust paths, second part: what a client of ``putnam serve`` sends.

A request's own benchmark record whose statement has not the prover's shape (a Rocq statement without
``Theorem ... Proof. Admitted.``): the gates raised as they derived the challenge, and the client got "500
internal error" (in a batch, "internal error judging ok: InputError") while the server logged a traceback
for the client's own input. It is now a 422 naming the statement and the shape (``serve/service.py``).

A body nested deeper than the JSON parser reads: "400 There was an error parsing the body", which says
neither what nor what to do; it now says both (``serve/app.py``).

The service runs in this process (the ASGI app under Starlette's test client, the unit tests' way), with
its gatekeeper, keys and every handler as ``putnam serve`` runs them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.serve import Readiness, ServeConfig, create_app
from tests.helpers import ROCQ_SAMPLES
from tests.unit.test_serve_app import KEY, Recording, keys

HEADERS = {"Authorization": f"Bearer {KEY}"}
PROOF = "Theorem own : True.\nProof. exact I. Qed.\n"


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> Iterator[TestClient]:
    """The service over the Rocq samples; at the end, no request of the test logged an error."""
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # no selftest here
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    config = ServeConfig(keys=keys(tmp_path), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    with (
        TestClient(create_app(config, Recording()), raise_server_exceptions=False) as running,
        caplog.at_level(logging.ERROR),
    ):
        yield running
    assert "Traceback" not in caplog.text and "unexpected error" not in caplog.text, caplog.text


def record_item(statement: str) -> dict[str, object]:
    return {"record": {"problem_id": "own", "formal_statement": statement}, "candidate": PROOF, "profile": "text"}


SHAPELESS = {
    "no Proof. Admitted.": "Theorem own : True.",
    "two theorems, neither the id's": "Theorem x : True. Proof. Admitted. Theorem y : True. Proof. Admitted.",
}


@pytest.mark.parametrize(
    "kind", [k if k == "no Proof. Admitted." else pytest.param(k, marks=pytest.mark.slow) for k in SHAPELESS]
)
def test_a_record_without_the_prover_s_shape_is_the_client_s_422(client: TestClient, kind: str) -> None:
    """Before: 500 "internal error" and a traceback in the server's log; a batch item said "InputError"."""
    item = record_item(SHAPELESS[kind])
    single = client.post("/verify", json=item, headers=HEADERS)
    batch = client.post("/verify/batch", json={"items": [item]}, headers=HEADERS)
    for response, prefix in ((single, ""), (batch, "item 0: ")):
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert detail.startswith(f"{prefix}the record's formal_statement cannot be judged"), detail
        assert "Proof. Admitted." in detail


def test_a_record_of_the_prover_s_shape_is_judged(client: TestClient) -> None:
    """Valid beside: an own record with its hole is judged (an unpinned one-record benchmark)."""
    response = client.post("/verify", json=record_item("Theorem own : True.\nProof. Admitted.\n"), headers=HEADERS)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "accepted"


def test_a_body_nested_past_the_parser_says_so(client: TestClient) -> None:
    """Before: "There was an error parsing the body"."""
    depth = 100_000
    extra = "[" * depth + "]" * depth
    body = json.dumps(record_item("Theorem own : True.\nProof. Admitted.\n"))[:-1] + f', "nested": {extra}}}'
    response = client.post("/verify", content=body, headers={**HEADERS, "Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert "nests deeper than this server reads" in response.json()["detail"]
