"""A statement that is not a pinned benchmark record obeys G3's plugin and kernel rules itself.

``putnam serve`` verifies a client's ``record`` under a new id as a one-record, unpinned benchmark: its
statement is the client's text, and a plugin or system command in it (``Elpi``, ``Declare ML Module``,
``Load``, ``Redirect``) would run at compile time like a candidate's. Real coqc: each such record is
refused by G3 before any compile, through the real API behind its gatekeeper; the same statement in a
benchmark file pinned by its SHA-256 is judged as before (its own commands excused, compiled, accepted),
and a clean record is still accepted. The Lean rules are checked on the text profile (``#eval``,
``run_cmd`` in a record's statement), beside a clean Lean record.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Track, VerifyOptions, run_gates
from putnam_solver.serve import PoolVerifier, Readiness, ServeConfig, create_app, load_keys
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import REPO, ROCQ_SAMPLES

KEY = "record-key-0123456789abcdef"
THEOREM = "Theorem {name} : 1 + 1 = 2.\nProof. Admitted.\n"
PROOF = "reflexivity. Qed."
ROCQ_COMMANDS = {
    "elpi": 'From elpi Require Import elpi.\nElpi Command hello.\nElpi Accumulate lp:{{ main _ :- coq.say "hi". }}.\n',
    "ml_module": 'Declare ML Module "coq-core.plugins.ltac".\n',
    "load": 'Load "/etc/passwd".\n',
    "redirect": 'Redirect "/tmp/putnam-redirected" Check nat.\n',
    "guard": "Unset Guard Checking.\n",
}
LEAN_SAMPLES = REPO / "samples" / "lean" / "benchmark.jsonl"


@pytest.fixture(autouse=True)
def _ready(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # readiness has tests of its own
    monkeypatch.setattr(Readiness, "start", lambda self: None)


def _post(tmp_path: Path, prover: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    (tmp_path / "keys").write_text(f"rec {KEY}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    bench = load_benchmark(ROCQ_SAMPLES if prover == "rocq" else LEAN_SAMPLES)
    config = ServeConfig(keys=load_keys(tmp_path / "keys"), benchmarks={prover: bench})
    with TestClient(create_app(config, PoolVerifier(1))) as client:
        answer = client.post(
            "/verify/batch", json={"items": items}, headers={"Authorization": f"Bearer {KEY}"}, params={"full": "1"}
        )
    assert answer.status_code == 200, answer.text
    results: list[dict[str, Any]] = answer.json()["results"]
    return results


def _gates(verdict: dict[str, Any]) -> dict[str, str]:
    return {g["id"]: g["status"] for g in verdict["gates"]}


@NEEDS_ROCQ
def test_a_rocq_record_with_plugin_commands_is_refused_before_any_compile(tmp_path: Path) -> None:
    items = []
    for name, commands in {**ROCQ_COMMANDS, "clean": ""}.items():
        statement = commands + THEOREM.format(name=f"rec_{name}")
        record = {"problem_id": f"rec_{name}", "formal_statement": statement}
        items.append({"record": record, "candidate": statement.replace("Admitted.", PROOF), "profile": "full"})
    verdicts = {v["problem"]: v for v in _post(tmp_path, "rocq", items)}
    assert verdicts["rec_clean"]["status"] == "accepted", verdicts["rec_clean"]
    assert verdicts["rec_clean"]["benchmark_pinned"] is False
    for name in ROCQ_COMMANDS:
        verdict = verdicts[f"rec_{name}"]
        assert verdict["status"] == "rejected" and _gates(verdict) == {"G1": "passed", "G2": "passed", "G3": "failed"}
        assert "not a pinned benchmark record" in next(g["detail"] for g in verdict["gates"] if g["id"] == "G3")
    assert not Path("/tmp/putnam-redirected.out").exists()


@NEEDS_ROCQ
def test_the_same_statement_in_a_pinned_file_is_judged_as_before(tmp_path: Path) -> None:
    statement = 'Redirect "redirected" Check nat.\n' + THEOREM.format(name="pinned_ml")
    path = tmp_path / "pinned.jsonl"
    path.write_text(json.dumps({"problem_id": "pinned_ml", "formal_statement": statement}) + "\n")
    bench = load_benchmark(path, hashlib.sha256(path.read_bytes()).hexdigest())
    assert bench.pinned
    candidate = statement.replace("Admitted.", PROOF).encode()
    verdict = run_gates(
        get_prover("rocq"), bench, bench.problems["pinned_ml"], candidate, Track.WITH_ANSWER, VerifyOptions()
    )
    assert verdict.accepted, verdict.to_json()  # G3 excuses the pinned statement's own command
    unpinned = load_benchmark(path)
    again = run_gates(
        get_prover("rocq"), unpinned, unpinned.problems["pinned_ml"], candidate, Track.WITH_ANSWER, VerifyOptions()
    )
    assert again.status == "rejected" and again.gates[-1].id == "G3", "the same file unpinned: refused by G3"


def test_a_lean_record_with_meta_commands_is_refused_and_a_clean_one_is_not(tmp_path: Path) -> None:
    theorem = "theorem {name} : 1 + 1 = 2 := by\n  sorry\n"
    statements = {
        "rec_eval": '#eval IO.println "hi"\n' + theorem.format(name="rec_eval"),
        "rec_run_cmd": 'run_cmd Lean.logInfo "hi"\n' + theorem.format(name="rec_run_cmd"),
        "rec_clean": theorem.format(name="rec_clean"),
    }
    items = [
        {
            "record": {"problem_id": name, "formal_statement": text},
            "candidate": text.replace("sorry", "rfl"),
            "profile": "text",
        }
        for name, text in statements.items()
    ]
    verdicts = {v["problem"]: v for v in _post(tmp_path, "lean", items)}
    assert verdicts["rec_clean"]["status"] == "accepted", verdicts["rec_clean"]
    for name in ("rec_eval", "rec_run_cmd"):
        assert _gates(verdicts[name])["G3"] == "failed", verdicts[name]
