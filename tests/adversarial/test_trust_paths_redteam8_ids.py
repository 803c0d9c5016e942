"""Red team round 8 of the trust paths: problem ids long enough to break the file names they become.

A problem id names files and folders: the candidate (``<id>.v``), the sandbox's workdir
(``putnam-<id>-...``), Rocq's ``.<id>.aux``, a run's evidence folders, a bundle's entries. The id grammar
had no length bound, so a benchmark line with a 249-character id (a candidate file of that name still
fits in 255 bytes) reached G4 under ``putnam verify --benchmark``, where the workdir's name was too long:
the verdict was ``error`` with ``gate crashed: OSError: [Errno 36] File name too long`` and a temporary
path, no rule and no fix (measured with real coqc; ``putnam serve`` cut a record's id at 200 characters,
which still fit). Ids are now at most 128 characters (the longest shipped id has 62) wherever one is
read: a benchmark file, a request's record, a ledger, a bundle; the refusal says the rule. A
128-character id is still judged, and accepted, with real coqc.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from putnam_solver.bundles.bundle import BundleError, proof_name
from putnam_solver.core.benchmark import MAX_ID_CHARS, BenchmarkError, load_benchmark
from putnam_solver.run.ledger_rows import LedgerError, checked_id
from putnam_solver.serve import PoolVerifier, Readiness, ServeConfig, create_app, load_keys
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import REPO, ROCQ_SAMPLES

KEY = "long-id-key-0123456789abcdef"
RULE = f"at most {MAX_ID_CHARS} characters"
TOO_LONG = "p" + "x" * 248
LONGEST = "p" + "x" * (MAX_ID_CHARS - 1)


def _record(name: str) -> dict[str, str]:
    return {"problem_id": name, "formal_statement": f"Theorem {name} : 1 + 1 = 2.\nProof. Admitted.\n"}


def _candidate(name: str) -> str:
    return f"Theorem {name} : 1 + 1 = 2.\nProof. reflexivity. Qed.\n"


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # readiness has tests of its own
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    (tmp_path / "keys").write_text(f"ids {KEY}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(keys=load_keys(tmp_path / "keys"), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    with TestClient(create_app(config, PoolVerifier(1))) as made:
        yield made


def _post(client: Any, name: str, profile: str = "full") -> Any:
    body = {"record": _record(name), "candidate": _candidate(name), "profile": profile}
    return client.post("/verify", json=body, headers={"Authorization": f"Bearer {KEY}"})


def test_a_served_record_with_an_overlong_id_is_refused_with_the_rule(client: Any) -> None:
    answer = _post(client, LONGEST + "x")
    assert answer.status_code == 422, answer.text
    assert RULE in answer.text and "ids name files" in answer.text
    assert "Errno" not in answer.text and "crashed" not in answer.text


@NEEDS_ROCQ
def test_a_served_record_with_the_longest_id_is_judged_and_accepted(client: Any) -> None:
    answer = _post(client, LONGEST)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "accepted", answer.text


def test_a_benchmark_line_with_an_overlong_id_names_the_file_line_and_rule(tmp_path: Path) -> None:
    path = tmp_path / "bench.jsonl"
    path.write_text(json.dumps(_record("ok_one")) + "\n" + json.dumps(_record(TOO_LONG)) + "\n")
    with pytest.raises(BenchmarkError) as refused:
        load_benchmark(path)
    message = str(refused.value)
    assert str(path) in message and "line 2" in message and RULE in message
    assert TOO_LONG not in message, "the id is shown cut, not whole"


@NEEDS_ROCQ
def test_putnam_verify_exits_2_on_an_overlong_id_and_accepts_the_longest(tmp_path: Path) -> None:
    for name in (TOO_LONG, LONGEST):
        folder = tmp_path / str(len(name))
        folder.mkdir()
        (folder / "bench.jsonl").write_text(json.dumps(_record(name)) + "\n")
        (folder / f"{name}.v").write_text(_candidate(name))
    env = {"PYTHONPATH": str(REPO / "src"), "PUTNAM_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}

    def verify(folder: Path) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "putnam_solver", "verify", "--benchmark", str(folder / "bench.jsonl")]
        argv += [str(p) for p in folder.glob("*.v")]
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)

    refused = verify(tmp_path / str(len(TOO_LONG)))
    assert refused.returncode == 2 and RULE in refused.stderr + refused.stdout, refused.stderr
    accepted = verify(tmp_path / str(len(LONGEST)))
    assert accepted.returncode == 0 and "ACCEPTED" in accepted.stdout, accepted.stdout + accepted.stderr


def test_a_ledger_or_bundle_id_over_the_bound_is_refused_by_name() -> None:
    with pytest.raises(LedgerError, match=RULE):
        checked_id(TOO_LONG, "ledger.sqlite attempts row 1")
    assert checked_id(LONGEST, "ledger.sqlite attempts row 1") == LONGEST
    with pytest.raises(BundleError, match="not a valid problem id"):
        proof_name(TOO_LONG, ".v")
    assert proof_name(LONGEST, ".v") == f"proofs/{LONGEST}.v"


def test_every_shipped_id_is_within_the_bound() -> None:
    for path in sorted((REPO / "src" / "putnam_solver" / "data").glob("*/*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            name = record.get("problem_id") or record.get("name") or ""
            assert len(name) <= MAX_ID_CHARS, (path.name, name)
