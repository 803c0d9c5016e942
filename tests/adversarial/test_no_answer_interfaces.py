"""No-answer track: no interface answers with the official answer, the informal solution or tool output
about the harness's reference (``withheld.no_answer_view``).

Every interface runs for real on the same two problems with real coqc/coqchk: ``putnam verify --json``
(and its text), ``putnam serve``'s API behind its gatekeeper, ``putnam mcp``'s ``verify`` over the MCP
SDK's stdio client, and the diagnostics a campaign carries from the ledger to the next worker. The
problems: the sample with a solution hole, solved with an answer right but written differently (so any
sighting of the official text is a leak, and the candidate's own must still show), and a statement whose
official solution does not compile, so coqc's message quoting it lands in a gate's evidence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.serve import KeyRing, PoolVerifier, Readiness, ServeConfig, create_app, load_keys
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import REPO

pytestmark = NEEDS_ROCQ

SAMPLES = REPO / "samples" / "rocq"
ODDS = "sample_sum_odds"
OFFICIAL = "fun n => n * n"
MINE = "fun k => k * k"
BROKEN = "broken_reference"
SECRET = "official_secret_answer_xyz"
BROKEN_STATEMENT = (
    f"Definition {BROKEN}_solution : nat := {SECRET}.\n"
    f"Theorem {BROKEN} : {BROKEN}_solution + 0 = {BROKEN}_solution.\nProof. Admitted.\n"
)
KEY = "leak-key-0123456789abcdef"


def _benchmark(tmp_path: Path) -> Path:
    odds = next(line for line in (SAMPLES / "benchmark.jsonl").read_text().splitlines() if f'"{ODDS}"' in line)
    path = tmp_path / "bench.jsonl"
    broken = {"problem_id": BROKEN, "formal_statement": BROKEN_STATEMENT, "informal_solution": "It is the secret."}
    path.write_text(odds + "\n" + json.dumps(broken) + "\n")
    return path


def _candidates(tmp_path: Path) -> dict[str, str]:
    odds = (SAMPLES / "proofs" / f"{ODDS}.v").read_text().replace(OFFICIAL, MINE)
    broken = BROKEN_STATEMENT.replace(SECRET, "0").replace("Admitted.", "reflexivity. Qed.")
    folder = tmp_path / "candidates"
    folder.mkdir()
    found = {ODDS: odds, BROKEN: broken}
    for problem, text in found.items():
        (folder / f"{problem}.v").write_text(text)
    return found


def _secrets(bench: Path) -> list[str]:
    records = load_benchmark(bench).problems
    informal = [p.informal_solution for p in records.values() if p.informal_solution]
    assert len(informal) == 2 and OFFICIAL in records[ODDS].formal_statement
    return [OFFICIAL, SECRET, *informal]


def _cli(bench: Path, folder: Path, out: Path, *extra: str) -> tuple[str, dict[str, Any]]:
    args = ["verify", "--prover", "rocq", "--benchmark", str(bench), "--track", "no-answer", "--jobs", "1"]
    result = CliRunner().invoke(app, [*args, "--json", str(out), *extra, str(folder)])
    assert result.exit_code == 2, result.output  # the broken reference is an error, the other accepted
    return result.stdout, json.loads(out.read_text())


def _serve(tmp_path: Path, bench: Path, candidates: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # readiness has tests of its own
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    (tmp_path / "keys").write_text(f"leak {KEY}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    ring: KeyRing = load_keys(tmp_path / "keys")
    config = ServeConfig(keys=ring, benchmarks={"rocq": load_benchmark(bench)})
    items = [{"problem": p, "candidate": text, "track": "no-answer"} for p, text in candidates.items()]
    with TestClient(create_app(config, PoolVerifier(1))) as client:
        headers = {"Authorization": f"Bearer {KEY}"}
        one = client.post("/verify", json=items[0], headers=headers, params={"full": "1"})
        batch = client.post("/verify/batch", json={"items": items}, headers=headers, params={"full": "1"})
    assert one.status_code == batch.status_code == 200, (one.text, batch.text)
    return [one.json(), batch.json()]


def _mcp(bench: Path, candidates: dict[str, str]) -> list[Any]:
    from tests.integration.mcp_driver import over_stdio, structured

    seen: list[Any] = []

    async def session(client: Any) -> None:
        for problem, text in candidates.items():
            seen.append(structured(await client.call_tool("verify", {"problem": problem, "proof": text})))

    over_stdio(session, "--prover", "rocq", "--benchmark", str(bench), "--track", "no-answer")
    return seen


def _carried(verdicts: list[dict[str, Any]]) -> list[str]:
    """The diagnostics the next campaign's worker is shown for each verdict, as the ledger stores it."""
    from putnam_solver.run.campaign._run import diagnostics
    from putnam_solver.run.ledger import AttemptRow

    empty = (None, None, None, None, None)
    rows = [AttemptRow(n, 1, v["problem"], "failed", 1, 0, 0, 0.0, *empty, v) for n, v in enumerate(verdicts)]
    return [diagnostics(row) for row in rows]


def test_no_interface_answers_with_the_official_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("mcp")
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    bench = _benchmark(tmp_path)
    candidates = _candidates(tmp_path)
    secrets = _secrets(bench)

    # the harness's own record (the operator's --show-official) holds every secret: the search can find them
    full_text, full = _cli(bench, tmp_path / "candidates", tmp_path / "full.json", "--show-official")
    recorded = full_text + json.dumps(full)
    assert OFFICIAL in recorded and SECRET in json.dumps(full), "the record keeps the answer and coqc's message"
    by_problem = {r["problem"]: r for r in full["results"]}
    assert by_problem[ODDS]["status"] == "accepted" and by_problem[BROKEN]["status"] == "error"
    stored = [by_problem[ODDS], by_problem[BROKEN]]

    text, document = _cli(bench, tmp_path / "candidates", tmp_path / "shown.json")
    shown = {
        "cli text": text,
        "cli json": json.dumps(document),
        "serve": json.dumps(_serve(tmp_path, bench, candidates, monkeypatch)),
        "mcp": json.dumps(_mcp(bench, candidates)),
        "carried diagnostics": "\n".join(_carried(stored)),
    }
    for interface, output in shown.items():
        for secret in secrets:
            assert secret not in output, f"{interface} shows {secret!r}: {output[:3000]}"
    for interface in ("cli text", "cli json", "serve", "mcp"):
        assert MINE in shown[interface], f"{interface} still shows the candidate's own answer"
        assert "accepted" in shown[interface].lower() and "reference module does not compile" in shown[interface]
